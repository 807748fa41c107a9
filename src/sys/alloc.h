/* The one allocation wrapper: the heap allocations of mtref's modules go through
 * it (main's option block aside), so tests can make the n-th fail (alloc_fail_after). */
#ifndef MTREF_ALLOC_H
#define MTREF_ALLOC_H

/* Ownership, one rule for all of mtref:
 * - The caller owns every struct it hands in, wherever it lives (stack, heap, inside
 *   another struct); x_init / x_open fill it, x_free / x_close release what it holds
 *   and leave the struct itself to its owner (x_new / x_free pairs allocate and free
 *   the struct too).
 * - No function keeps a pointer it was given past its return, unless its contract
 *   says so ("not owned; must outlive ..."); strings it must keep, it copies.
 * - A returned pointer belongs to the callee unless the contract says "caller frees".
 * - Every x_free / x_close accepts NULL, and a released value, and does nothing. */

#include <stddef.h>

/* malloc/realloc that return NULL when the failure countdown runs out. */
void *mt_malloc(size_t size);
void *mt_realloc(void *p, size_t size);
/* After n more successful allocations, fail every one; n < 0 turns failing off. */
void alloc_fail_after(long n);

#endif
