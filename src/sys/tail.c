/* A stream's tail in a ring of TAIL_SIZE bytes. */
#include "tail.h"

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
