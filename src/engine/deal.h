/* The referee's frozen shuffle: SplitMix64 and Fisher-Yates, as documented in
 * mtref(1) under SEEDED DEALS. Changing a line here invalidates every seeded record;
 * tests/test_deal.c pins the output. */
#ifndef MTREF_DEAL_H
#define MTREF_DEAL_H

#include <stdint.h>

#include "rng.h"
#include "tile.h"

#define DEAL_DECK_SIZE (TILE_COUNT - 1)

/* Writes the 90 tiles other than engine_pip's double, in tile order, then shuffled:
 * for i = 89 down to 1, swap deck[i] with deck[rng_uniform(i + 1)]. */
void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE]);
/* The same over all 91 tiles, the engine included (house rules that deal the engine
 * and lay it from a hand): for i = 90 down to 1, swap deck[i] with deck[rng_uniform(i + 1)]. */
void deal_shuffle_all(uint64_t *state, unsigned char deck[TILE_COUNT]);

#endif
