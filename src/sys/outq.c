/* The output queue to a bot's pipe. */
#include "outq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

void outq_init(struct outq *q, size_t limit)
{
    memset(q, 0, sizeof *q);
    q->limit = limit;
}

void outq_free(struct outq *q)
{
    if (!q) return;
    free(q->data);
    memset(q, 0, sizeof *q);
}

bool outq_push(struct outq *q, const char *data, size_t len)
{
    if (len > q->limit || q->len > q->limit - len) return false;
    if (q->len + len > q->cap) {
        size_t cap = q->cap ? q->cap : 4096;
        while (cap < q->len + len) cap *= 2;
        char *grown = mt_realloc(q->data, cap);
        if (!grown) return false;
        q->data = grown;
        q->cap = cap;
    }
    memcpy(q->data + q->len, data, len);
    q->len += len;
    return true;
}

int outq_flush(struct outq *q, int fd)
{
    size_t done = 0;
    while (done < q->len) {
        ssize_t n = write(fd, q->data + done, q->len - done);
        if (n > 0) { done += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        return -1;
    }
    memmove(q->data, q->data + done, q->len - done);
    q->len -= done;
    return 0;
}
