/* The allocation wrapper with a failure countdown for tests. */
#include "alloc.h"

#include <stdlib.h>

/* The only mutable global of mtref, and a test hook only: negative means never fail. */
static long countdown = -1;

void alloc_fail_after(long n) { countdown = n; }

static int should_fail(void)
{
    if (countdown < 0) return 0;
    if (countdown == 0) return 1;
    countdown--;
    return 0;
}

void *mt_malloc(size_t size) { return should_fail() ? NULL : malloc(size); }

void *mt_realloc(void *p, size_t size) { return should_fail() ? NULL : realloc(p, size); }
