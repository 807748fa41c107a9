/* Bot processes: spawn, exit watch, teardown. The only code that forks and signals. */
#define _DEFAULT_SOURCE 1      /* syscall(), for close_range where the C library lacks it */
#define _XOPEN_SOURCE 700      /* nftw */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <ftw.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "alloc.h"
#include "clock.h"
#include "pipe.h"

extern char **environ;

static int sigchld_pipe[2] = {-1, -1};

static void on_sigchld(int sig)
{
    (void)sig;
    int saved = errno;
    if (sigchld_pipe[1] >= 0) {
        ssize_t ignored = write(sigchld_pipe[1], "", 1);   /* a full pipe already says it */
        (void)ignored;
    }
    errno = saved;
}

static bool install_sigchld(void)
{
    if (sigchld_pipe[0] >= 0) return true;
    if (!pipe_open(sigchld_pipe)) return false;
    pipe_nonblock(sigchld_pipe[0]);
    pipe_nonblock(sigchld_pipe[1]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigchld;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    return sigaction(SIGCHLD, &sa, NULL) == 0;
}

int proc_sigchld_fd(void)
{
    install_sigchld();
    return sigchld_pipe[0];
}

bool proc_sigchld_drain(void)
{
    char buf[64];
    bool any = false;
    while (sigchld_pipe[0] >= 0 && read(sigchld_pipe[0], buf, sizeof buf) > 0) any = true;
    return any;
}

/* In the child: every descriptor above 2 closed, whatever the caller inherited. */
static void close_from_3(void)
{
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < max; fd++) close(fd);
}

static void child_environment(const char *const env_add[])
{
    for (;;) {                     /* unsetenv shifts environ: rescan after each */
        char **e = environ;
        while (*e && strncmp(*e, "MTREF_", 6) != 0) e++;
        if (!*e) break;
        char name[256];
        size_t len = strcspn(*e, "=");
        if (len >= sizeof name) len = sizeof name - 1;
        memcpy(name, *e, len);
        name[len] = '\0';
        if (unsetenv(name) != 0) break;
    }
    for (int i = 0; env_add && env_add[i]; i++) putenv((char *)env_add[i]);
}

/* In the child: the limits, before exec. */
static void child_limits(const struct proc_limits *limits)
{
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    if (!limits) return;
    if (limits->mem_bytes > 0) {
        struct rlimit as = {(rlim_t)limits->mem_bytes, (rlim_t)limits->mem_bytes};
        setrlimit(RLIMIT_AS, &as);
    }
    if (limits->cpu_seconds > 0) {
        struct rlimit cpu = {(rlim_t)limits->cpu_seconds, (rlim_t)limits->cpu_seconds + 1};
        setrlimit(RLIMIT_CPU, &cpu);
    }
}

/* A word that can be rewritten safely: a plain relative path with a slash, no shell
 * syntax in it, naming something that exists here. */
static bool relative_path_word(const char *w, size_t len)
{
    if (len == 0 || len >= 4096 || w[0] == '/' || w[0] == '-' || w[0] == '~') return false;
    bool slash = false;
    for (size_t i = 0; i < len; i++) {
        char c = w[i];
        if (c == '/') slash = true;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                     c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == '@' || c == '%';
        if (!plain) return false;
    }
    if (!slash) return false;
    char path[4096];
    memcpy(path, w, len);
    path[len] = '\0';
    struct stat st;
    return stat(path, &st) == 0;
}

/* "exec " and cmd, its relative path words made absolute when absolute is set (the
 * directory single-quoted, so any name it has stays one word); malloc'd, NULL when
 * memory runs out. */
static char *command_line(const char *cmd, bool absolute)
{
    char cwd[4096];
    if (absolute && !getcwd(cwd, sizeof cwd)) absolute = false;
    size_t len = strlen(cmd), words = 1;
    for (size_t i = 0; i < len; i++) words += cmd[i] == ' ' || cmd[i] == '\t';
    size_t extra = absolute ? words * (4 * strlen(cwd) + 4) : 0;
    char *line = mt_malloc(len + extra + 6);
    if (!line) return NULL;
    memcpy(line, "exec ", 5);
    size_t k = 5;
    for (size_t i = 0; i < len;) {
        size_t n = strcspn(cmd + i, " \t");
        if (absolute && relative_path_word(cmd + i, n)) {
            line[k++] = '\'';
            for (const char *c = cwd; *c; c++) {
                if (*c == '\'') { memcpy(line + k, "'\\''", 4); k += 4; }
                else line[k++] = *c;
            }
            line[k++] = '/';
            line[k++] = '\'';
        }
        memcpy(line + k, cmd + i, n);
        k += n;
        i += n;
        while (i < len && (cmd[i] == ' ' || cmd[i] == '\t')) line[k++] = cmd[i++];
    }
    line[k] = '\0';
    return line;
}

static const char *tmp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && tmp[0] == '/' ? tmp : "/tmp";
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP) rmdir(path);
    else unlink(path);
    return 0;
}

static void remove_tree(const char *path)
{
    chmod(path, 0700);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* The directories of referees that died without cleaning up: each lock that can be
 * taken now, and is older than its maker needs between creating and taking it. */
static void sweep_dead(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d) return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n != 21 || strncmp(e->d_name, "mtref-bot-", 10) != 0 || strcmp(e->d_name + 16, ".lock") != 0) continue;
        char lock[4200], dir[4200];
        snprintf(lock, sizeof lock, "%s/%s", tmp, e->d_name);
        snprintf(dir, sizeof dir, "%s/%.16s", tmp, e->d_name);
        int fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && now - st.st_mtime > 10 &&
            flock(fd, LOCK_EX | LOCK_NB) == 0) {
            struct stat ds;
            if (lstat(dir, &ds) == 0 && S_ISDIR(ds.st_mode) && ds.st_uid == geteuid()) remove_tree(dir);
            unlink(lock);
        }
        close(fd);
    }
    closedir(d);
}

bool proc_workdir_make(struct proc_workdir *w, char *err, size_t errsize)
{
    static bool swept;
    const char *tmp = tmp_dir();
    w->path[0] = '\0';
    w->lock_fd = -1;
    if (!swept) {
        swept = true;
        sweep_dead(tmp);
    }
    char path[sizeof w->path];
    if ((size_t)snprintf(path, sizeof path, "%s/mtref-bot-XXXXXX", tmp) >= sizeof path - 5) {
        snprintf(err, errsize, "the temporary directory's name is too long");
        return false;
    }
    if (!mkdtemp(path)) {
        snprintf(err, errsize, "cannot make a working directory in %s: %s", tmp, strerror(errno));
        return false;
    }
    char lock[sizeof path + 8];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) {
        snprintf(err, errsize, "cannot lock %s: %s", lock, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(lock);
        }
        rmdir(path);
        return false;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->lock_fd = fd;
    return true;
}

void proc_workdir_remove(struct proc_workdir *w)
{
    if (!w->path[0]) return;
    remove_tree(w->path);
    char lock[sizeof w->path + 8];
    snprintf(lock, sizeof lock, "%s.lock", w->path);
    unlink(lock);
    if (w->lock_fd >= 0) close(w->lock_fd);
    w->path[0] = '\0';
    w->lock_fd = -1;
}

bool proc_die_with_parent(pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    return getppid() == parent;          /* it may have died before prctl */
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

bool proc_spawn(struct proc *p, const char *cmd, const char *dir, const char *const env_add[],
                const struct proc_limits *limits, char *err, size_t errsize)
{
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = p->err_fd = -1;
    if (!install_sigchld()) {
        snprintf(err, errsize, "cannot watch child processes: %s", strerror(errno));
        return false;
    }
    char *line = command_line(cmd, dir != NULL);
    if (!line) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    int in[2], out[2], errp[2];
    snprintf(err, errsize, "cannot open pipes to the bot (too many open files?)");
    if (!pipe_open(in)) goto fail_pipe0;
    if (!pipe_open(out)) goto fail_pipe1;
    if (!pipe_open(errp)) goto fail_pipe2;
    err[0] = '\0';
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errsize, "fork: %s", strerror(errno));
        goto fail_fork;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (!proc_die_with_parent(parent)) _exit(127);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        int sigs[] = {SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP, SIGQUIT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &dfl, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(errp[1], 2) < 0) _exit(127);
        close_from_3();
        if (dir && chdir(dir) != 0) _exit(127);
        child_environment(env_add);
        child_limits(limits);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);             /* both sides, so no signal finds it in our group */
    free(line);
    close(in[0]);
    close(out[1]);
    close(errp[1]);
    p->pid = pid;
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = errp[0];
    pipe_nonblock(p->in_fd);
    pipe_nonblock(p->out_fd);
    pipe_nonblock(p->err_fd);
    return true;
fail_fork:
    close(errp[0]);
    close(errp[1]);
fail_pipe2:
    close(out[0]);
    close(out[1]);
fail_pipe1:
    close(in[0]);
    close(in[1]);
fail_pipe0:
    free(line);
    return false;
}

bool proc_check(struct proc *p)
{
    if (p->exited) return true;
    if (p->pid <= 0) return false;
    int status;
    pid_t r = waitpid(p->pid, &status, WNOHANG);
    if (r == p->pid) {
        p->exited = true;
        p->status = status;
        return true;
    }
    if (r < 0 && errno == ECHILD) {     /* reaped elsewhere: treat as gone */
        p->exited = true;
        p->status = 0;
        return true;
    }
    return false;
}

void proc_signal(struct proc *p, int sig)
{
    if (p->pid <= 0) return;
    kill(-p->pid, sig);                 /* the group: children that hold its pipes too */
    if (!p->exited) kill(p->pid, sig);  /* in case it left its group */
}

/* Waits up to us for every live process of ps to exit, discarding what they write. */
static void wait_all(struct proc *const ps[], int n, int64_t us)
{
    int64_t end = clock_us() + us;
    for (;;) {
        bool all = true;
        for (int i = 0; i < n; i++) all &= ps[i]->pid <= 0 || proc_check(ps[i]);
        int64_t left = end - clock_us();
        if (all || left <= 0) return;
        struct pollfd fds[1 + 2 * 64];
        int k = 0;
        fds[k++] = (struct pollfd){proc_sigchld_fd(), POLLIN, 0};
        for (int i = 0; i < n && k + 2 <= (int)(sizeof fds / sizeof fds[0]); i++) {
            if (ps[i]->out_fd >= 0) fds[k++] = (struct pollfd){ps[i]->out_fd, POLLIN, 0};
            if (ps[i]->err_fd >= 0) fds[k++] = (struct pollfd){ps[i]->err_fd, POLLIN, 0};
        }
        int ms = (int)((left + 999) / 1000);
        if (ms > 20) ms = 20;          /* a missed SIGCHLD costs 20 ms at most */
        poll(fds, (nfds_t)k, ms);
        proc_sigchld_drain();
        char junk[4096];
        for (int i = 0; i < n; i++) {
            int *fd[2] = {&ps[i]->out_fd, &ps[i]->err_fd};
            for (int j = 0; j < 2; j++) {
                if (*fd[j] < 0) continue;
                ssize_t r = read(*fd[j], junk, sizeof junk);
                if (r == 0) close_fd(fd[j]);
            }
        }
    }
}

void proc_stop_many(struct proc *const ps[], int n, int64_t grace_us)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        close_fd(&ps[i]->in_fd);
        any |= ps[i]->pid > 0 && !proc_check(ps[i]);
    }
    if (any) wait_all(ps, n, grace_us);
    any = false;
    for (int i = 0; i < n; i++)
        if (ps[i]->pid > 0 && !proc_check(ps[i])) {
            proc_signal(ps[i], SIGTERM);
            any = true;
        }
    if (any) wait_all(ps, n, grace_us < 500000 ? grace_us : 500000);
    for (int i = 0; i < n; i++) {
        struct proc *p = ps[i];
        if (p->pid <= 0) continue;
        /* whatever is left of the group (children holding the pipes) goes now */
        proc_signal(p, SIGKILL);
        if (!p->exited) {
            int status = 0;
            while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR) {
            }
            p->exited = true;
            p->status = status;
        }
        close_fd(&p->out_fd);
        close_fd(&p->err_fd);
        p->pid = 0;
    }
}

bool proc_stop(struct proc *p, int64_t grace_us)
{
    struct proc *one[1] = {p};
    bool was_running = p->pid > 0 && !proc_check(p);
    proc_stop_many(one, 1, grace_us);
    return !was_running || !WIFSIGNALED(p->status);
}

void proc_describe(const struct proc *p, char *buf, size_t size)
{
    if (!p->exited) { snprintf(buf, size, "running"); return; }
    if (WIFEXITED(p->status)) {
        int code = WEXITSTATUS(p->status);
        snprintf(buf, size, "exit %d%s", code, code == 127 ? " (command not found?)" : "");
        return;
    }
    if (WIFSIGNALED(p->status)) {
        int sig = WTERMSIG(p->status);
        static const struct { int sig; const char *name; } names[] = {
            {SIGSEGV, "SEGV"}, {SIGABRT, "ABRT"}, {SIGKILL, "KILL"}, {SIGTERM, "TERM"}, {SIGBUS, "BUS"},
            {SIGFPE, "FPE"}, {SIGILL, "ILL"}, {SIGPIPE, "PIPE"}, {SIGINT, "INT"}, {SIGHUP, "HUP"},
            {SIGXCPU, "XCPU"}, {SIGQUIT, "QUIT"},
        };
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (names[i].sig == sig) { snprintf(buf, size, "signal %s", names[i].name); return; }
        snprintf(buf, size, "signal %d", sig);
        return;
    }
    snprintf(buf, size, "status %d", p->status);
}
