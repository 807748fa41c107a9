/* The bytes waiting to be written to a bot: a queue that never blocks the referee
 * and refuses to grow past its limit. */
#ifndef MTREF_OUTQ_H
#define MTREF_OUTQ_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
