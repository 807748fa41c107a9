/* The one pseudo-random generator of mtref: SplitMix64. Seeded deals (deal.c) and the
 * built-in players draw from it; its output is frozen with the deals, because changing
 * it would invalidate every seeded record (tests/test_deal.c pins it). */
#ifndef MTREF_RNG_H
#define MTREF_RNG_H

#include <stdint.h>

/* Next 64-bit output of SplitMix64; advances *state. */
uint64_t rng_next(uint64_t *state);
/* Uniform in [0, bound), bound >= 1: draws x until x >= 2^64 mod bound, returns x mod bound. */
uint64_t rng_uniform(uint64_t *state, uint64_t bound);

#endif
