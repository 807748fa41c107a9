/* Adjudication of record files: a session per file, one verdict per file. */
#include "check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "session.h"

/* Keeps the first rejection and the state of the last match that ended. */
static void record_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct check_result *res = ctx;
    if (resp->kind != RESPONSE_VERDICT) return;
    if (resp->verdict.code != ERR_NONE) {
        res->line = resp->line;
        res->verdict = resp->verdict;
    } else if (resp->verdict.match_ended) {
        res->last = ref->game;
        res->last_end = resp->verdict;
    }
}

void check_descriptor(int fd, const struct rules_loader *loader, const char *const rules_files[],
                      int nrules, struct check_result *res)
{
    res->line = 0;
    res->io_error[0] = '\0';
    verdict_reset(&res->verdict);
    verdict_reset(&res->last_end);
    struct session_options so = {loader, rules_files, nrules, false, record_response, NULL, res};
    struct session_result run;
    res->status = session_run(fd, &so, &run);
    res->moves = run.lines;
    res->matches = run.matches_ended;
    res->complete = res->matches > 0 && !run.match_touched;
    if (run.out_of_memory)
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
    else if (run.read_error && res->verdict.code == ERR_NONE)
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(run.read_error));
}

static void print_winners(FILE *out, const struct check_result *res)
{
    const struct game *g = &res->last;
    const struct verdict *v = &res->last_end;
    char score[400];
    output_score_line(g, v, score, sizeof score);
    output_text_winners(out, g, v);
    fprintf(out, " %s", score);
}

static void print_text(FILE *out, const char *file, const struct check_result *res)
{
    /* one verdict, one line: the file name and the message (which may quote the
     * record and a rules file) are escaped, so nothing can forge or erase a line */
    escape_puts(out, file);
    if (res->io_error[0]) {
        fprintf(out, ": error: %s\n", res->io_error);
        return;
    }
    if (res->status != 0) {
        const struct verdict *v = &res->verdict;
        if (res->line > 0) fprintf(out, ":%ld", res->line);
        fprintf(out, ": %s: ", error_code_name(v->code));
        escape_puts(out, v->message);
        if (v->rule) fprintf(out, " [%s]", v->rule);
        putc('\n', out);
        return;
    }
    fputs(": ok, ", out);
    if (res->matches == 0) {
        fputs("incomplete\n", out);
        return;
    }
    if (res->matches > 1) fprintf(out, "%ld matches, last: ", res->matches);
    print_winners(out, res);
    if (!res->complete) fputs("; then incomplete", out);
    putc('\n', out);
}

static void print_json(FILE *out, const char *file, const struct check_result *res)
{
    fputs("{\"file\":", out);
    output_json_string(out, file);
    fprintf(out, ",\"ok\":%s,\"status\":%d", res->status == 0 ? "true" : "false", res->status);
    if (res->io_error[0]) {
        fputs(",\"error\":\"unreadable\",\"message\":", out);
        output_json_string(out, res->io_error);
    } else if (res->status != 0) {
        const struct verdict *v = &res->verdict;
        if (res->line > 0) fprintf(out, ",\"line\":%ld", res->line);
        fprintf(out, ",\"error\":\"%s\",\"message\":", error_code_name(v->code));
        output_json_string(out, v->message);
        if (v->rule) fprintf(out, ",\"rule\":\"%s\"", v->rule);
    }
    fprintf(out, ",\"matches\":%ld,\"complete\":%s", res->matches, res->complete ? "true" : "false");
    if (res->status == 0 && res->matches > 0) {
        putc(',', out);
        output_json_result(out, &res->last, &res->last_end);
    }
    fputs("}\n", out);
}

void check_print(FILE *out, enum output_mode mode, const char *file, const struct check_result *res)
{
    if (mode == OUTPUT_JSON) print_json(out, file, res);
    else print_text(out, file, res);
}
