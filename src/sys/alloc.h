/* The one allocation wrapper: the heap allocations of mtref's modules go through
 * it (main's option block aside), so tests can make the n-th fail (alloc_fail_after). */
#ifndef MTREF_ALLOC_H
#define MTREF_ALLOC_H

#include <stddef.h>

/* malloc/realloc that return NULL when the failure countdown runs out. */
void *mt_malloc(size_t size);
void *mt_realloc(void *p, size_t size);
/* After n more successful allocations, fail every one; n < 0 turns failing off. */
void alloc_fail_after(long n);

#endif
