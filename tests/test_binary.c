/* The mtref binary itself, byte for byte (MTREF_BINARY): text mode, check's verdict lines, selfplay's
 * options, exit statuses, --help, write errors, and the rules a self-played record
 * names. Output is compared byte for byte. */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct run {
    const char *input;       /* standard input (NULL: empty) */
    const char *out_path;    /* standard output to this file (NULL: captured) */
    const char *cwd;         /* working directory (NULL: the test's) */
    long fsize_limit;        /* > 0: RLIMIT_FSIZE in bytes, SIGXFSZ ignored (a full disk) */
    long nofile_limit;       /* > 0: RLIMIT_NOFILE (open descriptors) */
    int status;              /* exit status; 128 + N for a signal */
    char *out, *err;         /* captured, NUL-terminated; free with done() */
};

static char *slurp(int fd)
{
    size_t cap = 1 << 12, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    lseek(fd, 0, SEEK_SET);
    ssize_t got;
    while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
        n += (size_t)got;
        if (cap - n < 2) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    buf[n] = '\0';
    return buf;
}

static int temp_fd(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    int fd = dup(fileno(f));      /* the FILE goes; the descriptor stays */
    fclose(f);
    return fd;
}

/* Runs MTREF_BINARY with argv (argv[0] is "mtref", NULL-terminated) as r says. */
static void run(struct run *r, const char *const argv[])
{
    const char *binary = getenv("MTREF_BINARY");
    if (!binary) fail_msg("MTREF_BINARY is not set (ctest sets it)");
    int in = temp_fd(), out = temp_fd(), err = temp_fd();
    if (r->input) assert_int_equal(write(in, r->input, strlen(r->input)), (ssize_t)strlen(r->input));
    lseek(in, 0, SEEK_SET);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int to = r->out_path ? open(r->out_path, O_WRONLY) : out;
        if (to < 0 || (r->cwd && chdir(r->cwd) != 0)) _exit(126);
        if (r->fsize_limit > 0) {
            struct rlimit lim = {(rlim_t)r->fsize_limit, (rlim_t)r->fsize_limit};
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &lim);
        }
        if (r->nofile_limit > 0) {
            struct rlimit lim = {(rlim_t)r->nofile_limit, (rlim_t)r->nofile_limit};
            setrlimit(RLIMIT_NOFILE, &lim);
        }
        dup2(in, 0);
        dup2(to, 1);
        dup2(err, 2);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    int wstatus;
    assert_int_equal(waitpid(pid, &wstatus, 0), pid);
    r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    r->out = slurp(out);
    r->err = slurp(err);
    close(in);
    close(out);
    close(err);
}

static void done(struct run *r)
{
    free(r->out);
    free(r->err);
}

#define ARGS(...) ((const char *const[]){"mtref", __VA_ARGS__, NULL})
#define RULES_TOO_MANY (RULES_MAX_FILES + 1)

/* A fresh directory under /tmp, its path in buf (PATH_MAX bytes). */
static const char *temp_dir(char *buf)
{
    strcpy(buf, "/tmp/mtref-cli-XXXXXX");
    assert_non_null(mkdtemp(buf));
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
        else unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* ---- the referee in text mode ---- */

static const char tour[] =
    "players ana bob\nrounds 1\nseed 42\nana play 7-12 ana\nbob play 8-12 bob\nana play 7-11 ana\n"
    "bob play 8-8 bob\nbob play 6-7 mex\nshow\nlegal\n";

static void text_mode_answers_each_line_and_draws_the_table(void **state)
{
    (void)state;
    struct run r = {.input = tour};
    run(&r, ARGS("-k"));
    assert_string_equal(r.out,
        "ok\nok\nok\nok\nok\nok\nok\n"
        "error line 8: must-cover: the double 8-8 on the bob train must be covered [R14]\n"
        "  legal: bob play 3-8 bob, bob play 6-8 bob, bob play 7-8 bob, bob play 8-9 bob\n"
        "round 1 of 1, engine 12-12, rules: canonical\n"
        "  bob to play, boneyard 60\n"
        "  train ana              open 11        | 12-7 7-11\n"
        "  train bob              open  8        | 12-8 8-8\n"
        "  train mex              open 12        |\n"
        "  uncovered double 8-8 on the bob train\n"
        "  hand  ana              13 tiles | 0-12 1-5 1-9 2-4 2-10 2-11 2-12 3-7 4-7 5-8 6-6 9-10 10-11\n"
        "  hand  bob              13 tiles | 0-0 0-6 1-11 2-3 3-3 3-8 4-10 5-6 6-7 6-8 7-8 7-9 8-9\n"
        "  totals: ana 0, bob 0\n"
        "ok legal: bob play 3-8 bob, bob play 6-8 bob, bob play 7-8 bob, bob play 8-9 bob\n");
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 1);
    done(&r);
}

static void without_k_a_pipe_stops_at_the_first_rejected_line(void **state)
{
    (void)state;
    struct run r = {.input = tour};
    run(&r, ARGS("-"));
    assert_string_equal(r.out,
        "ok\nok\nok\nok\nok\nok\nok\n"
        "error line 8: must-cover: the double 8-8 on the bob train must be covered [R14]\n"
        "  legal: bob play 3-8 bob, bob play 6-8 bob, bob play 7-8 bob, bob play 8-9 bob\n");
    assert_int_equal(r.status, 1);
    done(&r);
}

static void exit_status_2_for_syntax_and_0_for_an_unfinished_legal_record(void **state)
{
    (void)state;
    struct run r = {.input = "players ana bob\nana plya 1-2 ana\n"};
    run(&r, ARGS("--json"));
    assert_string_equal(r.out, "{\"line\":1,\"ok\":true}\n"
                               "{\"line\":2,\"ok\":false,\"error\":\"syntax\",\"message\":\"unknown command 'plya'\"}\n");
    assert_int_equal(r.status, 2);
    done(&r);
    struct run ok = {.input = "players ana bob\n# a comment\n\nrounds 7\n"};
    run(&ok, ARGS("--json"));
    assert_string_equal(ok.out, "{\"line\":1,\"ok\":true}\n{\"line\":4,\"ok\":true}\n");
    assert_int_equal(ok.status, 0);
    done(&ok);
}

static void an_unreadable_file_and_a_bad_rules_file_exit_2(void **state)
{
    (void)state;
    struct run r = {0};
    run(&r, ARGS("/nonexistent/x.mtr"));
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "mtref: /nonexistent/x.mtr: No such file or directory\n");
    assert_int_equal(r.status, 2);
    done(&r);
    struct run bad = {.input = "players 2\n"};
    run(&bad, ARGS("--rules", "no-such-rule"));
    /* in text mode a start-up rules error goes to stderr */
    assert_non_null(strstr(bad.err, "mtref: rules: no-such-rule: no rules file of that name on the search path"));
    assert_int_equal(bad.status, 2);
    done(&bad);
}

/* ---- --help, --version, usage errors ---- */

static void help_and_version_exit_0(void **state)
{
    (void)state;
    struct run r = {0};
    run(&r, ARGS("--help"));
    const char head[] = "usage: mtref [OPTIONS] [FILE]          referee protocol lines from FILE or stdin\n";
    assert_int_equal(strncmp(r.out, head, sizeof head - 1), 0);
    assert_non_null(strstr(r.out, "\n  check "));
    assert_int_equal(r.status, 0);
    done(&r);
    const char *const subcommands[] = {"check", "selfplay", "rules"};
    for (int i = 0; i < 3; i++) {
        struct run s = {0};
        run(&s, ARGS(subcommands[i], "-h"));
        char want[64];
        snprintf(want, sizeof want, "usage: mtref %s ", subcommands[i]);
        assert_int_equal(strncmp(s.out, want, strlen(want)), 0);
        assert_int_equal(s.status, 0);
        done(&s);
    }
    struct run v = {0};
    run(&v, ARGS("--version"));
    assert_int_equal(strncmp(v.out, "mtref 0.", 8), 0);
    assert_non_null(strstr(v.out, " (Lua 5.4."));
    assert_int_equal(v.status, 0);
    done(&v);
}

static void usage_errors_exit_2_and_point_to_help(void **state)
{
    (void)state;
    struct run r = {0};
    run(&r, ARGS("--frobnicate"));
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "--frobnicate"));
    assert_non_null(strstr(r.err, "--help"));
    assert_int_equal(r.status, 2);
    done(&r);
    struct run c = {0};
    run(&c, ARGS("check"));
    assert_non_null(strstr(c.err, "check needs at least one FILE"));
    assert_int_equal(c.status, 2);
    done(&c);
    struct run s = {0};
    run(&s, ARGS("selfplay", "--bots", "greedy,clever"));
    assert_non_null(strstr(s.err, "--bots: 'greedy,clever' names a player that is not built in (random, greedy)"));
    assert_int_equal(s.status, 2);
    done(&s);
    struct run p = {0};
    run(&p, ARGS("selfplay", "--players", "9"));
    assert_string_equal(p.err, "mtref: selfplay: 9 players: these rules seat 2 to 8\n");
    assert_int_equal(p.status, 2);
    done(&p);
    struct run f = {0};
    run(&f, ARGS("selfplay", "game.mtr"));
    assert_non_null(strstr(f.err, "selfplay takes no FILE: 'game.mtr'"));
    assert_int_equal(f.status, 2);
    done(&f);
}

/* Every subcommand that takes --rules files refuses one past the limit in the same words. */
static void one_rules_file_too_many_is_refused_alike_by_every_subcommand(void **state)
{
    (void)state;
    static const char *const subcommands[] = {NULL, "check", "show", "replay", "selfplay", "match"};
    for (size_t k = 0; k < sizeof subcommands / sizeof subcommands[0]; k++) {
        const char *argv[RULES_TOO_MANY + 3];
        int n = 0;
        argv[n++] = "mtref";
        if (subcommands[k]) argv[n++] = subcommands[k];
        for (int i = 0; i < RULES_TOO_MANY; i++) argv[n++] = "--rules=double-blank-50";
        argv[n] = NULL;
        struct run r = {0};
        run(&r, argv);
        char want[200];
        snprintf(want, sizeof want, "mtref: too many --rules files (at most %d)\n(mtref %s%s--help lists the options)\n",
                 RULES_TOO_MANY - 1, subcommands[k] ? subcommands[k] : "", subcommands[k] ? " " : "");
        assert_string_equal(r.err, want);
        assert_string_equal(r.out, "");
        assert_int_equal(r.status, 2);
        done(&r);
    }
}

/* ---- selfplay and check ---- */

static const char seed5_head[] =
    "# mtref selfplay --seed 5, match 1\n"
    "players p1 p2\n"
    "rounds 1\n"
    "round 1\n"
    "deal p1 0-6 1-5 1-8 1-9 2-4 2-10 3-5 3-7 4-6 4-7 6-6 6-7 6-9 9-10 11-11\n";

static void selfplay_writes_the_same_bytes_for_the_same_options(void **state)
{
    (void)state;
    struct run a = {0}, b = {0};
    run(&a, ARGS("selfplay", "--players", "2", "--rounds", "1", "--seed", "5"));
    run(&b, ARGS("selfplay", "--seed", "5", "--rounds", "1", "--players", "2", "--games", "1", "--bots", "greedy"));
    assert_int_equal(strncmp(a.out, seed5_head, strlen(seed5_head)), 0);
    assert_string_equal(a.out, b.out);
    assert_int_equal(a.status, 0);
    struct run zero = {0};
    run(&zero, ARGS("selfplay", "--games", "0"));
    assert_string_equal(zero.out, "");
    assert_int_equal(zero.status, 0);
    done(&a);
    done(&b);
    done(&zero);
}

static void check_gives_one_verdict_line_per_file_and_the_worst_status(void **state)
{
    (void)state;
    char dir[PATH_MAX], legal[PATH_MAX], illegal[PATH_MAX], partial[PATH_MAX], two[PATH_MAX];
    temp_dir(dir);
    struct run sp = {0};
    run(&sp, ARGS("selfplay", "--players", "2", "--rounds", "1", "--seed", "5"));
    snprintf(legal, sizeof legal, "%s/legal.mtr", dir);
    write_file(legal, sp.out);
    snprintf(partial, sizeof partial, "%s/partial.mtr", dir);
    write_file(partial, seed5_head);
    snprintf(illegal, sizeof illegal, "%s/illegal.mtr", dir);
    write_file(illegal, "players ana bob\nrounds 1\nseed 42\nana play 7-12 ana\nbob play 8-12 bob\n"
                        "ana play 7-11 ana\nbob play 8-8 bob\nbob play 6-7 mex\n");
    struct run sp2 = {0};
    run(&sp2, ARGS("selfplay", "--players", "3", "--rounds", "1", "--seed", "9", "--games", "2"));
    snprintf(two, sizeof two, "%s/two.mtr", dir);
    write_file(two, sp2.out);
    struct run r = {.cwd = dir};
    run(&r, ARGS("check", "legal.mtr", "partial.mtr", "two.mtr", "illegal.mtr", "missing.mtr"));
    assert_string_equal(r.out,
        "legal.mtr: ok, p2 wins: p1 22, p2 0\n"
        "partial.mtr: ok, incomplete\n"
        "two.mtr: ok, 2 matches, last: p1 wins: p1 0, p2 36, p3 5\n"
        "illegal.mtr:8: must-cover: the double 8-8 on the bob train must be covered [R14]\n"
        "missing.mtr: error: No such file or directory\n");
    assert_int_equal(r.status, 2);
    done(&r);
    struct run j = {.cwd = dir};
    run(&j, ARGS("check", "--json", "legal.mtr", "illegal.mtr"));
    assert_string_equal(j.out,
        "{\"file\":\"legal.mtr\",\"ok\":true,\"status\":0,\"matches\":1,\"complete\":true,"
        "\"totals\":{\"p1\":22,\"p2\":0},\"winners\":[\"p2\"],\"draw\":false}\n"
        "{\"file\":\"illegal.mtr\",\"ok\":false,\"status\":1,\"line\":8,\"error\":\"must-cover\","
        "\"message\":\"the double 8-8 on the bob train must be covered\",\"rule\":\"R14\",\"matches\":0,"
        "\"complete\":false}\n");
    assert_int_equal(j.status, 1);
    done(&j);
    struct run ok = {.cwd = dir};
    run(&ok, ARGS("check", "legal.mtr"));
    assert_int_equal(ok.status, 0);
    done(&ok);
    done(&sp);
    done(&sp2);
    remove_tree(dir);
}

/* Each file is closed once its verdict is in, on threads too, where the last chunk
 * of a file (read by a worker) holds its descriptor: a directory of more files than
 * the process may hold open at once is checked whole. */
static void check_on_threads_holds_no_descriptor_after_a_verdict(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    temp_dir(dir);
    struct run sp = {0};
    run(&sp, ARGS("selfplay", "--players", "2", "--rounds", "1", "--games", "90", "--seed", "3", "--out", dir));
    assert_int_equal(sp.status, 0);
    done(&sp);
    struct run one = {.cwd = dir}, many = {.cwd = dir, .nofile_limit = 40};
    run(&one, ARGS("check", "--jobs", "1", "."));
    run(&many, ARGS("check", "--jobs", "2", "."));
    assert_int_equal(one.status, 0);
    assert_int_equal(many.status, 0);
    assert_string_equal(one.out, many.out);
    assert_null(strstr(many.out, "error"));
    done(&one);
    done(&many);
    remove_tree(dir);
}

/* ---- write errors: exit 2 with a message, never a silent success ---- */

static void a_full_standard_output_exits_2_with_a_message(void **state)
{
    (void)state;
    struct run sp = {.out_path = "/dev/full"};
    run(&sp, ARGS("selfplay", "--games", "3"));
    assert_string_equal(sp.err, "mtref: selfplay: cannot write the records: No space left on device\n");
    assert_int_equal(sp.status, 2);
    done(&sp);
    char dir[PATH_MAX], file[PATH_MAX];
    temp_dir(dir);
    snprintf(file, sizeof file, "%s/m.mtr", dir);
    struct run rec = {0};
    run(&rec, ARGS("selfplay", "--players", "2", "--rounds", "1"));
    write_file(file, rec.out);
    struct run ck = {.out_path = "/dev/full"};
    run(&ck, ARGS("check", file, file));
    assert_string_equal(ck.err, "mtref: check: cannot write the verdicts: No space left on device\n");
    assert_int_equal(ck.status, 2);
    done(&ck);
    struct run ref = {.out_path = "/dev/full"};
    run(&ref, ARGS("--json", file));
    assert_non_null(strstr(ref.err, "mtref: cannot write the output"));
    assert_int_equal(ref.status, 2);
    done(&ref);
    struct run help = {.out_path = "/dev/full"};
    run(&help, ARGS("--help"));
    assert_non_null(strstr(help.err, "mtref: cannot write the output"));
    assert_int_equal(help.status, 2);
    done(&help);
    done(&rec);
    remove_tree(dir);
}

static void a_full_disk_under_selfplay_out_leaves_no_cut_record(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    temp_dir(dir);
    struct run r = {.fsize_limit = 4096};     /* every record is longer than this */
    run(&r, ARGS("selfplay", "--games", "3", "--out", dir));
    assert_string_equal(r.err, "mtref: selfplay: cannot write the record: File too large\n");
    assert_int_equal(r.status, 2);
    assert_int_equal(count_entries(dir), 0);   /* neither a cut match-000001.mtr nor its temporary */
    done(&r);
    struct run ok = {0};
    run(&ok, ARGS("selfplay", "--games", "2", "--out", dir));
    assert_int_equal(ok.status, 0);
    assert_int_equal(count_entries(dir), 2);
    done(&ok);
    struct run missing = {0};
    run(&missing, ARGS("selfplay", "--out", "/nonexistent/dir"));
    assert_int_equal(missing.status, 2);
    assert_non_null(strstr(missing.err, "--out: '/nonexistent/dir' is not a directory (it must exist)"));
    done(&missing);
    remove_tree(dir);
}

/* ---- the rules a self-played record names ---- */

static void selfplay_refuses_rules_spellings_a_record_cannot_hold(void **state)
{
    (void)state;
    const char *const bad[] = {"./sp ace/x.lua", "./a#b.lua", "a\nb", "tab\tbed.lua"};
    for (int i = 0; i < 4; i++) {
        struct run r = {0};
        run(&r, ARGS("selfplay", "--rules", bad[i]));
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_non_null(strstr(r.err, "one word, without blanks, tabs, '#' or control characters"));
        assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);   /* one line */
        done(&r);
    }
}

static char *first_rules_line(const char *record)
{
    const char *p = strstr(record, "\nrules ");
    assert_non_null(p);
    p++;
    size_t n = strcspn(p, "\n");
    char *line = malloc(n + 1);
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

static void a_self_played_record_never_depends_on_the_directory_it_was_written_from(void **state)
{
    (void)state;
    const char *rules_path = getenv("MTREF_RULES_PATH");
    assert_non_null(rules_path);
    char dir[PATH_MAX], shipped[PATH_MAX], own[PATH_MAX];
    temp_dir(dir);
    snprintf(own, sizeof own, "%s/own", dir);
    assert_int_equal(mkdir(own, 0700), 0);
    snprintf(own, sizeof own, "%s/own/house.lua", dir);
    write_file(own, "return {tile_value = function(a, b) return a + b + 1 end}\n");
    /* a name on the rules path: the name */
    struct run name = {0};
    run(&name, ARGS("selfplay", "--rules", "double-blank-50", "--rounds", "1"));
    char *line = first_rules_line(name.out);
    assert_string_equal(line, "rules double-blank-50");
    free(line);
    /* a path to the very file the name finds there: the name too */
    snprintf(shipped, sizeof shipped, "%s/double-blank-50.lua", rules_path);
    struct run path = {0};
    run(&path, ARGS("selfplay", "--rules", shipped, "--rounds", "1"));
    line = first_rules_line(path.out);
    assert_string_equal(line, "rules double-blank-50");
    free(line);
    assert_string_equal(path.out, name.out);
    /* another absolute path: written as it is, and checked from anywhere */
    struct run abs = {0};
    run(&abs, ARGS("selfplay", "--rules", own, "--rounds", "1", "--players", "2"));
    assert_int_equal(abs.status, 0);
    line = first_rules_line(abs.out);
    char want[PATH_MAX + 8];
    snprintf(want, sizeof want, "rules %s", own);
    assert_string_equal(line, want);
    free(line);
    struct run ck = {.input = abs.out, .cwd = "/"};
    run(&ck, ARGS("check", "-"));
    assert_int_equal(ck.status, 0);
    done(&ck);
    /* a relative path: refused, from the directory where it would have worked */
    struct run rel = {.cwd = dir};
    run(&rel, ARGS("selfplay", "--rules", "own/house.lua"));
    assert_int_equal(rel.status, 2);
    assert_string_equal(rel.out, "");
    assert_non_null(strstr(rel.err, "found relative to the working directory"));
    done(&rel);
    char own_dir[PATH_MAX];
    snprintf(own_dir, sizeof own_dir, "%s/own", dir);
    struct run cwd_name = {.cwd = own_dir};
    run(&cwd_name, ARGS("selfplay", "--rules", "house.lua"));   /* found in the working directory only */
    assert_int_equal(cwd_name.status, 2);
    assert_non_null(strstr(cwd_name.err, "found relative to the working directory"));
    done(&cwd_name);
    done(&name);
    done(&path);
    done(&abs);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_mode_answers_each_line_and_draws_the_table),
        cmocka_unit_test(without_k_a_pipe_stops_at_the_first_rejected_line),
        cmocka_unit_test(exit_status_2_for_syntax_and_0_for_an_unfinished_legal_record),
        cmocka_unit_test(an_unreadable_file_and_a_bad_rules_file_exit_2),
        cmocka_unit_test(help_and_version_exit_0),
        cmocka_unit_test(usage_errors_exit_2_and_point_to_help),
        cmocka_unit_test(one_rules_file_too_many_is_refused_alike_by_every_subcommand),
        cmocka_unit_test(selfplay_writes_the_same_bytes_for_the_same_options),
        cmocka_unit_test(check_gives_one_verdict_line_per_file_and_the_worst_status),
        cmocka_unit_test(check_on_threads_holds_no_descriptor_after_a_verdict),
        cmocka_unit_test(a_full_standard_output_exits_2_with_a_message),
        cmocka_unit_test(a_full_disk_under_selfplay_out_leaves_no_cut_record),
        cmocka_unit_test(selfplay_refuses_rules_spellings_a_record_cannot_hold),
        cmocka_unit_test(a_self_played_record_never_depends_on_the_directory_it_was_written_from),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
