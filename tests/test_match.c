/* mtref match end to end: the test bot (tests/bots/testbot.c) in each of its modes gets
 * the fault it earns and nothing else, no run hangs, no process is left behind, every
 * record passes mtref check; mtref bot greedy as a program plays exactly as the
 * built-in; -j does not change results; a killed run resumes to the same end. */
#define _DEFAULT_SOURCE 1     /* usleep, strndup */
#include "testutil.h"

#include "match_run.h"
#include "stats_json.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *mtref, *testbot;
static char mark[64];
static char tmp[256];

/* Runs a shell command line; its stdout (malloc'd) in *out; returns the exit status. */
static int sh(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 4096) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    int st = pclose(p);
    if (out) *out = buf;
    else free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Processes whose environment carries this test's mark: the bots' descendants. */
static int marked_processes(void)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    int count = 0;
    char want[128];
    snprintf(want, sizeof want, "TESTBOT_MARK=%s", mark);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], env[65536];
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(env, 1, sizeof env - 1, f);
        fclose(f);
        for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
            env[n] = '\0';
            if (strcmp(env + i, want) == 0) { count++; break; }
        }
    }
    closedir(d);
    return count;
}

static void wait_no_marked(int ms)
{
    for (int i = 0; i < ms / 20 && marked_processes(); i++) usleep(20000);
    assert_int_equal(marked_processes(), 0);
}

/* One match of the test bot (seat t) against greedy; returns mtref's status and the
 * match's journal line in *line. Records and logs go to tmp/NAME. */
static int one(const char *modes, const char *extra, char **line)
{
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf run && TESTBOT_MARK=%s %s match --deals 1 --seating none --rounds 1 --seed 3 "
             "--time 2s+2s --init-time 5s --exit-grace 100ms --json -q -o run %s 't=%s %s' builtin:greedy "
             "2>stderr.txt",
             tmp, mark, mtref, extra, testbot, modes);
    int status = sh(cmd, &out);
    char *m = strstr(out, "{\"event\":\"match\"");
    *line = m ? strndup(m, strcspn(m, "\n")) : strdup("");
    free(out);
    return status;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

static void records_check_ok(void)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && ls run/records/*.mtr >/dev/null 2>&1 && %s check run/records/*.mtr", tmp, mtref);
    int status = sh(cmd, &out);
    if (status != 0) fail_msg("mtref check on the records: %s", out);
    free(out);
}

/* mode -> the one fault it must earn ("" = none), under the given extra options */
static void expect_fault(const char *mode, const char *extra, const char *kind, const char *detail, int exit_status)
{
    char *line;
    int status = one(mode, extra, &line);
    if (status != exit_status) fail_msg("%s: exit status %d, expected %d: %s", mode, status, exit_status, line);
    if (!kind[0]) {
        if (count(line, "\"kind\":") != 0) fail_msg("%s: a fault it did not earn: %s", mode, line);
    } else {
        char want[64];
        snprintf(want, sizeof want, "\"kind\":\"%s\"", kind);
        if (count(line, "\"kind\":") != 1 || !strstr(line, want)) fail_msg("%s: expected one %s fault: %s", mode, kind, line);
        if (detail && !strstr(line, detail)) fail_msg("%s: detail %s missing: %s", mode, detail, line);
    }
    if (line[0]) records_check_ok();
    free(line);
    wait_no_marked(2000);
}

#define RECOVER "--recover"

static void clean_play_has_no_fault(void **s) { (void)s; expect_fault("ok", "", "", NULL, 0); }
#define SHORT "--time 100ms+100ms"
static void sleeping_past_the_clock_is_timeout(void **s) { (void)s; expect_fault("sleep 2", SHORT, "timeout", "\"decision\":", 0); }
static void spending_the_bank_times_out_when_it_runs_out(void **s)
{
    (void)s;
    /* 150 ms a decision against 100 ms + 100 ms: 50 ms out of the bank each time, so
     * the bank is spent by the third decision (sooner on a slow machine) */
    expect_fault("bank", SHORT, "timeout", "no answer in 100+", 0);
    char *line;
    one("bank", SHORT, &line);
    assert_null(strstr(line, "\"decision\":1,"));
    free(line);
}
static void exit_is_crash_and_stops_the_run(void **s) { (void)s; expect_fault("exit", "", "crash", "exit 3", 1); }
static void exit_with_recover_is_a_forfeit(void **s) { (void)s; expect_fault("exit", RECOVER, "crash", "exit 3", 0); }
static void signal_is_crash(void **s) { (void)s; expect_fault("signal", RECOVER, "crash", "signal SEGV", 0); }
static void crash_without_a_clock_is_seen(void **s) { (void)s; expect_fault("exit", RECOVER " --time inf", "crash", "exit 3", 0); }
static void nul_is_garbled(void **s) { (void)s; expect_fault("nul", "", "garbled", "NUL", 0); }
static void invalid_utf8_is_garbled(void **s) { (void)s; expect_fault("utf8", "", "garbled", "UTF-8", 0); }
static void endless_line_is_garbled(void **s) { (void)s; expect_fault("noeol", SHORT, "garbled", "longer than", 0); }
static void garbage_is_garbled(void **s) { (void)s; expect_fault("garbage", "", "garbled", NULL, 0); }
static void named_draw_is_garbled(void **s) { (void)s; expect_fault("nameddraw", "", "garbled", "named draw", 0); }
static void flooding_is_flood(void **s) { (void)s; expect_fault("flood", "", "flood", NULL, 0); }
static void never_reading_is_stalled(void **s) { (void)s; expect_fault("noread", SHORT, "stalled", NULL, 0); }
static void byte_by_byte_is_fine(void **s) { (void)s; expect_fault("bytewise", "", "", NULL, 0); }
static void early_answer_is_dropped(void **s) { (void)s; expect_fault("early", "", "", NULL, 0); }
static void answer_twice_is_dropped(void **s) { (void)s; expect_fault("twice", "", "", NULL, 0); }
static void tile_not_in_hand_is_illegal_r23(void **s) { (void)s; expect_fault("notinhand", "", "illegal", "not-in-hand [R23]", 0); }
static void draw_while_able_to_play_is_illegal_must_play(void **s) { (void)s; expect_fault("drawwhilecanplay", "", "illegal", "must-play", 0); }
static void pass_while_owing_a_draw_is_illegal_must_draw(void **s) { (void)s; expect_fault("passwhilecandraw", "--ask-forced", "illegal", "must-draw", 0); }
static void another_players_name_is_illegal_r24(void **s) { (void)s; expect_fault("notyourturn", "", "illegal", "not-your-turn [R24]", 0); }
static void exit_early_is_crash(void **s) { (void)s; expect_fault("exitearly", RECOVER, "crash", "exit 0", 0); }
static void closing_stdout_is_crash(void **s) { (void)s; expect_fault("closeout", RECOVER, "crash", "closed its output", 0); }
static void child_holding_the_pipe_is_crash_and_killed(void **s) { (void)s; expect_fault("forkchild", RECOVER, "crash", "exit 0", 0); }
static void double_fork_does_not_hang(void **s) { (void)s; expect_fault("doublefork", RECOVER, "crash", "exit 0", 0); }
static void ignoring_bye_is_killed_no_fault(void **s) { (void)s; expect_fault("ignorebye", "", "", NULL, 0); }
static void stderr_storm_is_drained_no_fault(void **s) { (void)s; expect_fault("stderrstorm", "", "", NULL, 0); }

static void past_the_memory_limit_is_crash(void **s)
{
    (void)s;
    expect_fault("alloc", RECOVER " --bot-mem 128M", "crash", "memory limit of 128 MiB?", 0);
}
static void past_the_cpu_limit_is_crash(void **s)
{
    (void)s;
    expect_fault("spin", RECOVER " --bot-cpu 1 --time 10s+10s", "crash", "signal XCPU (the CPU limit, 1 s)", 0);
}

/* cutechess-style per-bot settings after the bot: its own clock and memory limit,
 * in the plan; the other seat keeps the run's. */
static void a_bot_has_its_own_time_and_limits(void **s)
{
    (void)s;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf run && TESTBOT_MARK=%s %s match --deals 1 --seating none --rounds 1 --seed 3 "
             "--time 5s+5s --exit-grace 100ms --json -q -o run 't=%s sleep 1' t.time=100ms+50ms t.mem=512M "
             "'u=%s ok' builtin:greedy -n 3 2>stderr.txt",
             tmp, mark, mtref, testbot, testbot);
    assert_int_equal(sh(cmd, &out), 0);
    if (!strstr(out, "\"t\":{\"cmd\":") || !strstr(out, "\"time\":{\"move_ms\":100,\"bank_ms\":50},"
                                                          "\"limits\":{\"mem_bytes\":536870912,\"cpu_s\":0}}"))
        fail_msg("the plan lacks t's own settings: %s", out);
    if (count(out, "\"kind\":\"timeout\"") != 1 || !strstr(out, "no answer in 100+50 ms"))
        fail_msg("t's own clock did not apply: %s", out);
    if (strstr(out, "\"u\":{\"cmd\":\"") && strstr(strstr(out, "\"u\":{\"cmd\":\""), "\"time\":{\"move_ms\":100"))
        fail_msg("u got t's clock: %s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s match -q --deals 1 't=%s' t.speed=3 builtin:greedy 2>&1", mtref, testbot);
    assert_int_equal(sh(cmd, &out), 2);
    assert_non_null(strstr(out, "unknown bot option"));
    free(out);
    wait_no_marked(2000);
}

/* A file a bot writes in its working directory: by default in a fresh directory,
 * removed afterwards; with --bot-dir, where it says. */
static void a_bot_runs_in_a_fresh_directory(void **s)
{
    (void)s;
    char cmd[1024], path[512];
    struct stat st;
    snprintf(cmd, sizeof cmd, "mkdir -p %s/tmpdir %s/botdir && rm -f %s/tmpdir/* %s/botdir/*", tmp, tmp, tmp, tmp);
    assert_int_equal(sh(cmd, NULL), 0);
    char *line;
    char extra[512];
    snprintf(extra, sizeof extra, "--ask-forced");
    snprintf(path, sizeof path, "%s/tmpdir", tmp);
    setenv("TMPDIR", path, 1);
    assert_int_equal(one("writefile", extra, &line), 0);
    unsetenv("TMPDIR");
    assert_int_equal(count(line, "\"kind\":"), 0);
    free(line);
    snprintf(path, sizeof path, "%s/testbot-was-here", tmp);
    assert_int_not_equal(stat(path, &st), 0);                 /* not in mtref's directory */
    snprintf(cmd, sizeof cmd, "ls -A %s/tmpdir | wc -l", tmp);
    char *out;
    sh(cmd, &out);
    assert_int_equal(atoi(out), 0);                          /* its directory is gone */
    free(out);
    snprintf(extra, sizeof extra, "--bot-dir %s/botdir", tmp);
    assert_int_equal(one("writefile", extra, &line), 0);
    free(line);
    snprintf(path, sizeof path, "%s/botdir/testbot-was-here", tmp);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/testbot-was-here", tmp);
    assert_int_not_equal(stat(path, &st), 0);
}

/* The relative path of a bot's command means what it means in mtref's directory. */
static void a_relative_command_is_found_from_a_fresh_directory(void **s)
{
    (void)s;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir -p \"it's a dir\" && cp %s \"it's a dir\"/bot && cd \"it's a dir\" && rm -rf run && "
             "%s match -q --json --deals 1 --rounds 1 --seed 2 -o run 'b=./bot ok' builtin:greedy",
             tmp, testbot, mtref);
    int status = sh(cmd, &out);
    if (status != 0 || count(out, "\"kind\":") != 0) fail_msg("status %d: %s", status, out);
    free(out);
}

static void start_failures_stop_the_run_with_2(void **s)
{
    (void)s;
    const char *modes[] = {"badversion", "silent"};
    for (int i = 0; i < 2; i++) {
        char *line;
        assert_int_equal(one(modes[i], "--init-time 300ms", &line), 2);
        free(line);
    }
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && %s match -q --deals 1 ./no-such-bot builtin:greedy 2>&1", tmp, mtref);
    assert_int_equal(sh(cmd, &out), 2);
    assert_non_null(strstr(out, "start"));
    free(out);
    wait_no_marked(2000);
}

static void stop_mode_keeps_the_record_and_transcript(void **s)
{
    (void)s;
    char *line;
    assert_int_equal(one("garbage", "--on-fault stop", &line), 1);
    free(line);
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/run/records/d000000-t00-s0-w0.stopped.mtr", tmp);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/run/logs/d000000-t00-s0-w0-t.log", tmp);
    assert_int_equal(stat(path, &st), 0);
}

/* The records of a run, their comment lines left out (they name the bots' commands). */
static char *records_of(const char *dir)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && for f in %s/records/*.mtr; do echo \"== ${f##*/}\"; grep -v '^#' \"$f\"; done", tmp, dir);
    assert_int_equal(sh(cmd, &out), 0);
    return out;
}

static void bot_program_plays_as_the_builtin(void **s)
{
    (void)s;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf ext in && %s match -q --deals 3 --seed 11 --rounds 7 -o ext 'greedy=%s bot greedy' "
             "builtin:random >/dev/null && %s match -q --deals 3 --seed 11 --rounds 7 -o in builtin:greedy builtin:random >/dev/null",
             tmp, mtref, mtref, mtref);
    assert_int_equal(sh(cmd, NULL), 0);
    char *a = records_of("ext"), *b = records_of("in");
    assert_true(strlen(a) > 1000);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Under engine-from-hand the record deals the engine with its holder's hand (so check
 * accepts it), and every bot is told whose hand it left (`engine NAME TILE`). */
static void engine_laid_from_a_hand_is_told_and_recorded(void **s)
{
    (void)s;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf efh && %s match -q --deals 2 --seed 5 --rounds 7 --rules engine-from-hand -o efh "
             "'a=%s bot greedy' builtin:random builtin:greedy >/dev/null && %s check --rules engine-from-hand "
             "efh/records/*.mtr >/dev/null && cat efh/logs/*-a.log",
             tmp, mtref, mtref, mtref);
    assert_int_equal(sh(cmd, &out), 0);
    if (!strstr(out, "\nengine ")) fail_msg("no engine event in the transcript");
    free(out);
}

/* Journal lines without what a clock measures, sorted. */
static char *journal_of(const char *dir)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && grep '\"event\":\"match\"' %s/results.jsonl | sed 's/,\"clock\":.*//' | sort", tmp, dir);
    assert_int_equal(sh(cmd, &out), 0);
    return out;
}

static void concurrency_never_changes_results(void **s)
{
    (void)s;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf j1 j3 && %s match -q --deals 4 --seed 5 --rounds 1 -o j1 'g=%s bot greedy' builtin:random "
             "builtin:greedy >/dev/null && %s match -q -j 3 --deals 4 --seed 5 --rounds 1 -o j3 'g=%s bot greedy' "
             "builtin:random builtin:greedy >/dev/null",
             tmp, mtref, mtref, mtref, mtref);
    assert_int_equal(sh(cmd, NULL), 0);
    char *a = journal_of("j1"), *b = journal_of("j3");
    assert_int_equal(count(a, "\n"), 12);
    assert_string_equal(a, b);
    free(a);
    free(b);
    a = records_of("j1");
    b = records_of("j3");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void killed_run_resumes_to_the_same_end(void **s)
{
    (void)s;
    char cmd[2048];
    const char *args = "--deals 6 --seed 8 --rounds 1 'slow=%s ok' builtin:greedy >/dev/null 2>&1";
    char bots[512];
    snprintf(bots, sizeof bots, args, testbot);
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf full part && %s match -q -o full %s", tmp, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);
    /* kill -9 part way, then rerun the same command */
    snprintf(cmd, sizeof cmd,
             "cd %s && (%s match -q -o part %s & pid=$!; sleep 0.05; kill -9 $pid; wait $pid; true) && "
             "%s match -q -o part %s",
             tmp, mtref, bots, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);
    char *a = journal_of("full"), *b = journal_of("part");
    assert_string_equal(a, b);
    free(a);
    free(b);
    a = records_of("full");
    b = records_of("part");
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* another plan in the same directory is refused */
    snprintf(cmd, sizeof cmd, "cd %s && %s match -q -o part --time 2s %s", tmp, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 2);
}

static void shipped_bots_play_without_faults(void **s)
{
    (void)s;
    const char *dir = getenv("MTREF_TEST_DIR");
    assert_non_null(dir);
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf run && %s match -q --json --deals 2 --rounds 1 --seed 2 -o run 'first=sh %s/../scripts/bots/first.sh' "
             "builtin:random && %s check run/records/*.mtr >/dev/null",
             tmp, mtref, dir, mtref);
    assert_int_equal(sh(cmd, &out), 0);
    assert_int_equal(count(out, "\"kind\":"), 0);
    assert_true(count(out, "\"event\":\"match\"") == 4);
    free(out);
    if (system("python3 -c pass 2>/dev/null") != 0) return;      /* scripts/test installs python3 */
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf run && %s match -q --json --deals 2 --rounds 1 --seed 2 -o run --json-bot heavy "
             "'heavy=python3 %s/../scripts/bots/heavy.py' builtin:random && %s check run/records/*.mtr >/dev/null",
             tmp, mtref, dir, mtref);
    assert_int_equal(sh(cmd, &out), 0);
    assert_int_equal(count(out, "\"kind\":"), 0);
    assert_true(count(out, "\"event\":\"match\"") == 4);
    free(out);
}

/* greedy against random: a significant margin, and the duplicate interval narrower
 * than the raw one (what the duplicate deals buy). */
static void greedy_beats_random_and_duplicates_narrow_the_interval(void **s)
{
    (void)s;
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "%s match -q --json --deals 40 --seed 1 --rounds 7 builtin:greedy builtin:random", mtref);
    assert_int_equal(sh(cmd, &out), 0);
    char *summary = strstr(out, "{\"event\":\"summary\"");
    assert_non_null(summary);
    struct stats_json d;
    assert_true(stats_json_parse(&d, summary, strcspn(summary, "\n")));
    const struct stats_json_value *g = stats_json_at(&d, stats_json_get(&d, &d.v[0], "bots"), 0);
    assert_string_equal(stats_json_get(&d, g, "bot")->str, "greedy");
    double margin = stats_json_get(&d, g, "margin")->num, ci = stats_json_get(&d, g, "margin_ci")->num;
    double total_ci = stats_json_get(&d, g, "total_ci")->num;
    assert_true(margin + ci < 0);
    assert_true(ci < total_ci);
    stats_json_free(&d);
    free(out);
}

static void forfeit_never_pays(void **s)
{
    (void)s;
    struct rules r;
    rules_init_canonical(&r);
    int64_t totals[3] = {10, 40, 25}, adj[3];
    bool forfeited[3] = {true, false, false};
    int ranks[3];
    match_adjudicate(&r, 3, totals, forfeited, adj, ranks);
    assert_int_equal(adj[0], 40);       /* no better than the worst real total */
    assert_int_equal(ranks[0], 3);      /* last */
    assert_int_equal(ranks[1], 2);
    assert_int_equal(ranks[2], 1);
    r.scoring = SCORING_POSITIVE;
    int64_t high[3] = {90, 40, 25};
    match_adjudicate(&r, 3, high, forfeited, adj, ranks);
    assert_int_equal(adj[0], 25);
    assert_int_equal(ranks[0], 3);
}

static int setup(void **state)
{
    (void)state;
    mtref = getenv("MTREF_BINARY");
    testbot = getenv("MTREF_TESTBOT");
    if (!mtref || !testbot) return -1;
    snprintf(mark, sizeof mark, "m%ld", (long)getpid());
    snprintf(tmp, sizeof tmp, "/tmp/mtref-test-match-%ld", (long)getpid());
    mkdir(tmp, 0777);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* The round message sizes the hands of the seats still in, and no other (text and JSON). */
static void the_round_message_sizes_only_the_seats_still_in(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players ana bob cy\nseed 3");
    struct game g = ref->game;
    tu_free(ref);
    g.eliminated[1] = true;
    int size = tileset_count(g.hands[0]);
    assert_int_equal(tileset_count(g.hands[2]), size);
    struct mbuf b = {0};
    proto_round(&b, PROTO_TEXT, &g, 0);
    mbuf_bytes(&b, "", 1);                 /* a string to search */
    char want[64];
    snprintf(want, sizeof want, "\nsizes ana %d cy %d\n", size, size);
    assert_non_null(b.data);
    assert_non_null(strstr(b.data, want));
    b.len = 0;
    proto_round(&b, PROTO_JSON, &g, 2);
    mbuf_bytes(&b, "", 1);
    snprintf(want, sizeof want, "\"hand_sizes\":{\"ana\":%d,\"cy\":%d}", size, size);
    assert_non_null(strstr(b.data, want));
    mbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_round_message_sizes_only_the_seats_still_in),
        cmocka_unit_test(clean_play_has_no_fault),
        cmocka_unit_test(sleeping_past_the_clock_is_timeout),
        cmocka_unit_test(spending_the_bank_times_out_when_it_runs_out),
        cmocka_unit_test(exit_is_crash_and_stops_the_run),
        cmocka_unit_test(exit_with_recover_is_a_forfeit),
        cmocka_unit_test(signal_is_crash),
        cmocka_unit_test(crash_without_a_clock_is_seen),
        cmocka_unit_test(nul_is_garbled),
        cmocka_unit_test(invalid_utf8_is_garbled),
        cmocka_unit_test(endless_line_is_garbled),
        cmocka_unit_test(garbage_is_garbled),
        cmocka_unit_test(named_draw_is_garbled),
        cmocka_unit_test(flooding_is_flood),
        cmocka_unit_test(never_reading_is_stalled),
        cmocka_unit_test(byte_by_byte_is_fine),
        cmocka_unit_test(early_answer_is_dropped),
        cmocka_unit_test(answer_twice_is_dropped),
        cmocka_unit_test(tile_not_in_hand_is_illegal_r23),
        cmocka_unit_test(draw_while_able_to_play_is_illegal_must_play),
        cmocka_unit_test(pass_while_owing_a_draw_is_illegal_must_draw),
        cmocka_unit_test(another_players_name_is_illegal_r24),
        cmocka_unit_test(exit_early_is_crash),
        cmocka_unit_test(closing_stdout_is_crash),
        cmocka_unit_test(child_holding_the_pipe_is_crash_and_killed),
        cmocka_unit_test(double_fork_does_not_hang),
        cmocka_unit_test(ignoring_bye_is_killed_no_fault),
        cmocka_unit_test(stderr_storm_is_drained_no_fault),
        cmocka_unit_test(past_the_memory_limit_is_crash),
        cmocka_unit_test(past_the_cpu_limit_is_crash),
        cmocka_unit_test(a_bot_runs_in_a_fresh_directory),
        cmocka_unit_test(a_bot_has_its_own_time_and_limits),
        cmocka_unit_test(a_relative_command_is_found_from_a_fresh_directory),
        cmocka_unit_test(start_failures_stop_the_run_with_2),
        cmocka_unit_test(stop_mode_keeps_the_record_and_transcript),
        cmocka_unit_test(bot_program_plays_as_the_builtin),
        cmocka_unit_test(engine_laid_from_a_hand_is_told_and_recorded),
        cmocka_unit_test(concurrency_never_changes_results),
        cmocka_unit_test(killed_run_resumes_to_the_same_end),
        cmocka_unit_test(shipped_bots_play_without_faults),
        cmocka_unit_test(greedy_beats_random_and_duplicates_narrow_the_interval),
        cmocka_unit_test(forfeit_never_pays),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
