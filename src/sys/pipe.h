/* Pipes to and from bot processes: non-blocking descriptors, an output queue that
 * never blocks the referee, line assembly across arbitrary reads with a hard line
 * limit, and the tail of a byte stream (a bot's stderr) kept in constant memory. */
#ifndef MTREF_PIPE_H
#define MTREF_PIPE_H

#include <stdbool.h>
#include <stddef.h>

/* A pipe whose both ends close on exec; false (errno set) on failure. */
bool pipe_open(int fds[2]);
/* Makes fd non-blocking; false on failure. */
bool pipe_nonblock(int fd);
/* Bytes written to a pipe (its write end) that the reader has not read yet; -1 when
 * the system cannot tell. How a bot that does not read is told from one that thinks. */
long pipe_unread(int fd);

/* Bytes waiting to be written to a bot. push refuses (false) past limit bytes
 * pending: a bot that does not read its input is `stalled`, never a blocked referee. */
struct outq {
    char *data;
    size_t len, cap, limit;
};
void outq_init(struct outq *q, size_t limit);
void outq_free(struct outq *q);
bool outq_push(struct outq *q, const char *data, size_t len);
/* Writes what the pipe takes now. Returns 0 (maybe some left), or -1 when the
 * reader is gone (EPIPE) or another error happened. */
int outq_flush(struct outq *q, int fd);

/* Line assembly: bytes in any chunks -> lines without their "\n" (and a "\r" before
 * it). A line longer than max is reported once, as soon as max is passed, with
 * too_long set and the bytes seen so far; the rest up to its newline is dropped.
 * At most max + 1 bytes are ever held. */
typedef void line_fn(void *ctx, const char *line, size_t len, bool too_long);
struct line_asm {
    char *buf;
    size_t len, max;
    bool skipping;
};
bool line_asm_init(struct line_asm *a, size_t max);
void line_asm_free(struct line_asm *a);
void line_asm_feed(struct line_asm *a, const char *data, size_t n, line_fn *emit, void *ctx);
/* Bytes of an unfinished line held (or being skipped). */
bool line_asm_pending(const struct line_asm *a);

/* The last TAIL_SIZE bytes of a stream, and how many came in all. */
#define TAIL_SIZE 4096
struct tail {
    char data[TAIL_SIZE];
    unsigned long long total;
};
void tail_add(struct tail *t, const char *data, size_t n);
/* Copies the kept bytes in order into out (NUL-terminated); returns their count. */
size_t tail_copy(const struct tail *t, char *out, size_t size);

#endif
