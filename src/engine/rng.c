/* SplitMix64 and an unbiased bounded draw (see rng.h: frozen forever). */
#include "rng.h"

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t rng_uniform(uint64_t *state, uint64_t bound)
{
    uint64_t reject_below = (0 - bound) % bound;   /* 2^64 mod bound */
    uint64_t x;
    do
        x = rng_next(state);
    while (x < reject_below);
    return x % bound;
}
