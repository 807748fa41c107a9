/* mtref diff --rules A --rules B FILE: one record adjudicated under two rule sets side
 * by side: the first line whose verdicts differ, and the round and match results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "cli_look.h"

static const char usage[] =
    "usage: mtref diff [OPTIONS] --rules A --rules B FILE\n"
    "                                       one record under two rule sets, side by side\n"
    "options:\n"
    "  --rules LIST      one side's rules: names or paths separated by commas, or\n"
    "                    canonical; the first --rules is side A, the second side B\n"
    "                    (given once: A is canonical)\n"
    "  --json            one JSON object\n"
    "  -h, --help        this help;  --version  the version\n"
    "Exit status: 0 the same verdicts and results, 1 they differ, 2 trouble. See mtref(1).\n";

enum { OPT_RULES, OPT_JSON };
static const struct cli_option options[] = {
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_JSON] = {"--json", 0, false},
};


/* A round or match end on one side. */
struct side_event {
    long line;
    struct round_report report;
    bool match_ended;
    bool winners[RULES_MAX_PLAYERS];
    int nplayers;
    char names[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];
    int64_t totals[RULES_MAX_PLAYERS];
};

struct side {
    struct cli_rules_side rules;
    struct session_options so;
    long *lines;                 /* the answered verdict lines, in order */
    enum error_code *codes;
    long n, cap;
    struct side_event *events;
    long nevents, event_cap;
    struct verdict rejection;    /* the rejected line's verdict, when codes[n-1] is an error */
    int status;
    bool out_of_memory;
};

static bool grow(void **p, long *cap, long need, size_t size)
{
    if (need <= *cap) return true;
    long cap2 = *cap ? *cap * 2 : 256;
    void *q = mt_realloc(*p, (size_t)cap2 * size);
    if (!q) return false;
    *p = q;
    *cap = cap2;
    return true;
}

static void collect(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct side *s = ctx;
    if (resp->kind != RESPONSE_VERDICT || s->out_of_memory) return;
    long cap = s->cap;
    if (!grow((void **)&s->lines, &cap, s->n + 1, sizeof *s->lines) ||
        !grow((void **)&s->codes, &s->cap, s->n + 1, sizeof *s->codes)) {
        s->out_of_memory = true;
        return;
    }
    s->lines[s->n] = resp->line;
    s->codes[s->n++] = resp->verdict.code;
    const struct verdict *v = &resp->verdict;
    if (v->code != ERR_NONE) s->rejection = *v;
    if (v->code != ERR_NONE || !(v->round_ended || v->match_ended)) return;
    if (!grow((void **)&s->events, &s->event_cap, s->nevents + 1, sizeof *s->events)) {
        s->out_of_memory = true;
        return;
    }
    struct side_event *e = &s->events[s->nevents++];
    memset(e, 0, sizeof *e);
    e->line = resp->line;
    if (v->round_ended) e->report = v->report;
    else e->report.round = -1;
    e->match_ended = v->match_ended;
    memcpy(e->winners, v->winners, sizeof e->winners);
    e->nplayers = ref->game.nplayers;
    memcpy(e->names, ref->game.names, sizeof e->names);
    memcpy(e->totals, ref->game.totals, sizeof e->totals);
}

static void side_free(struct side *s)
{
    free(s->lines);
    free(s->codes);
    free(s->events);
}

/* The side's session options with its rules files. */
static struct session_options side_options(const struct side *s)
{
    struct session_options so = s->so;
    so.rules_files = s->rules.files;
    so.nrules = s->rules.nfiles;
    return so;
}

static bool side_run(struct side *s, int fd)
{
    if (lseek(fd, 0, SEEK_SET) != 0) return false;
    struct session_options so = side_options(s);
    so.respond = collect;
    so.ctx = s;
    struct session_result res;
    s->status = session_run(fd, &so, &res);
    return !s->out_of_memory && !res.out_of_memory;
}

/* ---- text ---- */

static void text_rules(FILE *out, const struct side *s)
{
    if (s->rules.nfiles == 0) fputs("canonical", out);
    for (int i = 0; i < s->rules.nfiles; i++) fprintf(out, "%s%s", i ? ", " : "", s->rules.files[i]);
}

static void text_map(FILE *out, const struct side_event *e, const int64_t *values, bool round_only)
{
    bool first = true;
    for (int p = 0; p < e->nplayers; p++) {
        if (round_only && !e->report.in_round[p]) continue;
        fprintf(out, "%s%s %lld", first ? "" : ", ", e->names[p], (long long)values[p]);
        first = false;
    }
}

static void text_winners(FILE *out, const struct side_event *e)
{
    bool first = true;
    for (int p = 0; p < e->nplayers; p++)
        if (e->winners[p]) {
            fprintf(out, "%s%s", first ? "" : " and ", e->names[p]);
            first = false;
        }
}

static bool same_event(const struct side_event *a, const struct side_event *b)
{
    if (a->report.round != b->report.round || a->report.out_seat != b->report.out_seat ||
        a->match_ended != b->match_ended || a->nplayers != b->nplayers)
        return false;
    for (int p = 0; p < a->nplayers; p++)
        if (a->report.points[p] != b->report.points[p] || a->totals[p] != b->totals[p] ||
            a->report.in_round[p] != b->report.in_round[p] || a->winners[p] != b->winners[p])
            return false;
    return true;
}

static const struct side_event *event_at(const struct side *s, long line)
{
    for (long i = 0; i < s->nevents; i++)
        if (s->events[i].line == line) return &s->events[i];
    return NULL;
}

struct table_ctx {
    FILE *out;
    struct cli_table_options table;
};

static void print_visit(void *ctx, const struct referee *ref, const struct game *before, const struct response *resp)
{
    struct table_ctx *c = ctx;
    cli_print_table(c->out, &c->table, ref, before, resp);
}

/* The first index whose verdicts differ; -1 when none. */
static long first_difference(const struct side *a, const struct side *b)
{
    long n = a->n < b->n ? a->n : b->n;
    for (long i = 0; i < n; i++)
        if (a->lines[i] != b->lines[i] || a->codes[i] != b->codes[i]) return i;
    return a->n != b->n ? n : -1;
}

/* Lines that end a round or the match on either side, merged in order. */
static long next_event_line(const struct side *a, const struct side *b, long after)
{
    long best = -1;
    for (int k = 0; k < 2; k++) {
        const struct side *s = k ? b : a;
        for (long i = 0; i < s->nevents; i++)
            if (s->events[i].line > after) {
                if (best < 0 || s->events[i].line < best) best = s->events[i].line;
                break;
            }
    }
    return best;
}

/* The next line before limit whose round or match results differ between the sides
 * (their events in *ea, *eb: NULL for none), or -1. */
static long next_differing_results(const struct side *a, const struct side *b, long after, long limit,
                                   const struct side_event **ea, const struct side_event **eb)
{
    for (long line = next_event_line(a, b, after); line >= 0 && line < limit; line = next_event_line(a, b, line)) {
        *ea = event_at(a, line);
        *eb = event_at(b, line);
        if (!(*ea && *eb && same_event(*ea, *eb))) return line;
    }
    return -1;
}

static void text_event(FILE *out, const char *side, const struct side_event *e)
{
    fprintf(out, "  %s: ", side);
    if (!e) { fputs("the round goes on\n", out); return; }
    if (e->report.round >= 0) {
        fprintf(out, "round %d %s; points ", e->report.round, e->report.out_seat >= 0 ? "out" : "blocked");
        text_map(out, e, e->report.points, true);
        fputs("; totals ", out);
        text_map(out, e, e->totals, false);
    }
    if (e->match_ended) {
        int nwinners = 0;
        for (int p = 0; p < e->nplayers; p++) nwinners += e->winners[p];
        fputs("; match over, ", out);
        text_winners(out, e);
        fputs(nwinners > 1 ? " draw" : " wins", out);
    }
    putc('\n', out);
}

/* The last match end before line limit, or NULL. */
static const struct side_event *match_end_before(const struct side *s, long limit)
{
    const struct side_event *found = NULL;
    for (long i = 0; i < s->nevents && s->events[i].line < limit; i++)
        if (s->events[i].match_ended) found = &s->events[i];
    return found;
}

static bool same_winners(const struct side_event *a, const struct side_event *b)
{
    return a->nplayers == b->nplayers && memcmp(a->winners, b->winners, sizeof a->winners) == 0;
}

/* The last line to show: the first that differs (first, a verdict index), or all. */
static long shown_until(const struct side *a, const struct side *b, long first, long last_line)
{
    return first >= 0 ? (first < a->n ? a->lines[first] : b->lines[first]) : last_line;
}

/* first: the verdict index that differs, or -1; limit: the last line to show. */
static int diff_text(FILE *out, int fd, struct side *a, struct side *b, long first, long limit)
{
    bool differ = false;
    fputs("A: ", out);
    text_rules(out, a);
    fputs("\nB: ", out);
    text_rules(out, b);
    putc('\n', out);
    const struct side_event *ea, *eb;
    for (long line = 0; (line = next_differing_results(a, b, line, limit, &ea, &eb)) >= 0;) {
        differ = true;
        fprintf(out, "line %ld: the results differ\n", line);
        text_event(out, "A", ea);
        text_event(out, "B", eb);
    }
    if (first >= 0) {
        differ = true;
        fprintf(out, "line %ld: the verdicts differ\n", limit);
        for (int k = 0; k < 2; k++) {
            struct side *s = k ? b : a;
            fprintf(out, "== %s (", k ? "B" : "A");
            text_rules(out, s);
            fputs(")\n", out);
            struct table_ctx c = {out, {OUTPUT_TEXT, NULL, false}};
            struct session_options so = side_options(s);
            if (!walk_to_line(fd, &so, limit, print_visit, &c))
                fputs("(the record ended before this line on this side)\n", out);
        }
    } else {
        fprintf(out, "every line has the same verdict under both (%ld lines answered)\n", a->n);
        if (!differ) fputs("and the same round and match results\n", out);
    }
    const struct side_event *ma = match_end_before(a, limit), *mb = match_end_before(b, limit);
    if (ma && mb && differ) {
        fputs(same_winners(ma, mb) ? "the match has the same winners: " : "the winners differ: A ", out);
        text_winners(out, ma);
        if (!same_winners(ma, mb)) {
            fputs(", B ", out);
            text_winners(out, mb);
        }
        putc('\n', out);
    }
    return differ ? 1 : 0;
}

/* ---- JSON ---- */

static void json_rules(FILE *out, const struct side *s)
{
    putc('[', out);
    for (int i = 0; i < s->rules.nfiles; i++) {
        if (i) putc(',', out);
        output_json_string(out, s->rules.files[i]);
    }
    putc(']', out);
}

static void json_map(FILE *out, const struct side_event *e, const int64_t *values, bool round_only)
{
    putc('{', out);
    bool first = true;
    for (int p = 0; p < e->nplayers; p++) {
        if (round_only && !e->report.in_round[p]) continue;
        fprintf(out, "%s\"%s\":%lld", first ? "" : ",", e->names[p], (long long)values[p]);
        first = false;
    }
    putc('}', out);
}

static void json_event(FILE *out, const struct side_event *e)
{
    if (!e) { fputs("null", out); return; }
    fputs("{\"round\":", out);
    if (e->report.round >= 0) {
        fprintf(out, "%d,\"reason\":\"%s\",\"points\":", e->report.round, e->report.out_seat >= 0 ? "out" : "blocked");
        json_map(out, e, e->report.points, true);
    } else {
        fputs("null", out);
    }
    fputs(",\"totals\":", out);
    json_map(out, e, e->totals, false);
    fprintf(out, ",\"match_end\":%s", e->match_ended ? "true" : "false");
    if (e->match_ended) {
        fputs(",\"winners\":[", out);
        bool first = true;
        for (int p = 0; p < e->nplayers; p++)
            if (e->winners[p]) {
                fprintf(out, "%s\"%s\"", first ? "" : ",", e->names[p]);
                first = false;
            }
        putc(']', out);
    }
    putc('}', out);
}

/* The referee's own JSON lines at the differing line, as an array: its answer and
 * events, then the show object. */
static void json_visit(void *ctx, const struct referee *ref, const struct game *before, const struct response *resp)
{
    FILE *out = ctx;
    (void)before;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    struct referee *scratch = mt_malloc(sizeof *scratch);
    struct response *shown = mt_malloc(sizeof *shown);
    if (mem && scratch && shown) {
        output_response(mem, OUTPUT_JSON, &ref->game, resp);
        walk_query(ref, scratch, "show", shown);
        shown->line = resp->line;
        output_response(mem, OUTPUT_JSON, &scratch->game, shown);
    }
    if (mem) fclose(mem);
    putc('[', out);
    bool first = true;
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "%s%.*s", first ? "" : ",", (int)len, line);
        first = false;
        line = end ? end + 1 : line + len;
    }
    putc(']', out);
    free(text);
    free(scratch);
    free(shown);
}

static int diff_json(FILE *out, int fd, struct side *a, struct side *b, long first, long limit)
{
    bool differ = false;
    fputs("{\"a\":", out);
    json_rules(out, a);
    fputs(",\"b\":", out);
    json_rules(out, b);
    fputs(",\"results\":[", out);
    bool comma = false;
    const struct side_event *ea, *eb;
    for (long line = 0; (line = next_differing_results(a, b, line, limit, &ea, &eb)) >= 0;) {
        differ = true;
        fprintf(out, "%s{\"line\":%ld,\"a\":", comma ? "," : "", line);
        json_event(out, ea);
        fputs(",\"b\":", out);
        json_event(out, eb);
        putc('}', out);
        comma = true;
    }
    putc(']', out);
    if (first >= 0) {
        differ = true;
        fprintf(out, ",\"verdicts\":{\"line\":%ld", limit);
        for (int k = 0; k < 2; k++) {
            struct side *s = k ? b : a;
            fprintf(out, ",\"%s\":", k ? "b" : "a");
            struct session_options so = side_options(s);
            if (!walk_to_line(fd, &so, limit, json_visit, out)) fputs("null", out);
        }
        putc('}', out);
    } else {
        fputs(",\"verdicts\":null", out);
    }
    const struct side_event *ma = match_end_before(a, limit), *mb = match_end_before(b, limit);
    fprintf(out, ",\"same_winners\":%s", ma && mb ? (same_winners(ma, mb) ? "true" : "false") : "null");
    fprintf(out, ",\"lines\":%ld,\"differ\":%s}\n", a->n < b->n ? a->n : b->n, differ ? "true" : "false");
    return differ ? 1 : 0;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct side *sides = calloc(2, sizeof *sides);
    if (!sides) return 2;
    const char *path = NULL;
    int nsides = 0;
    bool json = false;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_diff, options);
    const char *value;
    int opt, status = 0;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: goto done;
        case CLI_OPERAND:
            if ((status = cli_one_file(&cli_diff, &path, value))) goto done;
            break;
        case OPT_JSON: json = true; break;
        case OPT_RULES:
            if ((status = cli_rules_option(&cli_diff, value, &sides[0].rules, &sides[1].rules, &nsides))) goto done;
            break;
        }
    }
    if (!path || nsides == 0) {
        status = cli_usage_error(&cli_diff, "diff needs --rules and a %s", "FILE");
        goto done;
    }
    cli_rules_sides_finish(&sides[0].rules, &sides[1].rules, nsides);    /* one list: against the canonical rules */
    int fd, err = cli_open_record(path, &fd);
    if (err) {
        fprintf(stderr, "mtref: %s: %s\n", path, strerror(err));
        status = 2;
        goto done;
    }
    for (int k = 0; k < 2; k++) {
        sides[k].so = (struct session_options){&env->loader, NULL, 0, false, NULL, NULL, NULL};
        if (!side_run(&sides[k], fd)) {
            fputs("mtref: diff: out of memory\n", stderr);
            status = 2;
        }
    }
    /* a rules file that fails to load is trouble, not a difference */
    for (int k = 0; k < 2 && status == 0; k++)
        if (sides[k].n == 1 && sides[k].lines[0] == 0) {
            fprintf(stderr, "mtref: diff: side %c: %s\n", k ? 'B' : 'A', sides[k].rejection.message);
            status = 2;
        }
    if (status == 0) {
        long last = 0;
        for (int k = 0; k < 2; k++)
            if (sides[k].n && sides[k].lines[sides[k].n - 1] > last) last = sides[k].lines[sides[k].n - 1];
        long first = first_difference(&sides[0], &sides[1]);
        long limit = shown_until(&sides[0], &sides[1], first, last + 1);
        status = json ? diff_json(stdout, fd, &sides[0], &sides[1], first, limit)
                      : diff_text(stdout, fd, &sides[0], &sides[1], first, limit);
    }
    close(fd);
    if (fflush(stdout) != 0) status = 2;
done:
    side_free(&sides[0]);
    side_free(&sides[1]);
    free(sides);
    return status;
}

const struct subcommand cli_diff = {"diff", "one record under two rule sets, side by side", usage, run};
