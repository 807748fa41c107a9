/* The session loop: reader -> referee -> the caller's callback, with the exit status;
 * the same loop over a record already in memory. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "reader.h"

static inline __attribute__((always_inline)) int run(int fd, const struct session_options *o,
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
        o->respond(o->ctx, ref, resp);
        res->status = 2;
    } else {
        struct line line;
        long lines = 0;
        for (;;) {
            /* reader_next_quick, the line's bounds kept out of memory */
            const char *base = rd.buf + rd.start;
            size_t avail = rd.end - rd.start;
            const char *nl = avail ? memchr(base, '\n', avail) : NULL;
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
            if (!session_take(o, ref, resp, res, only_notable)) break;
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

int session_run(int fd, const struct session_options *o, struct session_result *res)
{
    return run(fd, o, res, false);
}

int session_run_notable(int fd, const struct session_options *o, struct session_result *res)
{
    return run(fd, o, res, true);
}
