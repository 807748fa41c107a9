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

/* Every record passes mtref check and holds printable ASCII only: a bot's bytes
 * (NUL, invalid UTF-8, escapes) never enter it raw. */
static void records_check_ok(void)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && ls run/records/*.mtr >/dev/null 2>&1 && %s check run/records/*.mtr", tmp, mtref);
    int status = sh(cmd, &out);
    if (status != 0) fail_msg("mtref check on the records: %s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "cd %s && cat run/records/*.mtr | LC_ALL=C tr -d '\\n\\040-\\176' | wc -c", tmp);
    sh(cmd, &out);
    if (atoi(out) != 0) fail_msg("%d bytes in the records that are not printable ASCII", atoi(out));
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
/* only fds 0-2, each a pipe; its own process group; MTREF_BOT_PROTOCOL=1 and no other
 * MTREF_* variable (the test sets one) */
static void a_bot_process_gets_only_what_the_page_says(void **s)
{
    (void)s;
    setenv("MTREF_SECRET", "x", 1);
    expect_fault("inspect", "", "", NULL, 0);
    unsetenv("MTREF_SECRET");
}
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
static void crlf_line_ends_are_fine(void **s) { (void)s; expect_fault("crlf", "", "", NULL, 0); }
static void early_answer_is_dropped(void **s) { (void)s; expect_fault("early", "", "", NULL, 0); }
static void answer_twice_is_dropped(void **s) { (void)s; expect_fault("twice", "", "", NULL, 0); }
static void tile_not_in_hand_is_illegal_r23(void **s) { (void)s; expect_fault("notinhand", "", "illegal", "not-in-hand [R23]", 0); }
static void draw_while_able_to_play_is_illegal_must_play(void **s) { (void)s; expect_fault("drawwhilecanplay", "", "illegal", "must-play", 0); }
static void pass_while_owing_a_draw_is_illegal_must_draw(void **s) { (void)s; expect_fault("passwhilecandraw", "--ask-forced", "illegal", "must-draw", 0); }
static void another_players_name_is_illegal_r24(void **s) { (void)s; expect_fault("notyourturn", "", "illegal", "not-your-turn [R24]", 0); }
/* The rest of mtref's refusals, each from a view that allows it (precedence of
 * protocol.md: not-in-hand, must-cover, train-closed, no-match, house-rule; for a draw
 * must-play, already-drawn, boneyard-empty; the actor's name first of all). */
static void tile_without_the_open_pip_is_illegal_no_match(void **s) { (void)s; expect_fault("break:nomatch", "", "illegal", "no-match [R7]", 0); }
static void another_unmarked_train_is_illegal_train_closed(void **s) { (void)s; expect_fault("break:trainclosed", "", "illegal", "train-closed [R7]", 0); }
static void leaving_a_double_uncovered_is_illegal_must_cover(void **s) { (void)s; expect_fault("break:mustcover", "--ask-forced", "illegal", "must-cover [R14]", 0); }
static void a_second_draw_is_illegal_already_drawn(void **s) { (void)s; expect_fault("break:alreadydrawn", "--ask-forced", "illegal", "already-drawn [R9]", 0); }
static void drawing_from_an_empty_boneyard_is_illegal(void **s)
{
    (void)s;   /* eight seats empty the boneyard within the round */
    expect_fault("break:boneyardempty", "--ask-forced -n 8 builtin:random builtin:greedy builtin:random builtin:greedy "
                 "builtin:random builtin:greedy", "illegal", "boneyard-empty [R10]", 0);
}
static void a_name_not_at_the_table_is_illegal_unknown_player(void **s) { (void)s; expect_fault("break:unknownplayer", "", "illegal", "unknown-player [R2]", 0); }
static void a_play_a_house_rule_forbids_is_illegal_with_its_reason(void **s)
{
    (void)s;
    char extra[1024];
    snprintf(extra, sizeof extra, "--rules %s/../rules/examples/mex-after-own.lua", getenv("MTREF_TEST_DIR"));
    expect_fault("break:houserule", extra, "illegal",
                 "house-rule (mex-after-own: only a player whose own train holds a tile may start the Mexican train)", 0);
}
static void answer_twice_without_an_id_is_dropped(void **s) { (void)s; expect_fault("twicebare", "", "", NULL, 0); }
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

/* A referee killed by SIGKILL leaves its bots' directories behind: the next run
 * removes each whose lock is free, never one whose maker still holds it. */
static void directories_left_by_a_killed_referee_are_removed_by_the_next(void **s)
{
    (void)s;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf sweep && mkdir -p sweep/mtref-bot-dead01/sub sweep/mtref-bot-live01 && "
             "touch sweep/mtref-bot-dead01/sub/x sweep/mtref-bot-live01/y && "
             "touch -d '1 hour ago' sweep/mtref-bot-dead01.lock sweep/mtref-bot-live01.lock && "
             "(flock sweep/mtref-bot-live01.lock sleep 5 >/dev/null 2>&1 &) && sleep 0.2 && "
             "TMPDIR=$PWD/sweep %s match -q --deals 1 --rounds 1 --seed 2 't=%s ok' builtin:greedy >/dev/null && ls sweep",
             tmp, mtref, testbot);
    assert_int_equal(sh(cmd, &out), 0);
    assert_string_equal(out, "mtref-bot-live01\nmtref-bot-live01.lock\n");
    free(out);
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
    if (!strstr(out, "its stderr ends: ") || !strstr(out, "not found")) fail_msg("the shell's word is missing: %s", out);
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
    /* what it was sent, fed to it again, replays the fault (mtref-bot(7), FAULTS) */
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "sed -n 's/^> //p' %s | %s garbage", path, testbot);
    sh(cmd, &out);
    if (!strstr(out, "hello 1 testbot\n") || !strstr(out, "xyzzy 12 frob\n")) fail_msg("no replay: %s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "grep -c -v '^[<>] ' %s", path);
    sh(cmd, &out);
    assert_int_equal(atoi(out), 0);                        /* every line says its direction */
    free(out);
}

/* --log-dir without -o: the directory is made, one transcript per bot program per match. */
static void log_dir_alone_keeps_the_transcripts(void **s)
{
    (void)s;
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf lonely && %s match -q --deals 2 --rounds 1 --seed 2 --log-dir lonely 't=%s ok' "
             "builtin:greedy >/dev/null && ls lonely",
             tmp, mtref, testbot);
    assert_int_equal(sh(cmd, &out), 0);
    assert_int_equal(count(out, "-t.log\n"), 4);
    free(out);
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
    if (!strstr(out, "\n> engine ")) fail_msg("no engine event in the transcript");
    free(out);
}

/* No seed reaches a bot: neither the run's nor a deal's, in decimal or hex, is in any
 * transcript (a bot that knew one could compute every hand); the match ids of one
 * deal's seatings differ. */
static void no_seed_reaches_a_bot(void **s)
{
    (void)s;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf seeds && %s match -q --deals 3 --rounds 1 --seed 123457 -o seeds 'a=%s ok' 'b=%s ok' "
             ">/dev/null && for d in $(grep -o '\"deal_seed\":\"[0-9]*' seeds/results.jsonl | cut -d'\"' -f4) 123457; do "
             "h=$(printf '%%x' $d); grep -l -i -e \"$d\" -e \"$h\" seeds/logs/*.log; done; "
             "grep -h '^> match ' seeds/logs/*-a.log | sort | uniq -d",
             tmp, mtref, testbot, testbot);
    assert_int_equal(sh(cmd, &out), 0);
    if (out[0]) fail_msg("a seed, or a match id twice, in the transcripts: %s", out);
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
             "cd %s && rm -rf j1 j4 && %s match -q --deals 4 --seed 5 --rounds 1 -o j1 'g=%s bot greedy' builtin:random "
             "builtin:greedy >/dev/null && %s match -q -j 4 --deals 4 --seed 5 --rounds 1 -o j4 'g=%s bot greedy' "
             "builtin:random builtin:greedy >/dev/null",
             tmp, mtref, mtref, mtref, mtref);
    assert_int_equal(sh(cmd, NULL), 0);
    char *a = journal_of("j1"), *b = journal_of("j4");
    assert_int_equal(count(a, "\n"), 12);
    assert_string_equal(a, b);
    free(a);
    free(b);
    a = records_of("j1");
    b = records_of("j4");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* The matches a plan makes, as "KEY BOT BOT..." lines. */
static char *tables_of(const char *args)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd,
             "%s match -q --json --deals 1 --rounds 1 --seed 5 %s | grep '\"event\":\"match\"' | "
             "sed 's/.*\"key\":\"\\([^\"]*\\)\".*\"bots\":\\[\\([^]]*\\)\\].*/\\1 \\2/; s/[\",]/ /g; s/  */ /g; s/ $//'",
             mtref, args);
    assert_int_equal(sh(cmd, &out), 0);
    return out;
}

/* Round robin, gauntlet, --table (repeats allowed) and --swap make the tables and
 * seatings mtref(1) says; every rotation of a deal gives every bot every hand once. */
static void tables_seatings_and_swaps_are_as_asked(void **s)
{
    (void)s;
    struct { const char *args, *want; } cases[] = {
        {"-n 2 --tournament roundrobin a=builtin:greedy b=builtin:random c=builtin:greedy",
         "d000000-t00-s0-w0 a b\nd000000-t00-s1-w0 b a\nd000000-t01-s0-w0 a c\nd000000-t01-s1-w0 c a\n"
         "d000000-t02-s0-w0 b c\nd000000-t02-s1-w0 c b\n"},
        {"-n 2 --tournament gauntlet a=builtin:greedy b=builtin:random c=builtin:greedy d=builtin:random",
         "d000000-t00-s0-w0 a b\nd000000-t00-s1-w0 b a\nd000000-t01-s0-w0 a c\nd000000-t01-s1-w0 c a\n"
         "d000000-t02-s0-w0 a d\nd000000-t02-s1-w0 d a\n"},
        {"--swap a,b a=builtin:greedy b=builtin:random c=builtin:greedy",
         "d000000-t00-s0-w0 a b c\nd000000-t00-s0-w1 b a c\nd000000-t00-s1-w0 b c a\nd000000-t00-s1-w1 a c b\n"
         "d000000-t00-s2-w0 c a b\nd000000-t00-s2-w1 c b a\n"},
        {"--table a,a,b -n 3 a=builtin:greedy b=builtin:random",
         "d000000-t00-s0-w0 a a b\nd000000-t00-s1-w0 a b a\nd000000-t00-s2-w0 b a a\n"},
        {"--seating none a=builtin:greedy b=builtin:random c=builtin:greedy", "d000000-t00-s0-w0 a b c\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = tables_of(cases[i].args);
        if (strcmp(got, cases[i].want) != 0) fail_msg("%s:\n%s\nwanted\n%s", cases[i].args, got, cases[i].want);
        free(got);
    }
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf rot && %s match -q --deals 1 --rounds 1 --seed 5 -o rot a=builtin:greedy b=builtin:random "
             "c=builtin:greedy >/dev/null && for f in rot/records/*.mtr; do grep -m3 '^deal ' $f; done | sort -u > rot/pairs && "
             "wc -l < rot/pairs && cut -d' ' -f2 rot/pairs | sort | uniq -c | awk '{print $1}' | sort -u && "
             "cut -d' ' -f3- rot/pairs | sort | uniq -c | awk '{print $1}' | sort -u",
             tmp, mtref);
    assert_int_equal(sh(cmd, &out), 0);
    assert_string_equal(out, "9\n3\n3\n");    /* 3 bots x 3 hands, each bot 3 hands, each hand 3 bots */
    free(out);
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
    snprintf(cmd, sizeof cmd, "cd %s && %s match -q -o part --flood 5 %s", tmp, mtref, bots);   /* faults differ */
    assert_int_equal(sh(cmd, NULL), 2);
    snprintf(cmd, sizeof cmd, "cd %s && %s match -q -o part -j 2 --exit-grace 1s %s", tmp, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);                              /* results do not depend on these */
}

/* -j 2 killed with SIGKILL: its workers and their bots die with it (a rerun never
 * races a worker still playing the old run), and the rerun ends as an uninterrupted
 * run does. kill -TERM of the referee alone (as a batch system sends it): the matches
 * in play finish, exit status 130 with how to resume, and the rerun ends the same. */
static void parallel_run_killed_or_terminated_resumes_to_the_same_end(void **s)
{
    (void)s;
    char cmd[2048], bots[512], *out;
    snprintf(bots, sizeof bots, "-j 2 --deals 20 --seed 9 --rounds 1 'slow=%s pace 10' builtin:greedy", testbot);
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf full part term int1 && %s match -q -o full %s >/dev/null 2>&1", tmp, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && (TESTBOT_MARK=%s %s match -q -o part %s >/dev/null 2>&1 & pid=$!; sleep 0.5; kill -9 $pid; "
             "wait $pid; true)",
             tmp, mark, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);
    wait_no_marked(1000);                       /* not the rest of the run: at once */
    snprintf(cmd, sizeof cmd, "cd %s && ls part/records | wc -l", tmp);
    sh(cmd, &out);
    int records = atoi(out);
    free(out);
    assert_true(records < 40);
    snprintf(cmd, sizeof cmd,
             "cd %s && %s match -q -o term %s >/dev/null 2>term.txt & pid=$!; sleep 0.5; kill -TERM $pid; wait $pid",
             tmp, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 130);
    snprintf(cmd, sizeof cmd, "cat %s/term.txt", tmp);
    sh(cmd, &out);
    if (!strstr(out, "to resume, run the same command")) fail_msg("no word of resuming: %s", out);
    free(out);
    /* Ctrl-C of a run without -j: the match in play ends, 130 */
    char one_job[512];
    snprintf(one_job, sizeof one_job, "%s", bots + strlen("-j 2 "));
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf int1 && %s match -q -o int1 %s >/dev/null 2>int1.txt & pid=$!; sleep 0.5; kill -INT $pid; "
             "wait $pid",
             tmp, mtref, one_job);
    assert_int_equal(sh(cmd, NULL), 130);
    snprintf(cmd, sizeof cmd, "cd %s && %s match -q -o part %s >/dev/null && %s match -q -o term %s >/dev/null && "
             "%s match -q -o int1 %s >/dev/null", tmp, mtref, bots, mtref, bots, mtref, one_job);
    assert_int_equal(sh(cmd, NULL), 0);
    char *a = journal_of("full");
    assert_int_equal(count(a, "\n"), 40);
    const char *dirs[] = {"part", "term", "int1"};
    for (int i = 0; i < 3; i++) {
        char *b = journal_of(dirs[i]);
        assert_string_equal(a, b);
        free(b);
    }
    free(a);
    a = records_of("full");
    for (int i = 0; i < 3; i++) {
        char *b = records_of(dirs[i]);
        assert_string_equal(a, b);
        free(b);
    }
    free(a);
}

/* Shards of one run (--first-deal K --deals D on other hosts): their records are the
 * run's, and mtref stats over their journals prints the run's table, text and JSON. */
static void shards_merge_into_the_one_run(void **s)
{
    (void)s;
    char cmd[2048], *one_run, *merged;
    /* the whole run seeded at random; the shards given its seed as the journal keeps it */
    const char *bots = "--rounds 1 builtin:greedy builtin:random >/dev/null";
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf whole sa sb merged && %s match -q --deals 6 -o whole %s && "
             "seed=$(sed -n '1s/.*\"seed\":\"\\(0x[0-9a-f]*\\)\".*/\\1/p' whole/results.jsonl) && "
             "%s match -q --seed $seed --deals 2 -o sa %s && %s match -q --seed $seed --first-deal 2 --deals 4 -o sb %s && "
             "mkdir -p merged/records && cp sa/records/* sb/records/* merged/records/",
             tmp, mtref, bots, mtref, bots, mtref, bots);
    assert_int_equal(sh(cmd, NULL), 0);
    one_run = records_of("whole");
    merged = records_of("merged");
    assert_string_equal(one_run, merged);
    free(one_run);
    free(merged);
    const char *forms[] = {"", "--json"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s stats %s whole/results.jsonl", tmp, mtref, forms[i]);
        assert_int_equal(sh(cmd, &one_run), 0);
        snprintf(cmd, sizeof cmd, "cd %s && %s stats %s sb/results.jsonl sa/results.jsonl", tmp, mtref, forms[i]);
        assert_int_equal(sh(cmd, &merged), 0);
        assert_true(strstr(one_run, "12") != NULL);
        assert_string_equal(one_run, merged);
        free(one_run);
        free(merged);
    }
    /* a journal of another plan is refused, not merged */
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf other && %s match -q --deals 2 -o other --rounds 1 "
             "builtin:greedy builtin:random >/dev/null && %s stats sa/results.jsonl other/results.jsonl 2>&1",
             tmp, mtref, mtref);
    assert_int_equal(sh(cmd, &merged), 2);
    assert_non_null(strstr(merged, "different plans"));
    free(merged);
}

/* A bot whose executable changed since the journal began is refused on resume, unless
 * --allow-changed-bots; --force starts over. */
static void a_changed_bot_executable_is_refused_on_resume(void **s)
{
    (void)s;
    char cmd[2048], *out;
    const char *run = "match -q -o chg --deals 2 --rounds 1 --seed 3 b=./chbot builtin:greedy";
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf chg && cp %s chbot && %s %s >/dev/null && echo x >> chbot && %s %s 2>&1",
             tmp, testbot, mtref, run, mtref, run);
    int status = sh(cmd, &out);
    if (status != 2 || !strstr(out, "executable changed")) fail_msg("status %d: %s", status, out);
    free(out);
    snprintf(cmd, sizeof cmd, "cd %s && %s %s --allow-changed-bots >/dev/null && %s %s --force >/dev/null", tmp,
             mtref, run, mtref, run);
    assert_int_equal(sh(cmd, NULL), 0);
    /* the script an interpreter runs is the bot too */
    const char *script = "match -q -o chs --deals 1 --rounds 1 --seed 3 'b=sh ./first.sh' builtin:greedy";
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf chs && cp %s/../scripts/bots/first.sh . && %s %s >/dev/null && echo '# v2' >> first.sh && "
             "%s %s 2>&1",
             tmp, getenv("MTREF_TEST_DIR"), mtref, script, mtref, script);
    status = sh(cmd, &out);
    if (status != 2 || !strstr(out, "executable changed")) fail_msg("a changed script: status %d: %s", status, out);
    free(out);
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
    struct jdoc d;
    assert_true(jdoc_parse(&d, summary, strcspn(summary, "\n")));
    const struct jval *g = jat(&d, jget(&d, &d.v[0], "bots"), 0);
    assert_string_equal(jget(&d, g, "bot")->str, "greedy");
    double margin = jget(&d, g, "margin")->num, ci = jget(&d, g, "margin_ci")->num;
    double total_ci = jget(&d, g, "total_ci")->num;
    assert_true(margin + ci < 0);
    assert_true(ci < total_ci);
    jdoc_free(&d);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_play_has_no_fault),
        cmocka_unit_test(a_bot_process_gets_only_what_the_page_says),
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
        cmocka_unit_test(crlf_line_ends_are_fine),
        cmocka_unit_test(early_answer_is_dropped),
        cmocka_unit_test(answer_twice_is_dropped),
        cmocka_unit_test(tile_not_in_hand_is_illegal_r23),
        cmocka_unit_test(draw_while_able_to_play_is_illegal_must_play),
        cmocka_unit_test(pass_while_owing_a_draw_is_illegal_must_draw),
        cmocka_unit_test(another_players_name_is_illegal_r24),
        cmocka_unit_test(tile_without_the_open_pip_is_illegal_no_match),
        cmocka_unit_test(another_unmarked_train_is_illegal_train_closed),
        cmocka_unit_test(leaving_a_double_uncovered_is_illegal_must_cover),
        cmocka_unit_test(a_second_draw_is_illegal_already_drawn),
        cmocka_unit_test(drawing_from_an_empty_boneyard_is_illegal),
        cmocka_unit_test(a_name_not_at_the_table_is_illegal_unknown_player),
        cmocka_unit_test(a_play_a_house_rule_forbids_is_illegal_with_its_reason),
        cmocka_unit_test(answer_twice_without_an_id_is_dropped),
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
        cmocka_unit_test(directories_left_by_a_killed_referee_are_removed_by_the_next),
        cmocka_unit_test(start_failures_stop_the_run_with_2),
        cmocka_unit_test(stop_mode_keeps_the_record_and_transcript),
        cmocka_unit_test(log_dir_alone_keeps_the_transcripts),
        cmocka_unit_test(bot_program_plays_as_the_builtin),
        cmocka_unit_test(engine_laid_from_a_hand_is_told_and_recorded),
        cmocka_unit_test(tables_seatings_and_swaps_are_as_asked),
        cmocka_unit_test(no_seed_reaches_a_bot),
        cmocka_unit_test(concurrency_never_changes_results),
        cmocka_unit_test(killed_run_resumes_to_the_same_end),
        cmocka_unit_test(parallel_run_killed_or_terminated_resumes_to_the_same_end),
        cmocka_unit_test(shards_merge_into_the_one_run),
        cmocka_unit_test(a_changed_bot_executable_is_refused_on_resume),
        cmocka_unit_test(shipped_bots_play_without_faults),
        cmocka_unit_test(greedy_beats_random_and_duplicates_narrow_the_interval),
        cmocka_unit_test(forfeit_never_pays),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
