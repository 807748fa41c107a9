/* Adjudication of record files: a session per file, one verdict per file. */
#include "check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
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

struct check_context {
    struct check_result *res;
    struct check_summary *summary;    /* may be NULL */
};

static void check_respond(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct check_context *c = ctx;
    record_response(c->res, ref, resp);
    if (c->summary) check_summary_add_response(c->summary, ref, resp);
}

void check_descriptor_summed(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                             struct check_result *res, struct check_summary *summary)
{
    res->line = 0;
    res->io_error[0] = '\0';
    verdict_reset(&res->verdict);
    verdict_reset(&res->last_end);
    res->tags.any = false;
    struct check_context ctx = {res, summary};
    if (summary) summary->round_moves = 0;
    struct session_options so = {loader, rules_files, nrules, false, check_respond, NULL, &ctx};
    struct session_result run;
    /* --summary counts every move; without it only rejections and match ends matter */
    res->status = summary ? session_run(fd, &so, &run) : session_run_notable(fd, &so, &run);
    res->moves = run.lines;
    res->matches = run.matches_ended;
    res->complete = res->matches > 0 && !run.match_touched;
    if (run.out_of_memory)
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
    else if (run.read_error && res->verdict.code == ERR_NONE)
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(run.read_error));
}

void check_descriptor(int fd, const struct rules_loader *loader, const char *const rules_files[],
                      int nrules, struct check_result *res)
{
    check_descriptor_summed(fd, loader, rules_files, nrules, res, NULL);
}

/* "ana wins: ana 40, bob 61" (every total, in seat order: no score to misread). */
static void print_winners(FILE *out, const struct check_result *res)
{
    const struct game *g = &res->last;
    const struct verdict *v = &res->last_end;
    output_text_winners(out, g, v);
    fputc(':', out);
    for (int s = 0; s < g->nplayers; s++) fprintf(out, "%s %s %lld", s ? "," : "", g->names[s], (long long)g->totals[s]);
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

static void print_tags(FILE *out, const struct check_tags *tags);

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
    if (res->tags.any) print_tags(out, &res->tags);
    fputs("}\n", out);
}

void check_print(FILE *out, enum output_mode mode, const char *file, const struct check_result *res)
{
    if (mode == OUTPUT_JSON) print_json(out, file, res);
    else print_text(out, file, res);
}

/* --- check --summary -------------------------------------------------------- */

static int summary_name(struct check_summary *sum, const char *name)
{
    for (int i = 0; i < sum->nnames; i++)
        if (strcmp(sum->names[i], name) == 0) return i;
    if (sum->nnames == CHECK_SUMMARY_NAMES) return -1;
    snprintf(sum->names[sum->nnames], sizeof sum->names[0], "%s", name);
    return sum->nnames++;
}

static void tally(struct check_tally *t, const struct verdict *v, int seat, int64_t total)
{
    t->matches++;
    t->total_sum += total;
    if (v->winners[seat]) {
        if (v->nwinners > 1) t->draws++;
        else t->wins++;
    }
}

/* out of line: plain check calls check_respond for every line, --summary alone needs this */
__attribute__((noinline)) void check_summary_add_response(struct check_summary *sum, const struct referee *ref,
                                                          const struct response *resp)
{
    if (resp->kind != RESPONSE_VERDICT || resp->verdict.code != ERR_NONE) return;
    enum command_kind k = ref->cmd.kind;
    if (k == CMD_PLAY || k == CMD_DRAW || k == CMD_PASS) sum->round_moves++;
    const struct verdict *v = &resp->verdict;
    if (v->round_ended) {
        sum->rounds++;
        if (v->report.out_seat < 0) sum->blocked++;
        if (sum->round_moves > sum->longest_moves) {
            sum->longest_moves = sum->round_moves;
            sum->longest_line = resp->line;
            snprintf(sum->longest_file, sizeof sum->longest_file, "%s", sum->file ? sum->file : "-");
        }
        sum->round_moves = 0;
    }
    if (!v->match_ended) return;
    const struct game *g = &ref->game;
    sum->matches++;
    for (int s = 0; s < g->nplayers; s++) {
        int i = summary_name(sum, g->names[s]);
        if (i >= 0) tally(&sum->by_name[i], v, s, g->totals[s]);
        else sum->names_dropped = true;
        tally(&sum->by_seat[s], v, s, g->totals[s]);
    }
}

static void tally_add(struct check_tally *t, const struct check_tally *part)
{
    t->matches += part->matches;
    t->wins += part->wins;
    t->draws += part->draws;
    t->total_sum += part->total_sum;
}

void check_summary_add_part(struct check_summary *sum, const struct check_summary *part, long offset,
                            const char *file)
{
    sum->matches += part->matches;
    sum->rounds += part->rounds;
    sum->blocked += part->blocked;
    /* the part's first longest round is the one the whole would keep: an earlier one
     * as long stays */
    if (part->longest_moves > sum->longest_moves) {
        sum->longest_moves = part->longest_moves;
        sum->longest_line = part->longest_line + offset;
        snprintf(sum->longest_file, sizeof sum->longest_file, "%s", file ? file : "-");
    }
    /* the part began with a fresh session, so no round was under way before it */
    sum->round_moves = part->round_moves;
    /* names in the order the part met them: after the summary's own, as the whole met them */
    for (int i = 0; i < part->nnames; i++) {
        int k = summary_name(sum, part->names[i]);
        if (k >= 0) tally_add(&sum->by_name[k], &part->by_name[i]);
    }
    for (int s = 0; s < RULES_MAX_PLAYERS; s++) tally_add(&sum->by_seat[s], &part->by_seat[s]);
}

void check_summary_add_file(struct check_summary *sum, const struct check_result *res)
{
    sum->files++;
    if (res->status == 0) sum->legal++;
    if (res->status == 0 && res->complete) sum->complete++;
}

static double mean(const struct check_tally *t) { return t->matches ? (double)t->total_sum / (double)t->matches : 0; }

static void text_tally(FILE *out, const char *who, const struct check_tally *t)
{
    fprintf(out, "  %-16s %8ld %8ld %8ld %11.1f\n", who, t->matches, t->wins, t->draws, mean(t));
}

static void json_tally(FILE *out, const char *key, const char *name, int seat, const struct check_tally *t)
{
    fprintf(out, "{\"%s\":", key);
    if (name) output_json_string(out, name);
    else fprintf(out, "%d", seat);
    /* the sum beside the mean: summaries of shards add up exactly (scripts/shard-merge) */
    fprintf(out, ",\"matches\":%ld,\"wins\":%ld,\"draws\":%ld,\"mean_total\":%.2f,\"sum_total\":%lld}", t->matches,
            t->wins, t->draws, mean(t), (long long)t->total_sum);
}

void check_summary_print(FILE *out, enum output_mode mode, const struct check_summary *sum)
{
    int seats = 0;
    for (int s = 0; s < RULES_MAX_PLAYERS; s++)
        if (sum->by_seat[s].matches) seats = s + 1;
    if (mode == OUTPUT_JSON) {
        fprintf(out, "{\"summary\":{\"files\":%ld,\"legal\":%ld,\"complete\":%ld,\"matches\":%ld,\"rounds\":%ld,"
                     "\"blocked\":%ld,\"longest_round\":",
                sum->files, sum->legal, sum->complete, sum->matches, sum->rounds, sum->blocked);
        if (sum->longest_moves) {
            fprintf(out, "{\"moves\":%ld,\"file\":", sum->longest_moves);
            output_json_string(out, sum->longest_file);
            fprintf(out, ",\"line\":%ld}", sum->longest_line);
        } else {
            fputs("null", out);
        }
        fputs(",\"players\":[", out);
        for (int i = 0; i < sum->nnames; i++) {
            if (i) putc(',', out);
            json_tally(out, "name", sum->names[i], 0, &sum->by_name[i]);
        }
        fputs("],\"seats\":[", out);
        for (int s = 0; s < seats; s++) {
            if (s) putc(',', out);
            json_tally(out, "seat", NULL, s + 1, &sum->by_seat[s]);
        }
        fputs("]}}\n", out);
        return;
    }
    fprintf(out, "summary: %ld files, %ld legal, %ld complete; %ld matches, %ld rounds, %ld blocked", sum->files,
            sum->legal, sum->complete, sum->matches, sum->rounds, sum->blocked);
    if (sum->rounds) fprintf(out, " (%.1f%%)", 100.0 * (double)sum->blocked / (double)sum->rounds);
    putc('\n', out);
    if (sum->longest_moves) {
        /* the file's name escaped, as in the verdict lines: no name forges a line */
        fprintf(out, "  longest round: %ld moves, ended at ", sum->longest_moves);
        escape_puts(out, sum->longest_file);
        fprintf(out, ":%ld\n", sum->longest_line);
    }
    if (!sum->matches) return;
    fprintf(out, "  %-16s %8s %8s %8s %11s\n", "player", "matches", "wins", "draws", "mean total");
    for (int i = 0; i < sum->nnames; i++) text_tally(out, sum->names[i], &sum->by_name[i]);
    char seat[16];
    for (int s = 0; s < seats; s++) {
        snprintf(seat, sizeof seat, "seat %d", s + 1);
        text_tally(out, seat, &sum->by_seat[s]);
    }
}

void check_print_incomplete(FILE *out, enum output_mode mode, const char *file, const struct check_result *res)
{
    const char *why = res->matches == 0 ? "no match ended" : "the last match did not end";
    if (mode == OUTPUT_JSON) {
        fputs("{\"file\":", out);
        output_json_string(out, file);
        fprintf(out, ",\"ok\":false,\"status\":1,\"error\":\"incomplete\",\"message\":\"%s\",\"matches\":%ld,"
                     "\"complete\":false}\n", why, res->matches);
    } else {
        escape_puts(out, file);
        fprintf(out, ": incomplete: %s\n", why);
    }
}

/* --- the record convention's tags ------------------------------------------ */

#define TAGS_HEAD 8192
#define TAGS_TAIL 4096

/* One quoted value at *p ("...", with \" and \\), into out; false if not one. */
static bool tag_value(const char **p, const char *end, char *out, size_t size)
{
    const char *q = *p;
    while (q < end && *q == ' ') q++;
    if (q >= end || *q != '"') return false;
    q++;
    size_t n = 0;
    while (q < end && *q != '"') {
        if (*q == '\\' && q + 1 < end) q++;
        if (n + 1 < size) out[n++] = *q;
        q++;
    }
    if (q >= end) return false;
    out[n] = '\0';
    *p = q + 1;
    return true;
}

/* A line "# [Key "value"]" or "# [Player "name" "value"]" into tags. */
static void tag_line(const char *line, const char *end, struct check_tags *tags)
{
    if (end - line < 4 || memcmp(line, "# [", 3) != 0) return;
    const char *p = line + 3, *key = p;
    while (p < end && *p != ' ' && *p != ']') p++;
    size_t klen = (size_t)(p - key);
    char value[CHECK_TAG_SIZE], name[CHECK_TAG_SIZE];
    if (klen == 6 && memcmp(key, "Player", 6) == 0) {
        if (!tag_value(&p, end, name, sizeof name) || !tag_value(&p, end, value, sizeof value)) return;
        if (tags->nplayers == RULES_MAX_PLAYERS || strlen(name) > GAME_NAME_MAX_LEN) return;
        snprintf(tags->player_names[tags->nplayers], sizeof tags->player_names[0], "%s", name);
        snprintf(tags->players[tags->nplayers++], sizeof tags->players[0], "%s", value);
        tags->any = true;
        return;
    }
    if (!tag_value(&p, end, value, sizeof value)) return;
    static const char *const keys[] = {"Event", "Site", "Date", "Round", "Result"};
    char *fields[] = {tags->event, tags->site, tags->date, tags->round, tags->result};
    for (int i = 0; i < 5; i++)
        if (klen == strlen(keys[i]) && memcmp(key, keys[i], klen) == 0) {
            snprintf(fields[i], CHECK_TAG_SIZE, "%s", value);
            tags->any = true;
        }
}

void check_read_tags(int fd, struct check_tags *tags)
{
    memset(tags, 0, sizeof *tags);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    char *buf = mt_malloc(TAGS_HEAD);
    if (!buf) return;
    ssize_t n = pread(fd, buf, TAGS_HEAD, 0);
    /* the head: its comment block, up to the first line that is not a comment or blank */
    for (const char *line = buf, *end = buf + (n > 0 ? n : 0); line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl) break;
        const char *p = line;
        while (p < nl && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p < nl && *p != '#') break;
        tag_line(line, nl > line && nl[-1] == '\r' ? nl - 1 : nl, tags);
        line = nl + 1;
    }
    /* the tail: the last Result tag */
    off_t from = st.st_size > TAGS_TAIL ? st.st_size - TAGS_TAIL : 0;
    n = pread(fd, buf, TAGS_TAIL, from);
    for (const char *line = buf, *end = buf + (n > 0 ? n : 0); line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl : end;
        if (stop - line > 11 && memcmp(line, "# [Result ", 10) == 0) tag_line(line, stop[-1] == '\r' ? stop - 1 : stop, tags);
        line = stop + 1;
    }
    free(buf);
}

static void print_tags(FILE *out, const struct check_tags *tags)
{
    static const char *const keys[] = {"event", "site", "date", "round", "result"};
    const char *fields[] = {tags->event, tags->site, tags->date, tags->round, tags->result};
    fputs(",\"tags\":{", out);
    bool first = true;
    for (int i = 0; i < 5; i++) {
        if (!fields[i][0]) continue;
        fprintf(out, "%s\"%s\":", first ? "" : ",", keys[i]);
        output_json_string(out, fields[i]);
        first = false;
    }
    if (tags->nplayers) {
        fprintf(out, "%s\"players\":{", first ? "" : ",");
        for (int i = 0; i < tags->nplayers; i++) {
            if (i) putc(',', out);
            output_json_string(out, tags->player_names[i]);
            putc(':', out);
            output_json_string(out, tags->players[i]);
        }
        putc('}', out);
    }
    putc('}', out);
}
