/* Refereeing one input stream, line by line, with the exit status of protocol.md. */
#include "stream.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "reader.h"

static void flush_before_wait(void *ctx) { fflush((FILE *)ctx); }

int stream_run(int fd, FILE *out, FILE *err, const struct stream_options *o, const struct rules_loader *loader)
{
    char rules_err[RULES_MESSAGE_SIZE] = "";
    struct referee *ref = mt_malloc(sizeof *ref);
    struct response *resp = mt_malloc(sizeof *resp);
    struct reader rd;
    int status = 0;
    bool reading = ref && resp && reader_open(&rd, fd, PROTOCOL_LINE_MAX);
    if (!reading) {
        fputs("mtref: out of memory\n", err);
        free(ref);
        free(resp);
        return 2;
    }
    rd.before_wait = flush_before_wait;
    rd.ctx = out;
    if (!referee_init(ref, loader, o->rules_files, o->nrules, rules_err)) {
        /* --rules that fail to load: one `rules` error for line 0, exit 2 */
        resp->kind = RESPONSE_VERDICT;
        resp->line = 0;
        verdict_fail(&resp->verdict, ERR_RULES, 0, "%s", rules_err);
        output_response(out, o->mode, &ref->game, resp);
        status = 2;
    } else {
        struct line line;
        while (reader_next(&rd, &line)) {
            referee_line(ref, line.text, line.len, line.too_long, line.number, resp);
            output_response(out, o->mode, &ref->game, resp);
            if (resp->kind != RESPONSE_VERDICT || resp->verdict.code == ERR_NONE) continue;
            int s = error_code_status(resp->verdict.code);
            if (s > status) status = s;
            if (!o->keep_going) break;
        }
        if (rd.error) {
            fprintf(err, "mtref: %s: %s\n", o->name ? o->name : "input", strerror(rd.error));
            status = 2;
        }
    }
    referee_free(ref);
    reader_close(&rd);
    free(ref);
    free(resp);
    if (fflush(out) != 0) status = 2;
    return status;
}
