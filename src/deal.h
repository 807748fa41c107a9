/* The referee's frozen shuffle: SplitMix64 and Fisher-Yates, as documented in
 * mtref(1) under SEEDED DEALS. Changing a line here invalidates every seeded record;
 * tests/test_deal.c pins the output. */
#ifndef MTREF_DEAL_H
#define MTREF_DEAL_H

#include <stdint.h>

#include "tile.h"

#define DEAL_DECK_SIZE (TILE_COUNT - 1)

/* Next 64-bit output of SplitMix64; advances *state. */
uint64_t deal_random(uint64_t *state);
/* Uniform in [0, bound), bound >= 1: draws x until x >= 2^64 mod bound, returns x mod bound. */
uint64_t deal_uniform(uint64_t *state, uint64_t bound);
/* Writes the 90 tiles other than engine_pip's double, in tile order, then shuffled:
 * for i = 89 down to 1, swap deck[i] with deck[deal_uniform(i + 1)]. */
void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE]);

#endif
