/* Refereeing one input stream: every response written out as it comes. */
#include "stream.h"

#include <string.h>

#include "session.h"

struct writer {
    FILE *out;
    FILE *err;
    enum output_mode mode;
};

static void write_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct writer *w = ctx;
    if (resp->line == 0 && w->mode == OUTPUT_TEXT) {
        /* --rules that fail at start-up: a usage problem for a person, not a line's answer */
        fprintf(w->err, "mtref: %s: %s\n", error_code_name(resp->verdict.code), resp->verdict.message);
        return;
    }
    output_response(w->out, w->mode, &ref->game, resp);
}

/* The person at the other end of a pipe sees every answer before mtref waits. */
static void flush_before_wait(void *ctx) { fflush(((struct writer *)ctx)->out); }

int stream_run(int fd, FILE *out, FILE *err, const struct stream_options *o, const struct rules_loader *loader)
{
    struct writer w = {out, err, o->mode};
    struct session_options so = {loader, o->rules_files, o->nrules, o->keep_going, write_response,
                                 flush_before_wait, &w};
    struct session_result res;
    int status = session_run(fd, &so, &res);
    if (res.out_of_memory) fputs("mtref: out of memory\n", err);
    if (res.read_error)
        fprintf(err, "mtref: %s: %s\n", o->name ? o->name : "input", strerror(res.read_error));
    if (fflush(out) != 0) status = 2;
    return status;
}
