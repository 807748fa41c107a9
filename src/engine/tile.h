/* Tiles of the double-twelve set and sets of tiles as 91-bit masks. */
#ifndef MTREF_TILE_H
#define MTREF_TILE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TILE_MAX_PIP 12
#define TILE_PIPS (TILE_MAX_PIP + 1)
#define TILE_COUNT 91            /* [R1] every a-b with 0 <= a <= b <= 12 */
#define TILE_NONE (-1)

/* A tile is its index 0..90, ordered by (low pip, high pip): 0-0, 0-1, ... 12-12. */
typedef int tile_t;

/* The engine's entry points assert their arguments (tiles 0..90, pips 0..12, seats,
 * trains): the callers check what comes from input first, so a value out of range is
 * a bug of mtref, caught in builds without NDEBUG (Debug, the sanitizer tests). */
#define TILE_VALID(t) ((t) >= 0 && (t) < TILE_COUNT)
#define TILE_PIP_VALID(p) ((p) >= 0 && (p) <= TILE_MAX_PIP)

tile_t tile_from_pips(int a, int b);      /* either order; both pips 0..12 */
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

/* A set of tiles: bit i of the 128-bit pair is tile i. Plain value, copy freely. */
typedef struct tileset {
    uint64_t lo, hi;
} tileset;

static inline tileset tileset_empty(void) { tileset s = {0, 0}; return s; }
static inline bool tileset_has(tileset s, tile_t t)
{
    assert(TILE_VALID(t));
    return t < 64 ? (s.lo >> t) & 1 : (s.hi >> (t - 64)) & 1;
}
static inline void tileset_add(tileset *s, tile_t t)
{
    assert(TILE_VALID(t));
    if (t < 64) s->lo |= (uint64_t)1 << t; else s->hi |= (uint64_t)1 << (t - 64);
}
static inline void tileset_remove(tileset *s, tile_t t)
{
    assert(TILE_VALID(t));
    if (t < 64) s->lo &= ~((uint64_t)1 << t); else s->hi &= ~((uint64_t)1 << (t - 64));
}
static inline tileset tileset_and(tileset a, tileset b)
{
    tileset s = {a.lo & b.lo, a.hi & b.hi}; return s;
}
static inline tileset tileset_or(tileset a, tileset b)
{
    tileset s = {a.lo | b.lo, a.hi | b.hi}; return s;
}
static inline tileset tileset_minus(tileset a, tileset b)
{
    tileset s = {a.lo & ~b.lo, a.hi & ~b.hi}; return s;
}
static inline bool tileset_is_empty(tileset s) { return (s.lo | s.hi) == 0; }
static inline bool tileset_equal(tileset a, tileset b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int tileset_count(tileset s)
{
    return __builtin_popcountll(s.lo) + __builtin_popcountll(s.hi);
}
/* At most one tile: cheaper than counting (no popcount instruction is assumed). */
static inline bool tileset_at_most_one(tileset s)
{
    return s.lo == 0 ? (s.hi & (s.hi - 1)) == 0 : s.hi == 0 && (s.lo & (s.lo - 1)) == 0;
}
/* Lowest tile of a non-empty set. */
static inline tile_t tileset_first(tileset s)
{
    return s.lo ? __builtin_ctzll(s.lo) : 64 + __builtin_ctzll(s.hi);
}
/* Removes and returns the lowest tile; TILE_NONE when empty. Iterates in tile order. */
static inline tile_t tileset_pop(tileset *s)
{
    if (tileset_is_empty(*s)) return TILE_NONE;
    tile_t t = tileset_first(*s);
    tileset_remove(s, t);
    return t;
}

tileset tileset_with_pip(int pip);        /* every tile that shows pip on one side */
tileset tileset_all(void);                /* the 91 tiles */

#endif
