/* Bot processes: spawned in a process group of their own with only fds 0-2 open
 * (stdin, stdout and stderr as pipes to the referee), watched for their exit, and
 * torn down without leaving a process or a zombie behind. */
#ifndef MTREF_PROC_H
#define MTREF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proc {
    pid_t pid;          /* also the process group id; 0 once reaped */
    int in_fd;          /* the bot's stdin (we write), non-blocking; -1 once closed */
    int out_fd;         /* its stdout (we read), non-blocking; -1 once closed */
    int err_fd;         /* its stderr (we read), non-blocking; -1 once closed */
    bool exited;        /* reaped: status holds the wait status */
    int status;
};

/* Resource limits for a child; 0: none. A core dump is never allowed (RLIMIT_CORE 0).
 * The number of processes is not limited: RLIMIT_NPROC counts every process of the
 * user, the referee's own included, so it cannot be one bot's; the process group and
 * the KILL to it at teardown bound what a bot's children can outlive. */
struct proc_limits {
    int64_t mem_bytes;      /* RLIMIT_AS: address space */
    int64_t cpu_seconds;    /* RLIMIT_CPU: SIGXCPU at the limit, SIGKILL a second later */
};

/* Starts `/bin/sh -c 'exec CMD'` (the shell's quoting, the bot's own pid) in dir
 * (NULL: the current directory), with env_add ("NAME=VALUE", NULL-terminated, may be
 * NULL) added to the environment and every MTREF_* variable removed, under limits
 * (NULL: none but the core dump's). With dir, each word of CMD that is a relative path
 * with a slash naming a file or directory here (./mybot, bots/x.py) is made absolute
 * first, so the command means what it means in the caller's directory. On Linux the
 * child dies with its parent. Returns false with err set when fork or pipes fail;
 * an exec failure shows up as the child's exit (127). */
bool proc_spawn(struct proc *p, const char *cmd, const char *dir, const char *const env_add[],
                const struct proc_limits *limits, char *err, size_t errsize);

/* In a child just forked from parent: on Linux, it is killed (SIGKILL) when parent
 * dies, however parent dies. False when parent is already gone: the child should
 * _exit at once. */
bool proc_die_with_parent(pid_t parent);

/* A fresh private working directory (mode 0700) under $TMPDIR or /tmp, held by a
 * lock: its sibling PATH.lock, flock'd by this process until the directory is removed.
 * A referee killed by SIGKILL cleans nothing up; the first directory a later referee
 * makes first removes every one whose lock is free (its maker is dead) and older than
 * a few seconds. path "" when there is none. */
struct proc_workdir {
    char path[512];
    int lock_fd;
};
/* False with err set when it cannot be made. */
bool proc_workdir_make(struct proc_workdir *w, char *err, size_t errsize);
/* Removes it and all it holds, never following a symbolic link out of it, then its
 * lock. Nothing when w->path is "". */
void proc_workdir_remove(struct proc_workdir *w);

/* The read end of a pipe that becomes readable when any child exits (SIGCHLD),
 * for poll; proc_sigchld_drain empties it. Installed by the first proc_spawn. */
int proc_sigchld_fd(void);
bool proc_sigchld_drain(void);        /* true when a child exited since the last call */

/* Reaps p if it has exited (never blocks); true when it has. */
bool proc_check(struct proc *p);
/* Sends sig to p's process group (then to p itself, if it left the group). */
void proc_signal(struct proc *p, int sig);
/* Shuts p down: closes its stdin, waits up to grace_us for its exit, then TERM to
 * the group, min(grace, 500 ms), KILL to the group (its children too, even when p
 * itself left), and reaps. Closes every fd. Idempotent. Returns false when p had to
 * be killed by a signal. */
bool proc_stop(struct proc *p, int64_t grace_us);

/* The same for n processes at once: the grace runs for all of them together. */
void proc_stop_many(struct proc *const ps[], int n, int64_t grace_us);

/* "exit 3", "signal SEGV", "running" into buf. */
void proc_describe(const struct proc *p, char *buf, size_t size);

#endif
