/* Pipes to and from bot processes: both ends closed on exec, non-blocking, and
 * how much of what was written the reader has not read yet. */
#ifndef MTREF_PIPE_H
#define MTREF_PIPE_H

#include <stdbool.h>

/* A pipe whose both ends close on exec; false (errno set) on failure. */
bool pipe_open(int fds[2]);
/* Makes fd non-blocking; false on failure. */
bool pipe_nonblock(int fd);
/* Bytes written to a pipe (its write end) that the reader has not read yet; -1 when
 * the system cannot tell. How a bot that does not read is told from one that thinks. */
long pipe_unread(int fd);

#endif
