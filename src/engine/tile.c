/* Tiles of the double-twelve set: indexing, parsing, formatting. */
#include "tile.h"

#include <assert.h>

/* Tiles showing each pip; tests/test_tile.c recomputes this table from tile_has_pip. */
static const tileset pip_sets[TILE_PIPS] = {
    {0x0000000000001fffULL, 0x0000000ULL},
    {0x0000000001ffe002ULL, 0x0000000ULL},
    {0x0000000ffe004004ULL, 0x0000000ULL},
    {0x00003ff004008008ULL, 0x0000000ULL},
    {0x007fc02008010010ULL, 0x0000000ULL},
    {0x7f80804010020020ULL, 0x0000000ULL},
    {0x8101008020040040ULL, 0x000003fULL},
    {0x0202010040080080ULL, 0x0000fc1ULL},
    {0x0404020080100100ULL, 0x001f082ULL},
    {0x0808040100200200ULL, 0x01e2104ULL},
    {0x1010080200400400ULL, 0x0e44208ULL},
    {0x2020100400800800ULL, 0x3488410ULL},
    {0x4040200801001000ULL, 0x6910820ULL},
};

/* Low and high pip of each tile, in tile order. */
static const unsigned char tile_pip_pairs[TILE_COUNT][2] = {
    {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 9}, {0, 10},
    {0, 11}, {0, 12}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}, {1, 8},
    {1, 9}, {1, 10}, {1, 11}, {1, 12}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {2, 6}, {2, 7},
    {2, 8}, {2, 9}, {2, 10}, {2, 11}, {2, 12}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7},
    {3, 8}, {3, 9}, {3, 10}, {3, 11}, {3, 12}, {4, 4}, {4, 5}, {4, 6}, {4, 7}, {4, 8},
    {4, 9}, {4, 10}, {4, 11}, {4, 12}, {5, 5}, {5, 6}, {5, 7}, {5, 8}, {5, 9}, {5, 10},
    {5, 11}, {5, 12}, {6, 6}, {6, 7}, {6, 8}, {6, 9}, {6, 10}, {6, 11}, {6, 12}, {7, 7},
    {7, 8}, {7, 9}, {7, 10}, {7, 11}, {7, 12}, {8, 8}, {8, 9}, {8, 10}, {8, 11}, {8, 12},
    {9, 9}, {9, 10}, {9, 11}, {9, 12}, {10, 10}, {10, 11}, {10, 12}, {11, 11}, {11, 12},
    {12, 12},
};

/* Row a of the triangle starts after the 13 + 12 + ... tiles of the rows below it. */
static int row_start(int a) { return a * (2 * TILE_PIPS + 1 - a) / 2; }

tile_t tile_from_pips(int a, int b)
{
    assert(TILE_PIP_VALID(a) && TILE_PIP_VALID(b));
    if (a > b) { int t = a; a = b; b = t; }
    return row_start(a) + (b - a);
}

int tile_low(tile_t t)
{
    assert(TILE_VALID(t));
    return tile_pip_pairs[t][0];
}

int tile_high(tile_t t)
{
    assert(TILE_VALID(t));
    return tile_pip_pairs[t][1];
}

bool tile_is_double(tile_t t)
{
    assert(TILE_VALID(t));
    return tile_pip_pairs[t][0] == tile_pip_pairs[t][1];
}

bool tile_has_pip(tile_t t, int pip)
{
    assert(TILE_PIP_VALID(pip));
    return tileset_has(pip_sets[pip], t);
}

int tile_other_pip(tile_t t, int pip)
{
    assert(tile_has_pip(t, pip));
    int a = tile_low(t);
    return a == pip ? tile_high(t) : a;
}

tile_t tile_double(int pip) { return tile_from_pips(pip, pip); }

void tile_format(tile_t t, char *buf)
{
    assert(TILE_VALID(t));
    int a = tile_low(t), b = tile_high(t), n = 0;
    if (a >= 10) buf[n++] = '1';
    buf[n++] = (char)('0' + a % 10);
    buf[n++] = '-';
    if (b >= 10) buf[n++] = '1';
    buf[n++] = (char)('0' + b % 10);
    buf[n] = '\0';
}

/* Parses one pip: ASCII digits only, value 0..12; leading zeros allowed, any count. */
static int parse_pip(const char *s, size_t len)
{
    if (len == 0) return -1;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
        if (v > TILE_MAX_PIP) return -1;
    }
    return v;
}

tile_t tile_parse(const char *text, size_t len)
{
    size_t dash = 0;
    while (dash < len && text[dash] != '-') dash++;
    if (dash == len) return TILE_NONE;
    int a = parse_pip(text, dash);
    int b = parse_pip(text + dash + 1, len - dash - 1);
    if (a < 0 || b < 0) return TILE_NONE;
    return tile_from_pips(a, b);
}

tileset tileset_with_pip(int pip)
{
    assert(TILE_PIP_VALID(pip));
    return pip_sets[pip];
}

tileset tileset_all(void)
{
    tileset s = {~(uint64_t)0, ((uint64_t)1 << (TILE_COUNT - 64)) - 1};
    return s;
}
