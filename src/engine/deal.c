/* The referee's frozen shuffle: Fisher-Yates over the generator of rng.h. */
#include "deal.h"

#include <string.h>

#include "rng.h"

/* One step of the shuffle, for i = 89 down to 1: swap deck[i] with deck[j], j drawn as
 * rng_uniform(state, i + 1) draws it. Written out once per i, so that the bound is a
 * constant: the rejection threshold 2^64 mod (i + 1) is computed by the compiler and
 * the remainder becomes a multiplication, with no division left in a deal. The same
 * draws, so the same decks (tests/test_deal.c pins them). The state is a local
 * while the steps run: stored through the pointer, it would be written back before
 * every swap (a byte store may alias it). */
#define DEAL_STEP(i)                                                                    \
    do {                                                                                \
        const uint64_t bound = (uint64_t)(i) + 1, reject_below = (0 - bound) % bound;   \
        uint64_t x;                                                                     \
        do                                                                              \
            x = rng_next(&s);                                                           \
        while (x < reject_below);                                                       \
        int j = (int)(x % bound);                                                       \
        unsigned char swap = deck[i];                                                   \
        deck[i] = deck[j];                                                              \
        deck[j] = swap;                                                                 \
    } while (0)

void deal_shuffle(uint64_t *state, int engine_pip, unsigned char deck[DEAL_DECK_SIZE])
{
    unsigned char all[TILE_CANONICAL_COUNT];
    for (int t = 0; t < TILE_CANONICAL_COUNT; t++) all[t] = (unsigned char)t;
    /* the tiles in order without the engine: those below it, then those above */
    size_t engine = (size_t)tile_double(engine_pip);
    memcpy(deck, all, engine);
    memcpy(deck + engine, all + engine + 1, DEAL_DECK_SIZE - engine);
    uint64_t s = *state;
#if DEAL_DECK_SIZE != 90
#error "the steps below are written for a deck of 90 tiles"
#endif
    DEAL_STEP(89); DEAL_STEP(88); DEAL_STEP(87); DEAL_STEP(86); DEAL_STEP(85); DEAL_STEP(84);
    DEAL_STEP(83); DEAL_STEP(82); DEAL_STEP(81); DEAL_STEP(80); DEAL_STEP(79); DEAL_STEP(78);
    DEAL_STEP(77); DEAL_STEP(76); DEAL_STEP(75); DEAL_STEP(74); DEAL_STEP(73); DEAL_STEP(72);
    DEAL_STEP(71); DEAL_STEP(70); DEAL_STEP(69); DEAL_STEP(68); DEAL_STEP(67); DEAL_STEP(66);
    DEAL_STEP(65); DEAL_STEP(64); DEAL_STEP(63); DEAL_STEP(62); DEAL_STEP(61); DEAL_STEP(60);
    DEAL_STEP(59); DEAL_STEP(58); DEAL_STEP(57); DEAL_STEP(56); DEAL_STEP(55); DEAL_STEP(54);
    DEAL_STEP(53); DEAL_STEP(52); DEAL_STEP(51); DEAL_STEP(50); DEAL_STEP(49); DEAL_STEP(48);
    DEAL_STEP(47); DEAL_STEP(46); DEAL_STEP(45); DEAL_STEP(44); DEAL_STEP(43); DEAL_STEP(42);
    DEAL_STEP(41); DEAL_STEP(40); DEAL_STEP(39); DEAL_STEP(38); DEAL_STEP(37); DEAL_STEP(36);
    DEAL_STEP(35); DEAL_STEP(34); DEAL_STEP(33); DEAL_STEP(32); DEAL_STEP(31); DEAL_STEP(30);
    DEAL_STEP(29); DEAL_STEP(28); DEAL_STEP(27); DEAL_STEP(26); DEAL_STEP(25); DEAL_STEP(24);
    DEAL_STEP(23); DEAL_STEP(22); DEAL_STEP(21); DEAL_STEP(20); DEAL_STEP(19); DEAL_STEP(18);
    DEAL_STEP(17); DEAL_STEP(16); DEAL_STEP(15); DEAL_STEP(14); DEAL_STEP(13); DEAL_STEP(12);
    DEAL_STEP(11); DEAL_STEP(10); DEAL_STEP(9); DEAL_STEP(8); DEAL_STEP(7); DEAL_STEP(6);
    DEAL_STEP(5); DEAL_STEP(4); DEAL_STEP(3); DEAL_STEP(2); DEAL_STEP(1);
    *state = s;
}

static void shuffle(uint64_t *state, unsigned char deck[], int n)
{
    for (int i = n - 1; i >= 1; i--) {
        int j = (int)rng_uniform(state, (uint64_t)i + 1);
        unsigned char swap = deck[i];
        deck[i] = deck[j];
        deck[j] = swap;
    }
}

void deal_shuffle_all(uint64_t *state, unsigned char deck[TILE_CANONICAL_COUNT])
{
    for (tile_t t = 0; t < TILE_CANONICAL_COUNT; t++) deck[t] = (unsigned char)t;
    shuffle(state, deck, TILE_CANONICAL_COUNT);
}

int deal_shuffle_set(uint64_t *state, int max_pip, int engine_pip, bool with_engine, unsigned char deck[TILE_COUNT])
{
    if (max_pip == TILE_CANONICAL_PIP) {
        if (with_engine) {
            deal_shuffle_all(state, deck);
            return TILE_CANONICAL_COUNT;
        }
        deal_shuffle(state, engine_pip, deck);
        return DEAL_DECK_SIZE;
    }
    unsigned char order[TILE_COUNT];
    int size = tile_set_order(max_pip, order), n = 0;
    tile_t engine = tile_double(engine_pip);
    for (int i = 0; i < size; i++)
        if (with_engine || order[i] != engine) deck[n++] = order[i];
    shuffle(state, deck, n);
    return n;
}
