/* Test support for the tests that run the mtref binary itself: one run, its exit
 * status and its output. Header only: each test program includes it once. */
#ifndef MTREF_RUNBIN_H
#define MTREF_RUNBIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The binary under test (ctest sets MTREF_BINARY). */
static inline const char *rb_binary(void)
{
    const char *path = getenv("MTREF_BINARY");
    if (!path) fail_msg("MTREF_BINARY is not set (run the tests through ctest)");
    return path;
}

/* A path under tests/ (MTREF_TEST_DIR) in buf. */
static inline const char *rb_test_path(const char *relative, char *buf, size_t size)
{
    const char *dir = getenv("MTREF_TEST_DIR");
    snprintf(buf, size, "%s/%s", dir ? dir : ".", relative);
    return buf;
}

static inline char *rb_slurp(FILE *f)
{
    fflush(f);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    size_t got = fread(text, 1, (size_t)size, f);
    text[got] = '\0';
    return text;
}

/* Runs mtref with args (NULL-terminated, without the program name) and stdin from
 * /dev/null; returns the exit status, stdout in *out (malloc'd), stderr in *err (may be
 * NULL: thrown away). */
static inline int rb_run(const char *const args[], char **out, char **err)
{
    FILE *o = tmpfile(), *e = tmpfile();
    assert_non_null(o);
    assert_non_null(e);
    const char *argv[64];
    int n = 0;
    argv[n++] = rb_binary();
    for (int i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *null = fopen("/dev/null", "r");
        if (null) dup2(fileno(null), 0);
        dup2(fileno(o), 1);
        dup2(fileno(e), 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    fseek(o, 0, SEEK_END);
    fseek(e, 0, SEEK_END);
    *out = rb_slurp(o);
    char *errors = rb_slurp(e);
    if (err) *err = errors;
    else free(errors);
    fclose(o);
    fclose(e);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#endif
