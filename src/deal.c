/* The referee's frozen shuffle (SplitMix64 + Fisher-Yates). */
#include "deal.h"

uint64_t deal_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t deal_uniform(uint64_t *state, uint64_t bound)
{
    uint64_t reject_below = (0 - bound) % bound;   /* 2^64 mod bound */
    uint64_t x;
    do
        x = deal_random(state);
    while (x < reject_below);
    return x % bound;
}

void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE])
{
    tile_t engine = tile_double(engine_pip);
    int n = 0;
    for (tile_t t = 0; t < TILE_COUNT; t++)
        if (t != engine) deck[n++] = (unsigned char)t;
    for (int i = DEAL_DECK_SIZE - 1; i >= 1; i--) {
        int j = (int)deal_uniform(state, (uint64_t)i + 1);
        unsigned char swap = deck[i];
        deck[i] = deck[j];
        deck[j] = swap;
    }
}
