/* Test support for the sandbox tests (see sandboxutil.h). */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "sandboxutil.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "luarules.h"
#include "referee.h"

static char path[128];

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "sandbox test: a rules file hung the referee\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(1);
}

int sbu_setup(void **state)
{
    (void)state;
    signal(SIGALRM, on_alarm);
    alarm(60);
    path[0] = '\0';
    return 0;
}

int sbu_teardown(void **state)
{
    (void)state;
    alarm(0);
    sbu_cleanup();
    return 0;
}

void sbu_cleanup(void)
{
    if (path[0]) unlink(path);
    path[0] = '\0';
}

const char *sbu_path(void) { return path; }

const char *sbu_write_bytes(const char *source, size_t len)
{
    sbu_cleanup();
    strcpy(path, "/tmp/mtref-sandbox-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(source, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

const char *sbu_write(const char *source) { return sbu_write_bytes(source, strlen(source)); }

struct sbu_outcome sbu_load(void)
{
    struct sbu_outcome o = {0};
    struct luarules *bridge = luarules_new();
    assert_non_null(bridge);
    struct rules_loader loader = luarules_loader(bridge);
    struct referee *ref = malloc(sizeof *ref);
    assert_non_null(ref);
    const char *files[] = {path};
    o.loaded = referee_init(ref, &loader, files, 1, o.err);
    referee_free(ref);
    free(ref);
    luarules_free(bridge);
    return o;
}

void sbu_assert_message(const char *message, int line, const char *needle)
{
    size_t n = strlen(path);
    if (strncmp(message, path, n) != 0) fail_msg("'%s' does not start with the file %s", message, path);
    const char *p = message + n;
    if (line == SBU_MAYBE_LINE) line = p[0] == ':' && p[1] >= '0' && p[1] <= '9' ? SBU_ANY_LINE : 0;
    if (line != 0) {
        if (*p != ':' || !(p[1] >= '0' && p[1] <= '9')) fail_msg("'%s': no line number", message);
        int got = atoi(p + 1);
        if (line > 0 && got != line) fail_msg("'%s': line %d, expected %d", message, got, line);
        p++;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (strncmp(p, ": ", 2) != 0) fail_msg("'%s' is not file:line: message", message);
    if (needle && !strstr(message, needle)) fail_msg("'%s' does not say '%s'", message, needle);
    if (strchr(message, '\n')) fail_msg("'%s' spans lines", message);
}

void sbu_refused(const char *source, int line, const char *needle)
{
    sbu_write(source);
    struct sbu_outcome o = sbu_load();
    if (o.loaded) fail_msg("a hostile file loaded:\n%s", source);
    sbu_assert_message(o.err, line, needle);
}

void sbu_harmless(const char *source)
{
    sbu_write(source);
    struct sbu_outcome o = sbu_load();
    if (!o.loaded) fail_msg("did not load: %s", o.err);
}

int sbu_run_mtref(const char *const args[], const char *input, char **out)
{
    const char *binary = getenv("MTREF_BINARY");
    if (!binary) fail_msg("MTREF_BINARY is not set (run under ctest)");
    char in_path[] = "/tmp/mtref-sandbox-in-XXXXXX", out_path[] = "/tmp/mtref-sandbox-out-XXXXXX";
    int in = mkstemp(in_path), outfd = mkstemp(out_path);
    assert_true(in >= 0 && outfd >= 0);
    size_t len = input ? strlen(input) : 0;
    assert_int_equal(write(in, input ? input : "", len), (ssize_t)len);
    lseek(in, 0, SEEK_SET);
    const char *argv[64];
    int argc = 0;
    argv[argc++] = binary;
    for (int i = 0; args[i] && argc < 63; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(in, 0);
        dup2(outfd, 1);
        dup2(outfd, 2);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(in);
    unlink(in_path);
    FILE *f = fdopen(outfd, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc((size_t)size + 1);
    assert_non_null(*out);
    size_t got = fread(*out, 1, (size_t)size, f);
    (*out)[got] = '\0';
    fclose(f);
    unlink(out_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
