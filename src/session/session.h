/* The session loop: one input stream, line by line, through a referee session. The
 * one loop that the referee (`mtref [FILE]`), `check` and any other reader of records
 * run; what they do with each response is theirs (a callback). */
#ifndef MTREF_SESSION_H
#define MTREF_SESSION_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "reader.h"
#include "referee.h"

typedef void (*session_respond_fn)(void *ctx, const struct referee *ref, const struct response *resp);

struct session_options {
    const struct rules_loader *loader;  /* not owned */
    const char *const *rules_files;     /* --rules, applied after a record's own; not owned */
    int nrules;
    bool keep_going;                    /* reject and read on instead of stopping */
    /* Called with every response, in input order: a start-up `rules` failure comes as
     * line 0. ref is the session after the line (read only, valid during the call). */
    session_respond_fn respond;
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
                                                               session_respond_fn respond,
                                                               const struct referee *ref,
                                                               const struct response *resp,
                                                               struct session_result *res, bool only_notable)
{
    bool ok = resp->kind != RESPONSE_VERDICT || resp->verdict.code == ERR_NONE;
    bool plain = resp->kind == RESPONSE_NONE || (resp->kind == RESPONSE_VERDICT && ok && !resp->verdict.match_ended);
    if (!plain || !only_notable) respond(o->ctx, ref, resp);
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
        if (!session_take(o, o->respond, ref, resp, res, false)) break;
    }
    res->matches_ended = ref->matches_ended;
    res->match_touched = ref->match_touched;
    return res->status;
}

/* session_run's loop, inline, with respond in place of o->respond: a caller that names
 * its callback here has it inlined into the loop (the stream writer's, called for
 * every line). */
static inline __attribute__((always_inline)) int session_loop(int fd, const struct session_options *o,
                                                               session_respond_fn respond,
                                                               struct session_result *res, bool only_notable)
{
    memset(res, 0, sizeof *res);
    char rules_err[RULES_MESSAGE_SIZE] = "";
    struct referee *ref = mt_malloc(sizeof *ref);
    struct response *resp = mt_malloc(sizeof *resp);
    struct reader rd;
    bool reading = ref && resp && reader_open(&rd, fd, PROTOCOL_LINE_MAX);
    if (!reading) {
        free(ref);
        free(resp);
        res->out_of_memory = true;
        return res->status = 2;
    }
    rd.before_wait = o->before_wait;
    rd.ctx = o->ctx;
    if (!referee_init(ref, o->loader, o->rules_files, o->nrules, rules_err)) {
        /* --rules that fail to load: one `rules` error for line 0, exit 2 */
        resp->kind = RESPONSE_VERDICT;
        resp->line = 0;
        resp->nlegal = 0;
        verdict_fail(&resp->verdict, ERR_RULES, 0, "%s", rules_err);
        respond(o->ctx, ref, resp);
        res->status = 2;
    } else {
        struct line line;
        long lines = 0;
        for (;;) {
            /* reader_next_quick, the line's bounds kept out of memory */
            const char *base = rd.buf + rd.start;
            size_t avail = rd.end - rd.start;
            const char *nl = avail ? reader_find_newline(base, avail) : NULL;
            size_t len = nl ? (size_t)(nl - base) : 0;
            if (nl && len <= rd.limit) {
                rd.start += len + 1;
                if (len > 0 && base[len - 1] == '\r') len--;
                referee_line(ref, base, len, false, ++rd.line_number, resp);
            } else {
                if (!reader_next(&rd, &line)) break;
                referee_line(ref, line.text, line.len, line.too_long, line.number, resp);
            }
            lines++;
            if (!session_take(o, respond, ref, resp, res, only_notable)) break;
        }
        res->lines = lines;
        if (rd.error) {
            res->read_error = rd.error;
            res->status = 2;
        }
    }
    res->matches_ended = ref->matches_ended;
    res->match_touched = ref->match_touched;
    referee_free(ref);
    reader_close(&rd);
    free(ref);
    free(resp);
    return res->status;
}

#endif
