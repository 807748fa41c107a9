/* The session loop: one input stream, line by line, through a referee session. The
 * one loop that the referee (`mtref [FILE]`), `check` and any other reader of records
 * run; what they do with each response is theirs (a callback). */
#ifndef MTREF_SESSION_H
#define MTREF_SESSION_H

#include <stdbool.h>
#include <string.h>

#include "reader.h"
#include "referee.h"

struct session_options {
    const struct rules_loader *loader;  /* not owned */
    const char *const *rules_files;     /* --rules, applied after a record's own; not owned */
    int nrules;
    bool keep_going;                    /* reject and read on instead of stopping */
    /* Called with every response, in input order: a start-up `rules` failure comes as
     * line 0. ref is the session after the line (read only, valid during the call). */
    void (*respond)(void *ctx, const struct referee *ref, const struct response *resp);
    void (*before_wait)(void *ctx);     /* called before a read that may block; may be NULL */
    void *ctx;                          /* handed to both */
};

struct session_result {
    int status;              /* protocol.md's exit status of what was read: 0, 1 or 2 */
    long lines;              /* lines handled, for throughput figures */
    int read_error;          /* errno of a failed read (status is then 2), or 0 */
    bool out_of_memory;      /* nothing was read (status 2) */
    long matches_ended;
    bool match_touched;      /* a set-up line or move since the last match ended */
};

/* Referees the lines of fd (not closed) until its end, or its first rejected line
 * unless keep_going. Fills res; returns res->status. */
int session_run(int fd, const struct session_options *o, struct session_result *res);
/* session_run, but respond is not called for an accepted line that ends no match nor
 * for a blank or comment line: what check keeps needs only the others. */
int session_run_notable(int fd, const struct session_options *o, struct session_result *res);
/* One response through the caller's callback and into the exit status; false when the
 * loop must stop (a rejected line without keep_going). The step of every form of the
 * loop, inline so that a callback known where the loop is used is inlined there too. */
static inline __attribute__((always_inline)) bool session_take(const struct session_options *o,
                                                               const struct referee *ref,
                                                               const struct response *resp,
                                                               struct session_result *res, bool only_notable)
{
    bool ok = resp->kind != RESPONSE_VERDICT || resp->verdict.code == ERR_NONE;
    bool plain = resp->kind == RESPONSE_NONE || (resp->kind == RESPONSE_VERDICT && ok && !resp->verdict.match_ended);
    if (!plain || !only_notable) o->respond(o->ctx, ref, resp);
    if (ok) return true;
    int s = error_code_status(resp->verdict.code);
    if (s > res->status) res->status = s;
    return o->keep_going;
}

/* The same loop over the lines of text (len bytes; "\n" or "\r\n" ends a line, the
 * last may have no end), numbered from first_number, through ref: a session the caller
 * has set up and still owns afterwards, so it can read how the text left it. resp is
 * the caller's room for each line's response. The loader and rules in o are not used
 * (ref has its own). Fills res; returns res->status. */
static inline __attribute__((always_inline)) int session_run_text(struct referee *ref, const char *text, size_t len,
                                                                  long first_number, const struct session_options *o,
                                                                  struct response *resp, struct session_result *res)
{
    memset(res, 0, sizeof *res);
    size_t pos = 0;
    struct line line;
    while (reader_next_in(text, len, &pos, PROTOCOL_LINE_MAX, &line)) {
        referee_line(ref, line.text, line.len, line.too_long, first_number + res->lines, resp);
        res->lines++;
        if (!session_take(o, ref, resp, res, false)) break;
    }
    res->matches_ended = ref->matches_ended;
    res->match_touched = ref->match_touched;
    return res->status;
}

#endif
