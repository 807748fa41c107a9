/* Tiles of the sets from double-six to double-fifteen, and sets of tiles as 136-bit
 * masks. The canonical set is double-twelve; a house rule may choose another. */
#ifndef MTREF_TILE_H
#define MTREF_TILE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TILE_MAX_PIP 15          /* the largest set: double-fifteen */
#define TILE_MIN_SET_PIP 6       /* the smallest set: double-six */
#define TILE_CANONICAL_PIP 12    /* [R1] the double-twelve set */
#define TILE_PIPS (TILE_MAX_PIP + 1)
#define TILE_COUNT 136           /* every a-b with 0 <= a <= b <= 15 */
#define TILE_CANONICAL_COUNT 91  /* [R1] every a-b with 0 <= a <= b <= 12 */
#define TILE_NONE (-1)

/* A tile is an index 0..135. The 91 tiles of double-twelve keep the ids 0..90 in the
 * order (low pip, high pip): 0-0, 0-1, ... 12-12, as the frozen seeded deals and every
 * record made before the larger sets need; the tiles with a pip above 12 follow, by
 * high pip then low: 0-13 is 91, ... 13-13 is 104, 0-14 105, ... 15-15 135. */
typedef int tile_t;

/* The engine's entry points assert their arguments (tiles 0..135, pips 0..15, seats,
 * trains): the callers check what comes from input first, so a value out of range is
 * a bug of mtref, caught in builds without NDEBUG (Debug, the sanitizer tests). Which
 * tiles the set in force holds is the rules' (rules.h, set_tiles). */
#define TILE_VALID(t) ((t) >= 0 && (t) < TILE_COUNT)
#define TILE_PIP_VALID(p) ((p) >= 0 && (p) <= TILE_MAX_PIP)

/* The id of a-b, either order; both pips 0..15. A table: the reader's fast path. */
extern const unsigned char tile_ids[TILE_PIPS][TILE_PIPS];
static inline tile_t tile_from_pips(int a, int b)
{
    assert(TILE_PIP_VALID(a) && TILE_PIP_VALID(b));
    return tile_ids[a][b];
}
int tile_low(tile_t t);
int tile_high(tile_t t);
bool tile_is_double(tile_t t);
bool tile_has_pip(tile_t t, int pip);
int tile_other_pip(tile_t t, int pip);    /* the free end once laid against pip */
tile_t tile_double(int pip);

/* Writes "A-B" (low first) and a NUL into buf, which holds at least TILE_TEXT_SIZE bytes. */
#define TILE_TEXT_SIZE 6
void tile_format(tile_t t, char *buf);

/* Parses "A-B" from text[0..len): pips are ASCII digits, leading zeros accepted.
 * Returns the tile, or TILE_NONE when the text is not a tile of the set. */
tile_t tile_parse(const char *text, size_t len);

/* A set of tiles: bit t % 64 of word t / 64 is tile t (words 0 and 1 hold 0..127,
 * word 2 the eight tiles 128..135). A tile's word is found by indexing, not by
 * comparing: which word a tile of a record falls in is random, and a branch on it
 * is mispredicted often. Plain value, copy freely. */
typedef struct tileset {
    uint64_t word[3];
} tileset;

static inline tileset tileset_empty(void) { tileset s = {{0, 0, 0}}; return s; }
static inline bool tileset_has(tileset s, tile_t t)
{
    assert(TILE_VALID(t));
    return (s.word[t >> 6] >> (t & 63)) & 1;
}
/* The same of a set where it lies: its word is read in place (a set passed by value
 * and indexed by a variable is first copied whole to the stack). The hot paths' form. */
static inline bool tileset_holds(const tileset *s, tile_t t)
{
    assert(TILE_VALID(t));
    return (s->word[t >> 6] >> (t & 63)) & 1;
}
static inline void tileset_add(tileset *s, tile_t t)
{
    assert(TILE_VALID(t));
    s->word[t >> 6] |= (uint64_t)1 << (t & 63);
}
static inline void tileset_remove(tileset *s, tile_t t)
{
    assert(TILE_VALID(t));
    s->word[t >> 6] &= ~((uint64_t)1 << (t & 63));
}
static inline tileset tileset_and(tileset a, tileset b)
{
    tileset s = {{a.word[0] & b.word[0], a.word[1] & b.word[1], a.word[2] & b.word[2]}}; return s;
}
static inline tileset tileset_or(tileset a, tileset b)
{
    tileset s = {{a.word[0] | b.word[0], a.word[1] | b.word[1], a.word[2] | b.word[2]}}; return s;
}
static inline tileset tileset_minus(tileset a, tileset b)
{
    tileset s = {{a.word[0] & ~b.word[0], a.word[1] & ~b.word[1], a.word[2] & ~b.word[2]}}; return s;
}
static inline bool tileset_is_empty(tileset s) { return (s.word[0] | s.word[1] | s.word[2]) == 0; }
static inline bool tileset_equal(tileset a, tileset b)
{
    return a.word[0] == b.word[0] && a.word[1] == b.word[1] && a.word[2] == b.word[2];
}
/* The bits set in each byte of w (0..8 a byte). The build assumes no popcount
 * instruction (the binary runs on any x86-64), and the library's popcount that the
 * builtin calls instead costs more than these few steps. */
static inline uint64_t tile_byte_popcounts(uint64_t w)
{
    w -= (w >> 1) & 0x5555555555555555ULL;
    w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
    return (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
}
/* The bytes' counts summed into the top byte (a total below 256). */
static inline int tile_byte_sum(uint64_t counts) { return (int)((counts * 0x0101010101010101ULL) >> 56); }
static inline int tile_popcount(uint64_t w) { return tile_byte_sum(tile_byte_popcounts(w)); }
static inline int tileset_count(tileset s)
{
    /* at most 24 a byte, 136 in all: the three words' counts summed at once */
    return tile_byte_sum(tile_byte_popcounts(s.word[0]) + tile_byte_popcounts(s.word[1]) +
                         tile_byte_popcounts(s.word[2]));
}
/* At most one tile: cheaper than counting (no popcount instruction is assumed). */
static inline bool tileset_at_most_one(tileset s)
{
    uint64_t lo = s.word[0], hi = s.word[1], ex = s.word[2];
    if (ex != 0) return (lo | hi) == 0 && (ex & (ex - 1)) == 0;
    return lo == 0 ? (hi & (hi - 1)) == 0 : hi == 0 && (lo & (lo - 1)) == 0;
}
/* Lowest tile of a non-empty set. */
static inline tile_t tileset_first(tileset s)
{
    return s.word[0] ? __builtin_ctzll(s.word[0])
         : s.word[1] ? 64 + __builtin_ctzll(s.word[1]) : 128 + __builtin_ctzll(s.word[2]);
}
/* Removes and returns the lowest tile; TILE_NONE when empty. Iterates in tile order. */
static inline tile_t tileset_pop(tileset *s)
{
    uint64_t *w = s->word;
    tile_t t;
    if (w[0]) { t = __builtin_ctzll(w[0]); w[0] &= w[0] - 1; }
    else if (w[1]) { t = 64 + __builtin_ctzll(w[1]); w[1] &= w[1] - 1; }
    else if (w[2]) { t = 128 + __builtin_ctzll(w[2]); w[2] &= w[2] - 1; }
    else t = TILE_NONE;
    return t;
}

tileset tileset_with_pip(int pip);        /* every tile (0..135) that shows pip on one side */
tileset tileset_all(void);                /* the 91 tiles of double-twelve */

/* The sets a house rule may choose: double-N for N = 6..15. */
#define TILE_SET_VALID(n) ((n) >= TILE_MIN_SET_PIP && (n) <= TILE_MAX_PIP)
/* The tiles of double-max_pip: every a-b with both pips 0..max_pip. */
tileset tileset_of_set(int max_pip);
/* How many: (max_pip + 1)(max_pip + 2) / 2; 91 for double-twelve. */
int tile_set_size(int max_pip);
/* The set's tiles in the order 0-0, 0-1, ... 0-N, 1-1, ... N-N into order (at least
 * TILE_COUNT bytes), the order the seeded shuffle starts from; returns the count.
 * For double-twelve this is 0, 1, ... 90. */
int tile_set_order(int max_pip, unsigned char order[]);
/* "double-twelve", "double-nine", ...: the set's name, for messages. */
const char *tile_set_name(int max_pip);

#endif
