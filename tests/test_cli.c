/* The command line, run as a program: options and their errors, help per
 * subcommand, rules files found and listed, check over directories with its
 * summary, --record and -q, and the messages that say why a line is refused. */
#include "testutil.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct run {
    int status;
    char *out, *err;
};

static char *slurp(FILE *f)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    return s;
}

/* Runs mtref with args (NULL-terminated) in dir (NULL: here), input on stdin. */
static struct run run_in(const char *dir, const char *input, const char *arg, ...)
{
    const char *argv[64];
    int argc = 0;
    argv[argc++] = getenv("MTREF_BINARY");
    assert_non_null(argv[0]);
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && argc < 63; a = va_arg(ap, const char *)) argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    assert_true(in && out && err);
    fputs(input ? input : "", in);
    fflush(in);
    rewind(in);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(in), 0);
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        if (dir && chdir(dir) != 0) _exit(99);
        execv(argv[0], (char *const *)argv);
        _exit(98);
    }
    int wstatus;
    assert_int_equal(waitpid(pid, &wstatus, 0), pid);
    struct run r = {WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, slurp(out), slurp(err)};
    fclose(in);
    fclose(out);
    fclose(err);
    return r;
}

#define run(input, ...) run_in(NULL, input, __VA_ARGS__, (const char *)NULL)

static void done(struct run *r)
{
    free(r->out);
    free(r->err);
}

static void assert_has(const char *text, const char *needle)
{
    if (!strstr(text, needle)) fail_msg("'%s' does not hold '%s'", text, needle);
}

static void an_option_typo_suggests_the_nearest_option(void **state)
{
    (void)state;
    struct run r = run(NULL, "--jsn");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "unknown option '--jsn' (did you mean --json?)");
    done(&r);
    r = run(NULL, "check", "--sumary", "x.mtr");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "did you mean --summary?");
    done(&r);
}

static void an_option_of_another_subcommand_is_refused_naming_it(void **state)
{
    (void)state;
    struct run r = run(NULL, "check", "--games", "3", "x.mtr");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--games means nothing to mtref check: it is an option of mtref selfplay");
    done(&r);
    r = run(NULL, "selfplay", "--json");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--json means nothing to mtref selfplay");
    done(&r);
}

static void a_bad_count_names_the_value_and_the_range(void **state)
{
    (void)state;
    struct run r = run(NULL, "selfplay", "--games=abc");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--games: 'abc' is not a whole number from 0 to 1000000000");
    done(&r);
    r = run(NULL, "selfplay", "--players", "9");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "9 players: these rules seat 2 to 8");
    done(&r);
}

static void every_option_takes_its_value_after_an_equals_sign(void **state)
{
    (void)state;
    struct run spaced = run(NULL, "selfplay", "--players", "2", "--rounds", "1", "--games", "2", "--seed", "3",
                            "--bots", "random,greedy", "--rules", "double-blank-50");
    struct run joined = run(NULL, "selfplay", "--players=2", "--rounds=1", "--games=2", "--seed=3",
                            "--bots=random,greedy", "--rules=double-blank-50");
    assert_int_equal(spaced.status, 0);
    assert_int_equal(joined.status, 0);
    assert_string_equal(spaced.out, joined.out);
    done(&spaced);
    done(&joined);
    struct run r = run(NULL, "--json=yes");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--json takes no value");
    done(&r);
}

static void help_is_per_subcommand_with_defaults(void **state)
{
    (void)state;
    struct run check = run(NULL, "check", "--help");
    assert_int_equal(check.status, 0);
    assert_has(check.out, "usage: mtref check");
    assert_has(check.out, "--require-complete");
    assert_has(check.out, "default");
    struct run help_check = run(NULL, "help", "check");
    assert_string_equal(check.out, help_check.out);
    struct run selfplay = run(NULL, "selfplay", "-h");
    assert_has(selfplay.out, "--games G");
    assert_has(selfplay.out, "default 1");
    assert_true(strcmp(selfplay.out, check.out) != 0);
    struct run top = run(NULL, "--help"), help = run(NULL, "help");
    assert_string_equal(top.out, help.out);
    assert_has(top.out, "subcommands");
    assert_has(top.out, "  selfplay ");
    struct run typo = run(NULL, "help", "chek");
    assert_int_equal(typo.status, 2);
    assert_has(typo.err, "did you mean check?");
    done(&check), done(&help_check), done(&selfplay), done(&top), done(&help), done(&typo);
}

static void version_short_and_long_name_lua(void **state)
{
    (void)state;
    struct run v = run(NULL, "-V"), version = run(NULL, "--version"), sub = run(NULL, "check", "-V");
    assert_int_equal(v.status, 0);
    assert_string_equal(v.out, version.out);
    assert_string_equal(v.out, sub.out);
    assert_has(v.out, "(Lua 5.4");
    done(&v), done(&version), done(&sub);
}

static void a_mistyped_subcommand_is_suggested(void **state)
{
    (void)state;
    struct run r = run(NULL, "chek");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "chek: No such file or directory");
    assert_has(r.err, "did you mean mtref check?");
    done(&r);
}

static void a_rules_name_typo_suggests_the_nearest_file(void **state)
{
    (void)state;
    struct run r = run("", "--rules", "double-blank50");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");                    /* text mode: on stderr, not an answer */
    assert_has(r.err, "mtref: rules: double-blank50: no rules file of that name on the search path");
    assert_has(r.err, "did you mean double-blank-50?");
    done(&r);
    r = run("", "--json", "--rules", "double-blank50");
    assert_int_equal(r.status, 2);
    assert_has(r.out, "{\"line\":0,\"ok\":false,\"error\":\"rules\"");
    done(&r);
}

static void a_rules_path_claims_no_search_and_a_directory_is_named(void **state)
{
    (void)state;
    struct run r = run("", "--rules", "./no-such-rules.lua");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "./no-such-rules.lua: no such file");
    assert_null(strstr(r.err, "search"));
    done(&r);
    r = run("", "--rules", "/tmp");
    assert_has(r.err, "/tmp: is a directory, not a rules file");
    done(&r);
    r = run("players a b\nrules /tmp\n", "--json");
    assert_has(r.out, "is a directory, not a rules file");
    done(&r);
}

static void rules_without_a_name_lists_the_search_path(void **state)
{
    (void)state;
    struct run r = run(NULL, "rules");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "double-blank-50");
    assert_has(r.out, "0-0 counts 50");
    assert_has(r.out, "/double-blank-50.lua");
    assert_has(r.out, "elimination-100");
    done(&r);
}

/* Several files setting one hook: each file's is named, in load order (how they chain). */
static void rules_names_every_files_hook_in_load_order(void **state)
{
    (void)state;
    struct run r = run(NULL, "rules", "first-turn-no-doubles", "mex-after-own", "double-fifteen");
    assert_int_equal(r.status, 0);
    const char *a = strstr(r.out, "hook may_play: "), *b = a ? strstr(a + 1, "hook may_play: ") : NULL;
    assert_non_null(a);
    assert_non_null(b);
    assert_true(strstr(a, "first-turn-no-doubles.lua:") < strstr(a, "mex-after-own.lua:"));
    assert_non_null(strstr(b, "mex-after-own.lua:"));
    assert_has(r.out, "set: double-fifteen, 136 tiles, pips 0 to 15");
    assert_has(r.out, "players: 2 to 12");
    done(&r);
}

static char *temp_dir(void)
{
    static char dir[64];
    strcpy(dir, "/tmp/mtref-cli-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void rules_name_finds_a_file_in_the_current_directory(void **state)
{
    (void)state;
    char *dir = temp_dir();
    write_file(dir, "club-rule.lua", "return { description = \"our club\" }\n");
    struct run r = run_in(dir, NULL, "rules", "club-rule", (const char *)NULL);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "our club");
    done(&r);
    r = run_in(dir, "players a b\nrules club-rule\n", "--json", (const char *)NULL);
    assert_int_equal(r.status, 0);
    done(&r);
    remove_dir(dir);
}

static void check_walks_a_directory_and_sums_it_up(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char sub[128];
    snprintf(sub, sizeof sub, "%s/monday", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    struct run r = run(NULL, "selfplay", "--players", "3", "--rounds", "1", "--games", "2", "--out", sub);
    assert_int_equal(r.status, 0);
    done(&r);
    write_file(dir, "started.mtr", "players a b\n");
    write_file(dir, "notes.txt", "not a record\n");
    r = run(NULL, "check", dir);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "/monday/match-000001.mtr: ok, ");
    assert_has(r.out, "/monday/match-000002.mtr: ok, ");
    assert_has(r.out, "/started.mtr: ok, incomplete");
    assert_null(strstr(r.out, "notes.txt"));
    assert_has(r.out, " wins: p1 ");                 /* every total, named */
    done(&r);
    r = run(NULL, "check", "--require-complete", dir);
    assert_int_equal(r.status, 1);
    assert_has(r.out, "/started.mtr: incomplete: no match ended");
    done(&r);
    r = run(NULL, "check", "--summary", dir);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "summary: 3 files, 3 legal, 2 complete; 2 matches, 2 rounds");
    assert_has(r.out, "longest round: ");
    assert_has(r.out, "  p1 ");
    assert_has(r.out, "  seat 3 ");
    done(&r);
    r = run(NULL, "check", "--json", "--summary", "-q", dir);
    assert_has(r.out, "{\"summary\":{\"files\":3,\"legal\":3,\"complete\":2,\"matches\":2,\"rounds\":2,");
    assert_has(r.out, ",\"draws\":0,\"mean_total\":");     /* the sum beside the mean, for shards */
    assert_has(r.out, ",\"sum_total\":");
    done(&r);
    remove_dir(dir);
}

static void quiet_answers_only_errors_events_and_queries(void **state)
{
    (void)state;
    struct run r = run("players a b\nrounds 1\nseed 42\nb play 1-2 b\nlegal\n", "-kq");
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.out, "ok\n"));
    assert_has(r.out, "error line 4: not-your-turn");
    assert_has(r.out, "ok legal: a play 0-12 a");
    done(&r);
}

static void a_record_holds_the_accepted_lines_and_check_accepts_it(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char rec[128];
    snprintf(rec, sizeof rec, "%s/kept.mtr", dir);
    struct run r = run("players ana bob\nrounds 1\nseed 42\nana play 6-7 mex\nana play 7-12 ana\nshow\n", "-k",
                       "--rules", "double-blank-50", "--record", rec);
    assert_int_equal(r.status, 1);
    done(&r);
    FILE *f = fopen(rec, "r");
    assert_non_null(f);
    char *text = slurp(f);
    fclose(f);
    assert_has(text, "# [Date \"");
    assert_has(text, "rules double-blank-50\nplayers ana bob\nrounds 1\nseed 42\nana play 7-12 ana\n");
    assert_null(strstr(text, "6-7"));
    assert_null(strstr(text, "show"));
    free(text);
    r = run(NULL, "check", rec);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "ok, incomplete");
    done(&r);
    remove_dir(dir);
}

static void keyboard_words_from_a_pipe_are_refused(void **state)
{
    (void)state;
    struct run r = run("undo\n", "--json");
    assert_int_equal(r.status, 2);
    assert_has(r.out, "\"error\":\"syntax\"");
    assert_has(r.out, "undo, help and quit are commands at the keyboard");
    done(&r);
}

/* [R23] Without a seed a draw names its tile: legal offers no bare draw. */
static void R23_unseeded_legal_offers_no_bare_draw(void **state)
{
    (void)state;
    const char *deal = "players a b\nrounds 1\n"
                       "deal a 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-2 1-3 1-4 1-5\n"
                       "deal b 1-6 1-7 1-8 1-9 1-10 1-11 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-11\n";
    char input[512];
    snprintf(input, sizeof input, "%slegal\n", deal);
    struct run r = run(input, "--json");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "\"a draw\""));
    assert_has(r.out, "\"a draw 0-0\",\"a draw 0-12\"");
    done(&r);
    snprintf(input, sizeof input, "%sa draw 0-0\n", deal);       /* what legal offered is accepted */
    r = run(input, "--json");
    assert_int_equal(r.status, 0);
    done(&r);
    snprintf(input, sizeof input, "%slegal\n", deal);
    r = run(input, NULL);
    assert_has(r.out, "ok legal: a draw A-B, naming the tile drawn (one of the 60 in the boneyard)");
    done(&r);
}

static void refusals_give_their_reason(void **state)
{
    (void)state;
    struct run r = run("players ana 1bob\nplayers anastasia_petrovna_\nplayers deal\nplayers mex\nplayers a b\nrounds 5\n"
                       "deal a 13-1\ndeal a 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-2 1-3 1-4 1-5\n"
                       "deal b 0-1 1-7 1-8 1-9 1-10 1-11 2-3 2-4 2-5 2-6 2-7 2-8 2-9 2-10 2-11\n",
                       "-k");
    assert_has(r.out, "bad player name '1bob': a name starts with an ASCII letter");
    assert_has(r.out, "'anastasia_petrovna_': a name is 1 to 16 characters");
    assert_has(r.out, "'deal': a keyword is not a name");
    assert_has(r.out, "'mex': mex names the Mexican train");
    assert_has(r.out, "cannot have 5 rounds under these rules: 13, 7 or 1 [R3]");
    assert_has(r.out, "bad tile '13-1': a tile is A-B, two pips from 0 to 12");
    assert_has(r.out, "0-1 is already dealt, to a [R23]");
    done(&r);
    r = run("players a b\na play 1-2 a\n", NULL);
    assert_has(r.out, "give each player a deal line (deal NAME TILE...), or a seed line first");
    done(&r);
}

/* The footer of mtref(1) names the version that --version prints. */
static void the_manual_names_the_version(void **state)
{
    (void)state;
    size_t len;
    char *page = tu_read_test_file("../man/mtref.1", &len);
    assert_non_null(page);
    struct run v = run(NULL, "--version");
    char version[64];
    assert_int_equal(sscanf(v.out, "mtref %63s", version), 1);
    char footer[96];
    snprintf(footer, sizeof footer, "\n.Os mtref %s\n", version);
    assert_has(page, footer);
    free(page);
    done(&v);
}

static void selfplay_tags_are_reported_by_check(void **state)
{
    (void)state;
    char *dir = temp_dir();
    struct run plain = run(NULL, "selfplay", "--players", "2", "--rounds", "1", "--seed", "5");
    char *old = getenv("SOURCE_DATE_EPOCH") ? strdup(getenv("SOURCE_DATE_EPOCH")) : NULL;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    struct run tagged = run(NULL, "selfplay", "--players", "2", "--rounds", "1", "--seed", "5", "--tags", "--out", dir);
    if (old) setenv("SOURCE_DATE_EPOCH", old, 1), free(old);
    else unsetenv("SOURCE_DATE_EPOCH");
    assert_int_equal(tagged.status, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/match-000001.mtr", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = slurp(f);
    fclose(f);
    assert_has(text, "# [Date \"2023.11.14\"]\n# [Round \"1\"]\n# [Player \"p1\" \"mtref greedy\"]\n");
    /* without the tags and the Result line, the same record byte for byte */
    const char *first_end = strchr(text, '\n') + 1;
    const char *body = strstr(text, "\nplayers") + 1;
    char *result = strstr(text, "# [Result ");
    assert_non_null(result);
    size_t head = (size_t)(first_end - text), rest = (size_t)(result - body);
    assert_int_equal(strlen(plain.out), head + rest);
    assert_memory_equal(plain.out, text, head);
    assert_memory_equal(plain.out + head, body, rest);
    free(text);
    struct run r = run(NULL, "check", "--json", path);
    assert_has(r.out, "\"tags\":{\"event\":\"mtref selfplay --seed 5\",\"site\":\"?\",\"date\":\"2023.11.14\","
                      "\"round\":\"1\",\"result\":\"");
    assert_has(r.out, "\"players\":{\"p1\":\"mtref greedy\",\"p2\":\"mtref greedy\"}}");
    done(&r), done(&plain), done(&tagged);
    r = run(NULL, "selfplay", "--out", "/no/such/dir");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--out: '/no/such/dir' is not a directory");
    done(&r);
    remove_dir(dir);
}

/* selfplay --out on several threads writes the files of one thread, byte for byte,
 * and leaves no temporary file behind. */
static void selfplay_out_on_threads_writes_the_files_of_one_thread(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char one[128], many[128], cmd[512];
    snprintf(one, sizeof one, "%s/one", dir);
    snprintf(many, sizeof many, "%s/many", dir);
    assert_int_equal(mkdir(one, 0700), 0);
    assert_int_equal(mkdir(many, 0700), 0);
    struct run r = run(NULL, "selfplay", "--players", "3", "--games", "21", "--seed", "9", "--jobs", "1", "--out", one);
    assert_int_equal(r.status, 0);
    done(&r);
    r = run(NULL, "selfplay", "--players", "3", "--games", "21", "--seed", "9", "--jobs", "3", "--out", many);
    assert_int_equal(r.status, 0);
    done(&r);
    snprintf(cmd, sizeof cmd, "diff -r %s %s >/dev/null && test $(ls -A %s | wc -l) -eq 21 && "
             "test -f %s/match-000021.mtr", one, many, many, many);
    assert_int_equal(system(cmd), 0);
    /* and check over the directory on threads says what it says on one */
    struct run a = run(NULL, "check", "--jobs", "1", many, one);
    struct run b = run(NULL, "check", "--jobs", "3", many, one);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    assert_has(b.out, "/many/match-000021.mtr: ok, ");
    done(&a), done(&b);
    remove_dir(dir);
}

/* check on several threads over files and a directory, under --rules too: the
 * output of one thread byte for byte, in the same order, each verdict naming its
 * own file and the true line (a broken record, one that cannot be read, one cut
 * short, an empty one). */
static void check_on_threads_over_files_says_what_one_thread_says(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char sub[128], cmd[512];
    snprintf(sub, sizeof sub, "%s/club", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    struct run r = run(NULL, "selfplay", "--players", "3", "--games", "12", "--seed", "4", "--out", sub);
    assert_int_equal(r.status, 0);
    done(&r);
    /* match 5 broken at its line 40, match 8 cut short, a stream of many matches */
    snprintf(cmd, sizeof cmd, "cd %s && sed -i '40s/.*/p1 play 12-12 mex/' match-000005.mtr && "
             "head -c 3000 match-000008.mtr > m8 && mv m8 match-000008.mtr && : > empty.mtr && "
             "cat match-0000*.mtr > ../stream.mtr", sub);
    assert_int_equal(system(cmd), 0);
    r = run(NULL, "selfplay", "--players", "4", "--games", "40", "--seed", "6", "--rules", "double-blank-50");
    assert_int_equal(r.status, 0);
    write_file(dir, "ruled.mtr", r.out);
    done(&r);
    char stream[160], missing[160], ruled[160];
    snprintf(stream, sizeof stream, "%s/stream.mtr", dir);
    snprintf(missing, sizeof missing, "%s/missing.mtr", dir);
    snprintf(ruled, sizeof ruled, "%s/ruled.mtr", dir);
    static const char *const modes[][3] = {{"--quiet", "--json", NULL}, {"--require-complete", NULL, NULL},
                                           {"--rules", "double-blank-50", NULL}, {"--json", "--rules", "elimination-100"},
                                           {"--summary", "--json", NULL}, {"--summary", "--rules", "double-blank-50"}};
    for (int m = -1; m < 6; m++) {
        const char *a = m >= 0 ? modes[m][0] : "--json", *b = m >= 0 && modes[m][1] ? modes[m][1] : "--json";
        const char *c = m >= 0 && modes[m][2] ? modes[m][2] : "--json";
        if (m < 0) a = b = c = "--summary";      /* --summary: each thread's figures added up in order */
        struct run one = run(NULL, "check", "--jobs", "1", a, b, c, sub, stream, missing, ruled, "-");
        struct run many = run(NULL, "check", "--jobs", "3", a, b, c, sub, stream, missing, ruled, "-");
        assert_int_equal(one.status, many.status);
        assert_string_equal(one.out, many.out);
        assert_true(one.status > 0);
        done(&one), done(&many);
    }
    r = run(NULL, "check", "--jobs", "2", sub, stream, missing, ruled);
    assert_has(r.out, "/club/match-000005.mtr:40: ");
    assert_has(r.out, "/club/match-000008.mtr: ok, incomplete");
    assert_has(r.out, "missing.mtr: error: No such file or directory");
    assert_has(r.out, "/ruled.mtr: ok, 40 matches, last: ");
    assert_has(r.out, "/club/match-000004.mtr: ok, ");
    /* the stream's rejected line is the broken match's line 40, counted through */
    long before = 0;
    for (int i = 1; i <= 4; i++) {
        char path[200];
        snprintf(path, sizeof path, "%s/match-%06d.mtr", sub, i);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        char *text = slurp(f);
        fclose(f);
        for (char *p = text; *p; p++) before += *p == '\n';
        free(text);
    }
    char line[64];
    snprintf(line, sizeof line, "/stream.mtr:%ld: ", before + 40);
    assert_has(r.out, line);
    done(&r);
    remove_dir(dir);
}

/* A file name is escaped wherever check prints it: in the summary's longest round and
 * the verdict of an incomplete file too, so a name with a newline cannot forge a line. */
static void the_summary_escapes_the_file_of_the_longest_round(void **state)
{
    (void)state;
    char *dir = temp_dir();
    struct run r = run(NULL, "selfplay", "--players", "2", "--games", "1", "--seed", "4", "--rounds", "1");
    assert_int_equal(r.status, 0);
    write_file(dir, "a\nb.mtr", r.out);
    done(&r);
    char path[256], want[300];
    snprintf(path, sizeof path, "%s/a\nb.mtr", dir);
    snprintf(want, sizeof want, "ended at %s/a\\nb.mtr:", dir);
    for (int jobs = 1; jobs <= 2; jobs++) {
        r = run(NULL, "check", "--summary", "--jobs", jobs == 1 ? "1" : "2", path);
        assert_int_equal(r.status, 0);
        assert_has(r.out, want);
        done(&r);
    }
    write_file(dir, "c\nd.mtr", "");
    snprintf(path, sizeof path, "%s/c\nd.mtr", dir);
    snprintf(want, sizeof want, "%s/c\\nd.mtr: incomplete: no match ended\n", dir);
    r = run(NULL, "check", "--require-complete", path);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, want);
    done(&r);
    remove_dir(dir);
}

/* The standard input named twice: what the second `-` would read depends on where the
 * first stopped (and on --jobs), so check refuses it before reading anything. */
static void check_refuses_the_standard_input_named_twice(void **state)
{
    (void)state;
    for (int jobs = 1; jobs <= 2; jobs++) {
        struct run r = run("players a b\n", "check", "--jobs", jobs == 1 ? "1" : "2", "-", "-");
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_has(r.err, "'-' (the standard input) is named twice");
        done(&r);
    }
    struct run r = run("players a b\n", "check", "-");
    assert_int_equal(r.status, 0);
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_option_typo_suggests_the_nearest_option),
        cmocka_unit_test(an_option_of_another_subcommand_is_refused_naming_it),
        cmocka_unit_test(a_bad_count_names_the_value_and_the_range),
        cmocka_unit_test(every_option_takes_its_value_after_an_equals_sign),
        cmocka_unit_test(help_is_per_subcommand_with_defaults),
        cmocka_unit_test(version_short_and_long_name_lua),
        cmocka_unit_test(a_mistyped_subcommand_is_suggested),
        cmocka_unit_test(a_rules_name_typo_suggests_the_nearest_file),
        cmocka_unit_test(a_rules_path_claims_no_search_and_a_directory_is_named),
        cmocka_unit_test(rules_without_a_name_lists_the_search_path),
        cmocka_unit_test(rules_names_every_files_hook_in_load_order),
        cmocka_unit_test(rules_name_finds_a_file_in_the_current_directory),
        cmocka_unit_test(check_walks_a_directory_and_sums_it_up),
        cmocka_unit_test(quiet_answers_only_errors_events_and_queries),
        cmocka_unit_test(a_record_holds_the_accepted_lines_and_check_accepts_it),
        cmocka_unit_test(keyboard_words_from_a_pipe_are_refused),
        cmocka_unit_test(R23_unseeded_legal_offers_no_bare_draw),
        cmocka_unit_test(refusals_give_their_reason),
        cmocka_unit_test(selfplay_tags_are_reported_by_check),
        cmocka_unit_test(selfplay_out_on_threads_writes_the_files_of_one_thread),
        cmocka_unit_test(check_on_threads_over_files_says_what_one_thread_says),
        cmocka_unit_test(the_summary_escapes_the_file_of_the_longest_round),
        cmocka_unit_test(check_refuses_the_standard_input_named_twice),
        cmocka_unit_test(the_manual_names_the_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
