/* Non-blocking pipes, the output queue, line assembly and stream tails. */
#include "pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "alloc.h"

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

bool line_asm_init(struct line_asm *a, size_t max)
{
    memset(a, 0, sizeof *a);
    a->max = max;
    a->buf = mt_malloc(max + 1);
    return a->buf != NULL;
}

void line_asm_free(struct line_asm *a)
{
    if (!a) return;
    free(a->buf);
    a->buf = NULL;
}

void line_asm_feed(struct line_asm *a, const char *data, size_t n, line_fn *emit, void *ctx)
{
    while (n > 0) {
        const char *nl = memchr(data, '\n', n);
        size_t take = nl ? (size_t)(nl - data) : n;
        if (a->skipping) {
            if (nl) a->skipping = false;
        } else if (a->len + take > a->max) {
            size_t room = a->max - a->len;
            memcpy(a->buf + a->len, data, room);
            emit(ctx, a->buf, a->max, true);
            a->len = 0;
            a->skipping = !nl;
        } else {
            memcpy(a->buf + a->len, data, take);
            a->len += take;
            if (nl) {
                size_t len = a->len;
                if (len && a->buf[len - 1] == '\r') len--;
                a->len = 0;
                emit(ctx, a->buf, len, false);
            }
        }
        if (!nl) return;
        n -= take + 1;
        data = nl + 1;
    }
}

bool line_asm_pending(const struct line_asm *a) { return a->len > 0 || a->skipping; }

void tail_add(struct tail *t, const char *data, size_t n)
{
    if (n > TAIL_SIZE) {         /* only the last bytes can stay */
        t->total += n - TAIL_SIZE;
        data += n - TAIL_SIZE;
        n = TAIL_SIZE;
    }
    for (size_t i = 0; i < n; i++) t->data[(t->total + i) % TAIL_SIZE] = data[i];
    t->total += n;
}

size_t tail_copy(const struct tail *t, char *out, size_t size)
{
    if (!size) return 0;
    size_t kept = t->total < TAIL_SIZE ? (size_t)t->total : TAIL_SIZE;
    if (kept > size - 1) kept = size - 1;
    for (size_t i = 0; i < kept; i++) out[i] = t->data[(t->total - kept + i) % TAIL_SIZE];
    out[kept] = '\0';
    return kept;
}
