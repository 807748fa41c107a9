/* Refereeing one input stream: every response written out as it comes. */
#include "stream.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "session.h"

/* --json answers to accepted lines, nearly all of its output, are gathered here and
 * written in large blocks; anything else goes through output_response after them. */
struct writer {
    FILE *out;
    FILE *err;
    enum output_mode mode;
    struct output_json_lines lines;
    size_t len;
    char buf[1 << 15];
};

static void writer_flush(struct writer *w)
{
    if (w->len) fwrite(w->buf, 1, w->len, w->out);
    w->len = 0;
}

/* Everything but the --json answer to an accepted line that ends nothing: out of line,
 * so that the usual answer costs no more than its own bytes. */
__attribute__((noinline)) static void write_other(struct writer *w, const struct referee *ref,
                                                  const struct response *resp)
{
    if (resp->line == 0 && w->mode == OUTPUT_TEXT) {
        /* --rules that fail at start-up: a usage problem for a person, not a line's answer */
        fprintf(w->err, "mtref: %s: ", error_code_name(resp->verdict.code));
        escape_puts(w->err, resp->verdict.message);     /* may quote a rules file */
        putc('\n', w->err);
        return;
    }
    if (w->mode == OUTPUT_JSON && resp->kind == RESPONSE_VERDICT && resp->verdict.code == ERR_NONE) {
        if (w->len + OUTPUT_JSON_OK_MAX + OUTPUT_JSON_EVENTS_ROOM > sizeof w->buf) writer_flush(w);
        size_t n = output_json_ok_format_next(w->buf + w->len, &w->lines, resp->line, resp->verdict.drew);
        if (!output_is_more_than_ok(resp)) {
            w->len += n;
            return;
        }
        /* a round or match that ended: its events, formatted in place as well */
        size_t e = output_json_events_format(w->buf + w->len + n, sizeof w->buf - w->len - n, &ref->game,
                                             &resp->verdict);
        if (e) {
            w->len += n + e;
            return;
        }
    }
    writer_flush(w);
    output_response(w->out, w->mode, &ref->game, resp);
}

static inline __attribute__((always_inline)) void write_response(void *ctx, const struct referee *ref,
                                                                 const struct response *resp)
{
    struct writer *w = ctx;
    if (w->mode == OUTPUT_JSON && resp->line != 0 && !output_is_more_than_ok(resp)) {
        if (w->len + OUTPUT_JSON_OK_MAX + OUTPUT_JSON_EVENTS_ROOM > sizeof w->buf) writer_flush(w);
        w->len += output_json_ok_format_next(w->buf + w->len, &w->lines, resp->line, resp->verdict.drew);
        return;
    }
    write_other(w, ref, resp);
}

/* The person at the other end of a pipe sees every answer before mtref waits. */
static void flush_before_wait(void *ctx)
{
    writer_flush(ctx);
    fflush(((struct writer *)ctx)->out);
}

int stream_run(int fd, FILE *out, FILE *err, const struct stream_options *o, const struct rules_loader *loader)
{
    struct writer *w = mt_malloc(sizeof *w);
    if (!w) {
        fputs("mtref: out of memory\n", err);
        return 2;
    }
    w->out = out;
    w->mode = o->mode;
    output_json_lines_init(&w->lines);
    w->len = 0;
    w->err = err;
    struct session_options so = {loader, o->rules_files, o->nrules, o->keep_going, write_response,
                                 flush_before_wait, w};
    struct session_result res;
    int status = session_loop(fd, &so, write_response, &res, false);
    writer_flush(w);
    free(w);
    if (res.out_of_memory) fputs("mtref: out of memory\n", err);
    if (res.read_error)
        fprintf(err, "mtref: %s: %s\n", o->name ? o->name : "input", strerror(res.read_error));
    if (fflush(out) != 0) status = 2;
    return status;
}
