/* Non-blocking pipes. */
#include "pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

bool pipe_open(int fds[2])
{
    if (pipe(fds) != 0) return false;
    for (int i = 0; i < 2; i++)
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
            int e = errno;
            close(fds[0]);
            close(fds[1]);
            errno = e;
            return false;
        }
    return true;
}

bool pipe_nonblock(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

long pipe_unread(int fd)
{
#ifdef FIONREAD
    int n = 0;
    if (ioctl(fd, FIONREAD, &n) == 0) return n;
#endif
    (void)fd;
    return -1;
}
