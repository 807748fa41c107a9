/* Support for the end-to-end tests of mtref match (matchutil.h). */
#define _DEFAULT_SOURCE 1
#include "testutil.h"
#include "matchutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *mtref, *testbot;
char mark[64];
char tmp[256];

int mu_setup(void **state)
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

int mu_teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs a shell command line; its stdout (malloc'd) in *out; returns the exit status. */
int sh(const char *cmd, char **out)
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
int marked_processes(void)
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

void wait_no_marked(int ms)
{
    for (int i = 0; i < ms / 20 && marked_processes(); i++) usleep(20000);
    assert_int_equal(marked_processes(), 0);
}

int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* The records of a run, their comment lines left out (they name the bots' commands). */
char *records_of(const char *dir)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && for f in %s/records/*.mtr; do echo \"== ${f##*/}\"; grep -v '^#' \"$f\"; done", tmp, dir);
    assert_int_equal(sh(cmd, &out), 0);
    return out;
}

/* Journal lines without what a clock measures, sorted. */
char *journal_of(const char *dir)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "cd %s && grep '\"event\":\"match\"' %s/results.jsonl | sed 's/,\"clock\":.*//' | sort", tmp, dir);
    assert_int_equal(sh(cmd, &out), 0);
    return out;
}
