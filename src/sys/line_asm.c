/* Line assembly across arbitrary reads. */
#include "line_asm.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

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
