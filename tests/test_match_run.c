/* mtref match end to end, runs of many matches: mtref bot greedy as a program plays
 * exactly as the built-in; tables, rotations and swaps are as asked; -j does not change
 * results; a run killed, terminated or interrupted resumes to the same end; shards
 * merge; a changed bot is refused; no seed reaches a bot; the statistics separate
 * greedy from random. The faults of one bot are in test_match.c. */
#define _DEFAULT_SOURCE 1
#include "testutil.h"
#include "matchutil.h"

#include "stats_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
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
    };
    return cmocka_run_group_tests(tests, mu_setup, mu_teardown);
}
