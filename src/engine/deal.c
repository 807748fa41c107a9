/* The referee's frozen shuffle: Fisher-Yates over the generator of rng.h. */
#include "deal.h"

#include "rng.h"

void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE])
{
    tile_t engine = tile_double(engine_pip);
    int n = 0;
    for (tile_t t = 0; t < TILE_COUNT; t++)
        if (t != engine) deck[n++] = (unsigned char)t;
    for (int i = DEAL_DECK_SIZE - 1; i >= 1; i--) {
        int j = (int)rng_uniform(state, (uint64_t)i + 1);
        unsigned char swap = deck[i];
        deck[i] = deck[j];
        deck[j] = swap;
    }
}

void deal_shuffle_all(uint64_t *state, unsigned char deck[TILE_COUNT])
{
    for (tile_t t = 0; t < TILE_COUNT; t++) deck[t] = (unsigned char)t;
    for (int i = TILE_COUNT - 1; i >= 1; i--) {
        int j = (int)rng_uniform(state, (uint64_t)i + 1);
        unsigned char swap = deck[i];
        deck[i] = deck[j];
        deck[j] = swap;
    }
}
