/* scripts/bench's stopwatch: runs a command and prints its wall time, its CPU time
 * (user + system, from the kernel's accounting of that child alone) and its peak
 * resident memory, on one line: "WALL_S CPU_S MAXRSS_KB EXIT". Microsecond
 * resolution, where /usr/bin/time gives hundredths. Not part of mtref.
 *   measure [-i INPUT] [-o OUTPUT] COMMAND [ARG...] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-i") == 0) in = argv[i + 1];
        else if (strcmp(argv[i], "-o") == 0) out = argv[i + 1];
        else break;
    }
    if (i >= argc) {
        fputs("usage: measure [-i INPUT] [-o OUTPUT] COMMAND [ARG...]\n", stderr);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 2; }
    if (pid == 0) {
        if (in) {
            int fd = open(in, O_RDONLY);
            if (fd < 0 || dup2(fd, 0) < 0) { perror(in); _exit(127); }
            close(fd);
        }
        if (out) {
            int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 1) < 0) { perror(out); _exit(127); }
            close(fd);
        }
        execvp(argv[i], argv + i);
        perror(argv[i]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) { perror("wait4"); return 2; }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%.6f %.6f %ld %d\n", wall, seconds(ru.ru_utime) + seconds(ru.ru_stime), ru.ru_maxrss, code);
    return 0;
}
