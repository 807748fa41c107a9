/* check on several threads gives the verdict of one thread: the same status, rejected
 * line (its true number), message, match count, completeness and last result, and
 * with --summary the same summary, on self-played streams of many matches broken in
 * every way near and far from the places where the stream is cut. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "luarules.h"
#include "selfplay.h"

struct text {
    char *data;
    size_t len, cap;
};

static void to_text(void *ctx, const char *data, size_t len)
{
    struct text *t = ctx;
    if (t->len + len + 1 > t->cap) {
        t->cap = (t->len + len + 1) * 2;
        t->data = realloc(t->data, t->cap);
        assert_non_null(t->data);
    }
    memcpy(t->data + t->len, data, len);
    t->len += len;
    t->data[t->len] = '\0';
}

/* games self-played canonical matches of players seats (rounds 0: the default) from
 * seed, appended to t. */
static void self_played(int players, int rounds, uint64_t seed, long games, struct text *t)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = players;
    o.rounds = rounds;
    o.seed = seed;
    o.games = games;
    struct rules canonical;
    rules_init_canonical(&canonical);
    struct selfplay_sink sink = {to_text, t};
    char err[RULES_MESSAGE_SIZE];
    for (long i = 0; i < games; i++) assert_int_equal(selfplay_match(&o, &canonical, NULL, 0, i, &sink, err), 0);
}

/* chunk_bytes 0: the default; loaders: each worker its own Lua bridge; piped: the
 * bytes come through a pipe (read and copied by the calling thread), else from a
 * regular file (whose chunks the workers read themselves); summary: NULL, or zeroed
 * here and filled */
static void check_bytes_from(const char *bytes, size_t len, int jobs, size_t chunk_bytes, bool loaders, bool piped,
                             struct check_result *res, struct check_summary *summary)
{
    if (summary) {
        memset(summary, 0, sizeof *summary);
        summary->file = "stream.mtr";
    }
    FILE *f = NULL;
    int fds[2] = {-1, -1};
    pid_t writer = -1;
    if (piped) {
        assert_int_equal(pipe(fds), 0);
        writer = fork();
        assert_true(writer >= 0);
        if (writer == 0) {
            close(fds[0]);
            for (size_t done = 0; done < len;) {
                ssize_t n = write(fds[1], bytes + done, len - done);
                if (n <= 0) _exit(1);
                done += (size_t)n;
            }
            _exit(0);
        }
        close(fds[1]);
    } else {
        f = tmpfile();
        assert_non_null(f);
        assert_int_equal(fwrite(bytes, 1, len, f), len);
        fflush(f);
        rewind(f);
    }
    struct luarules *lua = luarules_new(), *bridges[4];
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua), job_loaders[4];
    for (int i = 0; i < jobs && i < 4; i++) {
        bridges[i] = luarules_new();
        assert_non_null(bridges[i]);
        job_loaders[i] = luarules_loader(bridges[i]);
    }
    check_descriptor_jobs(piped ? fds[0] : fileno(f), &loader, NULL, 0, jobs, loaders ? job_loaders : NULL,
                          chunk_bytes, res, summary);
    for (int i = 0; i < jobs && i < 4; i++) luarules_free(bridges[i]);
    luarules_free(lua);
    if (piped) {
        close(fds[0]);
        int status;
        assert_int_equal(waitpid(writer, &status, 0), writer);
    } else {
        fclose(f);
    }
}

static void check_bytes(const char *bytes, size_t len, int jobs, size_t chunk_bytes, bool loaders,
                        struct check_result *res)
{
    check_bytes_from(bytes, len, jobs, chunk_bytes, loaders, false, res, NULL);
}

static void assert_same_tally(const struct check_tally *a, const struct check_tally *b, const char *what,
                              const char *who)
{
    if (a->matches != b->matches || a->wins != b->wins || a->draws != b->draws || a->total_sum != b->total_sum)
        fail_msg("%s: %s: one thread: %ld matches, %ld wins, %ld draws, %lld in all; threads: %ld, %ld, %ld, %lld",
                 what, who, a->matches, a->wins, a->draws, (long long)a->total_sum, b->matches, b->wins, b->draws,
                 (long long)b->total_sum);
}

static void assert_same_summary(const struct check_summary *a, const struct check_summary *b, const char *what)
{
    if (a->matches != b->matches || a->rounds != b->rounds || a->blocked != b->blocked ||
        a->longest_moves != b->longest_moves || a->longest_line != b->longest_line ||
        strcmp(a->longest_file, b->longest_file) != 0 || a->round_moves != b->round_moves || a->nnames != b->nnames)
        fail_msg("%s: one thread's summary: %ld matches, %ld rounds, %ld blocked, longest %ld moves at %s:%ld, %ld "
                 "moves after, %d names; threads': %ld, %ld, %ld, %ld at %s:%ld, %ld, %d",
                 what, a->matches, a->rounds, a->blocked, a->longest_moves, a->longest_file, a->longest_line,
                 a->round_moves, a->nnames, b->matches, b->rounds, b->blocked, b->longest_moves, b->longest_file,
                 b->longest_line, b->round_moves, b->nnames);
    for (int i = 0; i < a->nnames; i++) {
        if (strcmp(a->names[i], b->names[i]) != 0)
            fail_msg("%s: name %d: one thread met %s, threads %s", what, i + 1, a->names[i], b->names[i]);
        assert_same_tally(&a->by_name[i], &b->by_name[i], what, a->names[i]);
    }
    for (int s = 0; s < RULES_MAX_PLAYERS; s++) assert_same_tally(&a->by_seat[s], &b->by_seat[s], what, "a seat");
}

static void assert_same(const struct check_result *a, const struct check_result *b, const char *what)
{
    if (a->status != b->status || a->line != b->line || a->verdict.code != b->verdict.code ||
        strcmp(a->verdict.message, b->verdict.message) != 0 || a->matches != b->matches ||
        a->complete != b->complete || a->moves != b->moves || strcmp(a->io_error, b->io_error) != 0)
        fail_msg("%s: one thread: status %d line %ld '%s' %ld matches%s, %ld lines; threads: status %d line %ld "
                 "'%s' %ld matches%s, %ld lines",
                 what, a->status, a->line, a->verdict.message, a->matches, a->complete ? " complete" : "", a->moves,
                 b->status, b->line, b->verdict.message, b->matches, b->complete ? " complete" : "", b->moves);
    if (a->status == 0 && a->matches > 0) {
        assert_int_equal(a->last.nplayers, b->last.nplayers);
        for (int s = 0; s < a->last.nplayers; s++) {
            assert_string_equal(a->last.names[s], b->last.names[s]);
            assert_int_equal(a->last.totals[s], b->last.totals[s]);
            assert_int_equal(a->last_end.winners[s], b->last_end.winners[s]);
        }
    }
}

static void compare_all(const char *bytes, size_t len, const char *what)
{
    struct check_result *one = malloc(sizeof *one), *many = malloc(sizeof *many);
    struct check_summary *one_sum = malloc(sizeof *one_sum), *many_sum = malloc(sizeof *many_sum);
    assert_true(one && many && one_sum && many_sum);
    check_bytes_from(bytes, len, 1, 0, false, false, one, one_sum);
    check_bytes(bytes, len, 1, 0, false, many);
    assert_same(one, many, what);             /* --summary reads every line: the same verdict */
    /* small chunks cut inside matches, large ones between them; without and with --summary */
    static const struct { size_t bytes; bool loaders; } ways[] = {{8192, true}, {40000, false}, {0, true}};
    for (int jobs = 2; jobs <= 3; jobs++)
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
            for (int summed = 0; summed < 2; summed++) {
                check_bytes_from(bytes, len, jobs, ways[w].bytes, ways[w].loaders, false, many,
                                 summed ? many_sum : NULL);
                char label[160];
                snprintf(label, sizeof label, "%s (%d threads, chunks of %zu bytes%s%s)", what, jobs, ways[w].bytes,
                         ways[w].loaders ? ", a bridge each" : "", summed ? ", --summary" : "");
                assert_same(one, many, label);
                if (summed) assert_same_summary(one_sum, many_sum, label);
            }
    /* through a pipe: the calling thread reads and copies every chunk */
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
        check_bytes_from(bytes, len, 2, ways[w].bytes, ways[w].loaders, true, many, many_sum);
        char label[160];
        snprintf(label, sizeof label, "%s (2 threads, a pipe, chunks of %zu bytes, --summary)", what, ways[w].bytes);
        assert_same(one, many, label);
        assert_same_summary(one_sum, many_sum, label);
    }
    free(many_sum);
    free(one_sum);
    free(many);
    free(one);
}

/* The record's lines as an array into a copy of its text. */
static int split_lines(char *text, char **lines, int max)
{
    int n = 0;
    for (char *p = text; *p && n < max;) {
        lines[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
    }
    return n;
}

static void threads_give_the_verdict_of_one_thread(void **state)
{
    (void)state;
    struct text t = {0};
    self_played(3, 0, 77, 25, &t);
    compare_all(t.data, t.len, "the whole stream");

    char *copy = malloc(t.len + 1);
    char **lines = malloc(sizeof *lines * 100000);
    assert_non_null(copy);
    assert_non_null(lines);
    memcpy(copy, t.data, t.len + 1);
    int n = split_lines(copy, lines, 100000);
    assert_true(n > 3 * 8192);                /* several chunks */
    static const char *const inserts[] = {"players a b", "rules double-blank-50", "show", "players p1 p2 p3",
                                          "rounds 1", "p1 pass", "# a comment"};
    uint64_t rng = 99;
    struct text broken = {0};
    for (int iter = 0; iter < 48; iter++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        /* near a cut (a `players` line after 8192 lines) half of the time */
        int at = (int)((rng >> 33) % (uint64_t)n);
        if (iter % 2) {
            int k = 8192 * (1 + (int)((rng >> 20) % 3));
            while (k < n && strncmp(lines[k], "players", 7) != 0) k++;
            at = k - 1 + (int)((rng >> 50) % 3);
            if (at >= n) at = n - 1;
        }
        int op = iter % 6;
        broken.len = 0;
        for (int i = 0; i < n; i++) {
            if (i == at && op == 0) continue;                       /* a line missing */
            if (i == at && op == 1) to_text(&broken, inserts[(rng >> 40) % 7], strlen(inserts[(rng >> 40) % 7]));
            if (i == at && op == 1) to_text(&broken, "\n", 1);
            if (i == at && op == 2) to_text(&broken, lines[i], strlen(lines[i]));   /* a line twice */
            if (i == at && op == 2) to_text(&broken, "\n", 1);
            if (i == at && op == 3) break;                          /* the stream cut short */
            to_text(&broken, lines[i], strlen(lines[i]));
            if (i == at && op == 4) to_text(&broken, "\r", 1);
            if (i == at && op == 5) to_text(&broken, " x", 2);
            to_text(&broken, "\n", 1);
        }
        char what[80];
        snprintf(what, sizeof what, "change %d at line %d", op, at + 1);
        compare_all(broken.data, broken.len, what);
    }
    /* a `players` line inside a match, after enough lines to be cut at: the chunk it
     * opens would be accepted alone, but the stream rejects it (setup-closed) */
    int x = 8200;                             /* the first chunk is long enough here */
    while (strncmp(lines[x + 2], "players", 7) == 0 || strncmp(lines[x + 1], "players", 7) == 0 ||
           strncmp(lines[x], "players", 7) == 0 || strncmp(lines[x - 1], "#", 1) == 0)
        x++;
    int k = x + 3;
    broken.len = 0;
    for (int i = 0; i < n; i++) {
        if (i == k - 3) to_text(&broken, "players p1 p2 p3\n", 17);
        to_text(&broken, lines[i], strlen(lines[i]));
        to_text(&broken, "\n", 1);
    }
    struct check_result *one = malloc(sizeof *one);
    assert_non_null(one);
    check_bytes(broken.data, broken.len, 1, 0, false, one);
    assert_int_equal(one->verdict.code, ERR_SETUP_CLOSED);
    assert_int_equal(one->line, k - 2);
    free(one);
    compare_all(broken.data, broken.len, "players inside a match at a cut");
    /* the same, the stream then ending with a whole match: the chunk after the cut is
     * a legal record alone, the stream is not */
    int first = 0, end = 1;
    while (strncmp(lines[first], "players", 7) != 0) first++;
    while (strncmp(lines[end], "# ", 2) != 0) end++;
    broken.len = 0;
    for (int i = 0; i < x; i++) {
        to_text(&broken, lines[i], strlen(lines[i]));
        to_text(&broken, "\n", 1);
    }
    for (int i = first; i < end; i++) {
        to_text(&broken, lines[i], strlen(lines[i]));
        to_text(&broken, "\n", 1);
    }
    compare_all(broken.data, broken.len, "a whole match inside a match at a cut");
    /* after a match's end, a set-up line far from any `players` line: a chunk that
     * starts with comments and then `seed` opens no match, and the stream says
     * game-over where a fresh session would take it */
    broken.len = 0;
    for (int i = 0; i < end; i++) {
        to_text(&broken, lines[i], strlen(lines[i]));
        to_text(&broken, "\n", 1);
    }
    for (int i = 0; i < 3000; i++) to_text(&broken, "# no players here\n", 18);
    to_text(&broken, "seed 5\n", 7);
    for (int i = 0; i < 3000; i++) to_text(&broken, "# no players here\n", 18);
    struct check_result *over = malloc(sizeof *over);
    assert_non_null(over);
    check_bytes(broken.data, broken.len, 1, 0, false, over);
    assert_int_equal(over->verdict.code, ERR_GAME_OVER);
    free(over);
    compare_all(broken.data, broken.len, "a set-up line after a match, far from a cut");
    /* lines far longer than a chunk: in the middle (with "\r\n"), and last without
     * its newline; the line after the long one keeps its number */
    char *longline = malloc(100001);
    assert_non_null(longline);
    memset(longline, 'x', 100000);
    longline[100000] = '\0';
    for (int where = 0; where < 2; where++) {
        broken.len = 0;
        for (int i = 0; i < end; i++) {
            to_text(&broken, lines[i], strlen(lines[i]));
            to_text(&broken, "\n", 1);
        }
        to_text(&broken, longline, 100000);
        if (where == 0) to_text(&broken, "\r\nplayers a b\nrounds 99\n", 24);
        struct check_result *lone = malloc(sizeof *lone);
        assert_non_null(lone);
        check_bytes(broken.data, broken.len, 1, 0, false, lone);
        assert_int_equal(lone->verdict.code, ERR_SYNTAX);
        assert_int_equal(lone->line, end + 1);
        free(lone);
        compare_all(broken.data, broken.len, where ? "a long last line" : "a long line");
    }
    free(longline);
    free(broken.data);
    free(lines);
    free(copy);
    free(t.data);
}

/* Each match's p1..p9 renamed n<match>_<seat>: a name of its own per seat and match
 * (whole words only), in place of text's; but every keep-th match keeps its names. */
static void rename_per_match(struct text *t, int keep)
{
    struct text out = {0};
    int match = 0;
    for (char *line = t->data; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (strncmp(line, "players ", 8) == 0) match++;
        for (size_t i = 0; i < len;) {
            size_t j = i;
            while (j < len && line[j] != ' ') j++;
            char name[32];
            if (j - i == 2 && line[i] == 'p' && line[i + 1] >= '1' && line[i + 1] <= '9' && match % keep != 1) {
                snprintf(name, sizeof name, "n%d_%c", match, line[i + 1]);
                to_text(&out, name, strlen(name));
            } else {
                to_text(&out, line + i, j - i);
            }
            if (j < len) to_text(&out, " ", 1);
            i = j + 1;
        }
        to_text(&out, "\n", 1);
        line += len + (nl != NULL);
    }
    free(t->data);
    *t = out;
}

/* Past the 256 names a summary counts by name (the rest only by seat), the threads
 * count the same ones: the first 256 the stream meets, in its order; and a name met
 * before counts on in a chunk that meets over 256 others first (a chunk's own summary
 * drops it: the chunk is counted again in order). */
static void threads_sum_up_the_first_names_of_the_stream(void **state)
{
    (void)state;
    struct text t = {0};
    self_played(3, 1, 5, 100, &t);
    rename_per_match(&t, 1000);
    struct check_result *res = malloc(sizeof *res);
    struct check_summary *sum = malloc(sizeof *sum);
    assert_true(res && sum);
    check_bytes_from(t.data, t.len, 1, 0, false, false, res, sum);
    assert_int_equal(res->status, 0);
    assert_int_equal(sum->matches, 100);
    assert_int_equal(sum->nnames, CHECK_SUMMARY_NAMES);        /* 300 names met */
    assert_string_equal(sum->names[CHECK_SUMMARY_NAMES - 1], "n86_1");
    compare_all(t.data, t.len, "300 names");
    /* eight players a match, 800 names; p1..p8 play matches 1, 61 and 121 */
    t.len = 0;
    self_played(8, 1, 5, 130, &t);
    rename_per_match(&t, 60);
    check_bytes_from(t.data, t.len, 1, 0, false, false, res, sum);
    assert_int_equal(sum->nnames, CHECK_SUMMARY_NAMES);
    assert_string_equal(sum->names[0], "p1");
    assert_int_equal(sum->by_name[0].matches, 3);
    struct check_summary *many = malloc(sizeof *many);
    assert_non_null(many);
    for (size_t bytes = 20000; bytes <= 120000; bytes += 20000) {
        check_bytes_from(t.data, t.len, 2, bytes, false, false, res, many);
        char label[80];
        snprintf(label, sizeof label, "800 names (2 threads, chunks of %zu bytes, --summary)", bytes);
        assert_same_summary(sum, many, label);
    }
    free(many);
    free(sum);
    free(res);
    free(t.data);
}

/* Memory that runs out at any allocation of a threaded check (with --summary and
 * without) gives a verdict, one thread's or "out of memory", and frees what it took
 * (the sanitizer build finds a leak; a slot left unset once crashed the clean-up). */
static void memory_running_out_anywhere_gives_a_verdict(void **state)
{
    (void)state;
    struct text t = {0};
    self_played(3, 0, 8, 6, &t);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(t.data, 1, t.len, f), t.len);
    fflush(f);
    struct luarules *lua = luarules_new(), *bridges[2] = {luarules_new(), luarules_new()};
    assert_true(lua && bridges[0] && bridges[1]);
    struct rules_loader loader = luarules_loader(lua);
    struct rules_loader job_loaders[2] = {luarules_loader(bridges[0]), luarules_loader(bridges[1])};
    struct check_result *res = malloc(sizeof *res);
    struct check_summary *sum = malloc(sizeof *sum);
    assert_true(res && sum);
    int whole = 0, short_of_memory = 0;
    for (long n = 0; whole < 4; n++) {
        bool summed = n % 2;
        memset(sum, 0, sizeof *sum);
        rewind(f);
        alloc_fail_after(n);
        check_descriptor_jobs(fileno(f), &loader, NULL, 0, 2, job_loaders, 8192, res, summed ? sum : NULL);
        alloc_fail_after(-1);
        if (res->status == 0) {
            assert_int_equal(res->matches, 6);
            if (summed) assert_int_equal(sum->matches, 6);
            whole++;
        } else {
            assert_int_equal(res->status, 2);
            short_of_memory++;
            whole = 0;
        }
    }
    assert_true(short_of_memory > 10);
    free(sum);
    free(res);
    luarules_free(bridges[1]);
    luarules_free(bridges[0]);
    luarules_free(lua);
    fclose(f);
    free(t.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_give_the_verdict_of_one_thread),
        cmocka_unit_test(threads_sum_up_the_first_names_of_the_stream),
        cmocka_unit_test(memory_running_out_anywhere_gives_a_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
