/* The allocation wrapper with a failure countdown for tests. */
#include "alloc.h"

#include <stdatomic.h>
#include <stdlib.h>

/* The only mutable global of mtref, and a test hook only: negative means never fail.
 * Atomic, since the threads of check and selfplay --jobs allocate too. */
static _Atomic long countdown = -1;

void alloc_fail_after(long n) { atomic_store_explicit(&countdown, n, memory_order_relaxed); }

static int should_fail(void)
{
    long left = atomic_load_explicit(&countdown, memory_order_relaxed);
    while (left > 0 &&
           !atomic_compare_exchange_weak_explicit(&countdown, &left, left - 1, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
    return left == 0;
}

void *mt_malloc(size_t size) { return should_fail() ? NULL : malloc(size); }

void *mt_realloc(void *p, size_t size) { return should_fail() ? NULL : realloc(p, size); }
