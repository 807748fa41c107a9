/* The referee's frozen shuffle: SplitMix64 and Fisher-Yates, as documented in
 * mtref(1) under SEEDED DEALS. Changing a line here invalidates every seeded record;
 * tests/test_deal.c pins the output. */
#ifndef MTREF_DEAL_H
#define MTREF_DEAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "tile.h"

#define DEAL_DECK_SIZE (TILE_CANONICAL_COUNT - 1)

/* Writes the 90 tiles other than engine_pip's double, in tile order, then shuffled:
 * for i = 89 down to 1, swap deck[i] with deck[rng_uniform(i + 1)]. */
void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE]);
/* The same over all 91 tiles, the engine included (house rules that deal the engine
 * and lay it from a hand): for i = 90 down to 1, swap deck[i] with deck[rng_uniform(i + 1)]. */
void deal_shuffle_all(uint64_t *state, unsigned char deck[TILE_CANONICAL_COUNT]);
/* Any set, double-max_pip: its tiles in the order of tile_set_order (0-0, 0-1, ...
 * N-N; for double-twelve the tile order), without engine_pip's double unless
 * with_engine, then for i = size - 1 down to 1, swap deck[i] with
 * deck[rng_uniform(i + 1)]. For double-twelve the same decks as the two above (and
 * made by them). Returns the deck's size. */
int deal_shuffle_set(uint64_t *state, int max_pip, int engine_pip, bool with_engine, unsigned char deck[TILE_COUNT]);

#endif
