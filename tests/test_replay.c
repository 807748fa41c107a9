/* mtref replay: driven through a pseudo-terminal as a person would (keys in, the table
 * redrawn), on a legal record and on one with an illegal line; without a terminal,
 * the table after every move. */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runbin.h"

struct terminal {
    int master;
    pid_t pid;
    char seen[1 << 17];     /* output since the last key */
    size_t len;
};

static void start(struct terminal *t, const char *record)
{
    t->master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(t->master >= 0);
    assert_int_equal(grantpt(t->master), 0);
    assert_int_equal(unlockpt(t->master), 0);
    const char *slave = ptsname(t->master);
    assert_non_null(slave);
    fflush(NULL);
    t->pid = fork();
    assert_true(t->pid >= 0);
    if (t->pid == 0) {
        setsid();
        int fd = open(slave, O_RDWR);
        if (fd < 0) _exit(126);
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        close(t->master);
        execl(rb_binary(), rb_binary(), "replay", record, (char *)NULL);
        _exit(127);
    }
    t->len = 0;
}

/* Reads until want has been printed since the last key, for at most 20 seconds (a
 * bound against a hang, not a measure of speed). */
static void expect(struct terminal *t, const char *want)
{
    time_t deadline = time(NULL) + 20;
    while (!strstr(t->seen, want)) {
        if (time(NULL) > deadline) fail_msg("replay never printed '%s'; it printed:\n%s", want, t->seen);
        struct pollfd p = {t->master, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0) continue;
        if (t->len + 4096 >= sizeof t->seen) t->len = 0;   /* keep the tail only */
        ssize_t n = read(t->master, t->seen + t->len, 4095);
        if (n <= 0) fail_msg("replay ended before printing '%s'; it printed:\n%s", want, t->seen);
        t->len += (size_t)n;
        t->seen[t->len] = '\0';
    }
}

static void key(struct terminal *t, const char *keys)
{
    t->len = 0;
    t->seen[0] = '\0';
    assert_int_equal(write(t->master, keys, strlen(keys)), (ssize_t)strlen(keys));
}

static int finish(struct terminal *t)
{
    int status = 0;
    /* drain what it prints as it quits, so it never blocks on a full terminal */
    for (int i = 0; i < 100; i++) {
        char buf[4096];
        struct pollfd p = {t->master, POLLIN, 0};
        if (waitpid(t->pid, &status, WNOHANG) == t->pid) {
            close(t->master);
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        if (poll(&p, 1, 100) > 0 && read(t->master, buf, sizeof buf) <= 0) break;
    }
    waitpid(t->pid, &status, 0);
    close(t->master);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static struct terminal term;

/* Forward, back, to a line, to the end, and out. */
static void test_steps_through_a_record(void **state)
{
    (void)state;
    char path[4096];
    start(&term, rb_test_path("svg/double-duty.mtr", path, sizeof path));
    expect(&term, "1 of 18, round 1, line 8");
    key(&term, "n");
    expect(&term, "line 9: p1 play 0-12 p1");
    expect(&term, "train p1               open  0        | 12-0");
    key(&term, "g19\r");
    expect(&term, "line 19: p1 play 8-8 mex");
    expect(&term, "uncovered double 8-8 on the mex train");          /* [R14] */
    key(&term, "p");
    expect(&term, "line 18: p1 draw 8-8");
    key(&term, "\033[C");                                             /* right arrow */
    expect(&term, "line 19: p1 play 8-8 mex");
    key(&term, "\033[F");                                             /* End */
    expect(&term, "line 25: p1 play 4-9 p1");
    expect(&term, "The end of the record");
    key(&term, "\033[H");                                             /* Home */
    expect(&term, "1 of 18");
    key(&term, "q");
    assert_int_equal(finish(&term), 0);
}

/* [R15] an illegal line: replay stops there and says why. */
static void test_stops_at_an_illegal_line(void **state)
{
    (void)state;
    size_t len;
    char *record = tu_read_test_file("svg/double-duty.mtr", &len);
    assert_non_null(record);
    char *cut = strstr(record, "p1 draw 10-12\n");
    assert_non_null(cut);
    *cut = '\0';
    FILE *f = fopen("test_replay_illegal.mtr", "w");
    assert_non_null(f);
    fprintf(f, "%sp1 play 1-5 p1\np1 pass\n", record);
    fclose(f);
    free(record);
    start(&term, "test_replay_illegal.mtr");
    expect(&term, "1 of ");
    key(&term, "\033[F");
    expect(&term, "error line 20: must-cover");
    expect(&term, "This line breaks the rules");
    key(&term, "n");
    expect(&term, "(no move after this one)");
    key(&term, "q");
    assert_int_equal(finish(&term), 1);        /* the record's verdict: illegal */
    remove("test_replay_illegal.mtr");
}

/* Rounds: r N jumps to the start of round N, ] and [ step by round. */
static void test_jumps_to_a_round(void **state)
{
    (void)state;
    const char *args[] = {"selfplay", "--players", "2", "--rounds", "7", "--seed", "4", NULL};
    char *out;
    assert_int_equal(rb_run(args, &out, NULL), 0);
    FILE *f = fopen("test_replay_rounds.mtr", "w");
    assert_non_null(f);
    fputs(out, f);
    fclose(f);
    free(out);
    start(&term, "test_replay_rounds.mtr");
    expect(&term, ", round 1, line");
    key(&term, "r3\r");
    expect(&term, ", round 3, line");
    expect(&term, "engine 10-10");
    key(&term, "]");
    expect(&term, ", round 4, line");
    key(&term, "[");
    expect(&term, ", round 3, line");
    key(&term, "q");
    assert_int_equal(finish(&term), 0);
    remove("test_replay_rounds.mtr");
}

/* Without a terminal: the table after every move, for scripts. */
static void test_without_a_terminal(void **state)
{
    (void)state;
    char path[4096];
    const char *args[] = {"replay", rb_test_path("svg/double-duty.mtr", path, sizeof path), NULL};
    char *out;
    assert_int_equal(rb_run(args, &out, NULL), 0);
    int tables = 0;
    for (const char *p = out; (p = strstr(p, "round 1 of 1, engine 12-12")) != NULL; p++) tables++;
    assert_int_equal(tables, 17);              /* lines 9 to 25 are the moves */
    assert_null(strstr(out, "\033["));         /* no terminal codes in a script's output */
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_through_a_record),
        cmocka_unit_test(test_stops_at_an_illegal_line),
        cmocka_unit_test(test_jumps_to_a_round),
        cmocka_unit_test(test_without_a_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
