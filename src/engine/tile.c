/* Tiles of the sets double-six to double-fifteen: indexing, parsing, formatting. */
#include "tile.h"

#include <assert.h>

/* Tiles showing each pip; tests/test_tile.c recomputes this table from tile_has_pip. */
static const uint64_t pip_sets[TILE_PIPS][3] = {
    {0x0000000000001fffULL, 0x0100020008000000ULL, 0x00ULL},
    {0x0000000001ffe002ULL, 0x0200040010000000ULL, 0x00ULL},
    {0x0000000ffe004004ULL, 0x0400080020000000ULL, 0x00ULL},
    {0x00003ff004008008ULL, 0x0800100040000000ULL, 0x00ULL},
    {0x007fc02008010010ULL, 0x1000200080000000ULL, 0x00ULL},
    {0x7f80804010020020ULL, 0x2000400100000000ULL, 0x00ULL},
    {0x8101008020040040ULL, 0x400080020000003fULL, 0x00ULL},
    {0x0202010040080080ULL, 0x8001000400000fc1ULL, 0x00ULL},
    {0x0404020080100100ULL, 0x000200080001f082ULL, 0x01ULL},
    {0x0808040100200200ULL, 0x00040010001e2104ULL, 0x02ULL},
    {0x1010080200400400ULL, 0x0008002000e44208ULL, 0x04ULL},
    {0x2020100400800800ULL, 0x0010004003488410ULL, 0x08ULL},
    {0x4040200801001000ULL, 0x0020008006910820ULL, 0x10ULL},
    {0x0000000000000000ULL, 0x004001fff8000000ULL, 0x20ULL},
    {0x0000000000000000ULL, 0x00fffe0000000000ULL, 0x40ULL},
    {0x0000000000000000ULL, 0xff00000000000000ULL, 0xffULL},
};

/* Low and high pip of each tile, in tile order. */
static const unsigned char tile_pip_pairs[TILE_COUNT][2] = {
    {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 9}, {0, 10},
    {0, 11}, {0, 12}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}, {1, 8}, {1, 9},
    {1, 10}, {1, 11}, {1, 12}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {2, 6}, {2, 7}, {2, 8}, {2, 9},
    {2, 10}, {2, 11}, {2, 12}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7}, {3, 8}, {3, 9}, {3, 10},
    {3, 11}, {3, 12}, {4, 4}, {4, 5}, {4, 6}, {4, 7}, {4, 8}, {4, 9}, {4, 10}, {4, 11}, {4, 12},
    {5, 5}, {5, 6}, {5, 7}, {5, 8}, {5, 9}, {5, 10}, {5, 11}, {5, 12}, {6, 6}, {6, 7}, {6, 8},
    {6, 9}, {6, 10}, {6, 11}, {6, 12}, {7, 7}, {7, 8}, {7, 9}, {7, 10}, {7, 11}, {7, 12}, {8, 8},
    {8, 9}, {8, 10}, {8, 11}, {8, 12}, {9, 9}, {9, 10}, {9, 11}, {9, 12}, {10, 10}, {10, 11},
    {10, 12}, {11, 11}, {11, 12}, {12, 12}, {0, 13}, {1, 13}, {2, 13}, {3, 13}, {4, 13}, {5, 13},
    {6, 13}, {7, 13}, {8, 13}, {9, 13}, {10, 13}, {11, 13}, {12, 13}, {13, 13}, {0, 14}, {1, 14},
    {2, 14}, {3, 14}, {4, 14}, {5, 14}, {6, 14}, {7, 14}, {8, 14}, {9, 14}, {10, 14}, {11, 14},
    {12, 14}, {13, 14}, {14, 14}, {0, 15}, {1, 15}, {2, 15}, {3, 15}, {4, 15}, {5, 15}, {6, 15},
    {7, 15}, {8, 15}, {9, 15}, {10, 15}, {11, 15}, {12, 15}, {13, 15}, {14, 15}, {15, 15},
};

/* The id of a-b (a <= b): within double-twelve, row a of the triangle starts after
 * the 13 + 12 + ... tiles of the rows below it, a * (27 - a) / 2, so a-b is that plus
 * b - a; a tile with b above 12 comes after the b(b+1)/2 tiles whose pips are all
 * below b (the 91 of double-twelve first): b(b+1)/2 + a. tests/test_tile.c checks
 * the table against both formulas' properties. */
const unsigned char tile_ids[TILE_PIPS][TILE_PIPS] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 91, 105, 120},
    {1, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 92, 106, 121},
    {2, 14, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 93, 107, 122},
    {3, 15, 26, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 94, 108, 123},
    {4, 16, 27, 37, 46, 47, 48, 49, 50, 51, 52, 53, 54, 95, 109, 124},
    {5, 17, 28, 38, 47, 55, 56, 57, 58, 59, 60, 61, 62, 96, 110, 125},
    {6, 18, 29, 39, 48, 56, 63, 64, 65, 66, 67, 68, 69, 97, 111, 126},
    {7, 19, 30, 40, 49, 57, 64, 70, 71, 72, 73, 74, 75, 98, 112, 127},
    {8, 20, 31, 41, 50, 58, 65, 71, 76, 77, 78, 79, 80, 99, 113, 128},
    {9, 21, 32, 42, 51, 59, 66, 72, 77, 81, 82, 83, 84, 100, 114, 129},
    {10, 22, 33, 43, 52, 60, 67, 73, 78, 82, 85, 86, 87, 101, 115, 130},
    {11, 23, 34, 44, 53, 61, 68, 74, 79, 83, 86, 88, 89, 102, 116, 131},
    {12, 24, 35, 45, 54, 62, 69, 75, 80, 84, 87, 89, 90, 103, 117, 132},
    {91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 118, 133},
    {105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 134},
    {120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135},
};

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
    assert(TILE_PIP_VALID(pip) && TILE_VALID(t));
    return (pip_sets[pip][t >> 6] >> (t & 63)) & 1;     /* a word of the table: no branch */
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

/* Parses one pip: ASCII digits only, value 0..15; leading zeros allowed, any count. */
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
    tileset s = {{pip_sets[pip][0], pip_sets[pip][1], pip_sets[pip][2]}};
    return s;
}

tileset tileset_all(void)
{
    tileset s = {{~(uint64_t)0, ((uint64_t)1 << (TILE_CANONICAL_COUNT - 64)) - 1, 0}};
    return s;
}

tileset tileset_of_set(int max_pip)
{
    assert(TILE_PIP_VALID(max_pip));
    tileset s = tileset_empty();
    for (int b = 0; b <= max_pip; b++)
        for (int a = 0; a <= b; a++) tileset_add(&s, tile_from_pips(a, b));
    return s;
}

int tile_set_size(int max_pip) { return (max_pip + 1) * (max_pip + 2) / 2; }

int tile_set_order(int max_pip, unsigned char order[])
{
    assert(TILE_PIP_VALID(max_pip));
    int n = 0;
    for (int a = 0; a <= max_pip; a++)
        for (int b = a; b <= max_pip; b++) order[n++] = (unsigned char)tile_from_pips(a, b);
    return n;
}

const char *tile_set_name(int max_pip)
{
    static const char *const names[TILE_PIPS] = {
        "double-zero", "double-one", "double-two", "double-three", "double-four", "double-five", "double-six",
        "double-seven", "double-eight", "double-nine", "double-ten", "double-eleven", "double-twelve",
        "double-thirteen", "double-fourteen", "double-fifteen",
    };
    return TILE_PIP_VALID(max_pip) ? names[max_pip] : "unknown";
}
