/* The fast way of a deal line is the general one: the referee's fast path reads `deal
 * NAME A-B ...` with protocol_parse_deal_shape, which builds the hand's set as it reads,
 * and hands set and tiles to game_deal_hand; the general path tokenizes the line and
 * hands the tiles to game_deal. For every deal line of self-played matches (canonical
 * at 2 to 6 players, engine-from-hand, elimination, double-nine, double-fifteen), and
 * for mutations of each (a tile dropped, doubled, another seat's, the engine, out of
 * the set, the hand reordered, another seat named), both paths must read the same
 * tiles and leave the same game, byte for byte, and the same verdict; so must deals
 * out of place (a round in play, a seat out of the match, a seeded match). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "selfplay.h"

struct rule_set {
    const char *names[3];
    int players;
};
static const struct rule_set rule_sets[] = {
    {{NULL}, 2},
    {{NULL}, 4},
    {{NULL}, 6},
    {{"engine-from-hand", NULL}, 4},
    {{"elimination-100", "double-blank-50", NULL}, 3},
    {{"examples/double-nine", NULL}, 4},
    {{"examples/double-fifteen", NULL}, 4},
};
#define NSETS (sizeof rule_sets / sizeof rule_sets[0])

/* What the walk saw: the verdicts both paths gave, by their message's kind. */
static const char *const kinds[] = {
    "", "is dealt twice in the hand", "is already dealt", "the engine", "tiles dealt, the hand size",
    "is out of the match", "has already been dealt", "the referee deals",
};
#define NKINDS (sizeof kinds / sizeof kinds[0])
static struct {
    long compared, refused_by_shape;
    long kind[NKINDS];
} t;

static uint64_t next(uint64_t *rng)
{
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int below(uint64_t *rng, int n) { return (int)(next(rng) % (uint64_t)n); }

/* "deal NAME A-B ..." (sep between the words: " " is the records' spelling). */
static size_t spell(char *line, size_t size, const char *name, const tile_t *tiles, int n, const char *sep)
{
    size_t len = (size_t)snprintf(line, size, "deal%s%s", sep, name);
    for (int i = 0; i < n; i++) {
        char text[TILE_TEXT_SIZE];
        tile_format(tiles[i], text);
        len += (size_t)snprintf(line + len, size - len, "%s%s", sep, text);
    }
    assert_true(len < size);
    return len;
}

static bool in_set(const struct game *g, const tile_t *tiles, int n)
{
    for (int i = 0; i < n; i++)
        if (!tileset_has(g->rules->set_tiles, tiles[i])) return false;
    return true;
}

/* The deal of tiles[0..n) to seat in g both ways, on copies: the same tiles read, the
 * same game, the same verdict, each written whatever was in it before. */
static void deal_both(const struct game *g, int seat, const tile_t *tiles, int n)
{
    static struct command fast, general;
    static struct game a, b;
    char line[1024], spaced[1024], err[200];
    size_t len = spell(line, sizeof line, g->names[seat], tiles, n, " ");
    bool shaped = protocol_parse_deal_shape(line, len, g->rules->max_pip, &fast);
    size_t spaced_len = spell(spaced, sizeof spaced, g->names[seat], tiles, n, "  ");
    memcpy(spaced + spaced_len, " # a comment", 13);
    bool parsed = protocol_parse_set(spaced, spaced_len + 12, g->rules->max_pip, &general, err, sizeof err);
    if (!in_set(g, tiles, n) || n == 0) {
        /* a pip above the set: both readers refuse the line; no tile: the fast one (the
         * general one reads it, for game_deal to refuse) */
        assert_false(shaped);
        assert_true(n == 0 || !parsed);
        t.refused_by_shape++;
        return;
    }
    assert_true(shaped);
    assert_true(parsed);
    assert_int_equal(fast.kind, CMD_DEAL);
    assert_int_equal(general.kind, CMD_DEAL);
    assert_int_equal(fast.count, n);
    assert_int_equal(general.count, n);
    assert_memory_equal(fast.tiles, tiles, (size_t)n * sizeof tiles[0]);
    assert_memory_equal(general.tiles, tiles, (size_t)n * sizeof tiles[0]);
    tileset hand = tileset_empty();
    for (int i = 0; i < n; i++) tileset_add(&hand, tiles[i]);
    assert_true(tileset_equal(fast.hand, hand));
    assert_int_equal(game_find_player(g, fast.actor.text, fast.actor.len), seat);

    struct verdict va, vb;
    memset(&va, 0xA5, sizeof va);
    memset(&vb, 0x5A, sizeof vb);
    a = *g;
    b = *g;
    game_deal_hand(&a, seat, fast.hand, fast.tiles, fast.count, &va);
    game_deal(&b, seat, general.tiles, general.count, &vb);
    if (memcmp(&a, &b, sizeof a) != 0 || va.code != vb.code || va.rule != vb.rule ||
        strcmp(va.message, vb.message) != 0 || !tu_same_verdict(&va, &vb, g->nplayers))
        fail_msg("%s: the fast deal gives %d \"%s\", the general %d \"%s\"%s", line, va.code, va.message, vb.code,
                 vb.message, memcmp(&a, &b, sizeof a) ? ", and another game" : "");
    t.compared++;
    size_t k = NKINDS;
    while (--k > 0 && !strstr(va.message, kinds[k])) {}
    if (va.code == ERR_NONE) k = 0;
    t.kind[k]++;
}

/* The deal line's tiles changed one way; returns the new count. */
static int mutate(const struct game *g, int seat, tile_t *tiles, int n, uint64_t *rng)
{
    int at = below(rng, n);
    switch (below(rng, 9)) {
    case 0: memmove(tiles + at, tiles + at + 1, (size_t)(n - at - 1) * sizeof *tiles); return n - 1;
    case 1: tiles[n] = tiles[below(rng, n)]; return n + 1;                 /* a tile twice */
    case 2:                                                                /* another seat's */
        for (int s = 0; s < g->nplayers; s++)
            if (s != seat && !tileset_is_empty(g->hands[s])) {
                tileset h = g->hands[s];
                for (int skip = below(rng, 8); skip > 0 && tileset_count(h) > 1; skip--) tileset_pop(&h);
                tiles[at] = tileset_pop(&h);
                break;
            }
        return n;
    case 3: tiles[at] = tile_double(g->engine_pip); return n;             /* the engine */
    case 4: tiles[at] = below(rng, TILE_COUNT); return n;                 /* any tile, maybe not of the set */
    case 5: tiles[n] = below(rng, TILE_COUNT); return n + 1;              /* one too many */
    case 6:                                                               /* reordered */
        for (int i = n - 1; i > 0; i--) {
            int j = below(rng, i + 1);
            tile_t swap = tiles[i];
            tiles[i] = tiles[j];
            tiles[j] = swap;
        }
        return n;
    case 7: return below(rng, n + 1);                                     /* too few, maybe none */
    default: tiles[at] = tiles[(at + 1) % n]; tiles[n] = tile_double(g->engine_pip); return n + 1;
    }
}

/* A deal line of the record, then mutations of it, to its seat or another. */
static void deal_line(const struct game *g, const struct command *cmd, uint64_t *rng)
{
    int seat = game_find_player(g, cmd->actor.text, cmd->actor.len);
    assert_true(seat >= 0);
    deal_both(g, seat, cmd->tiles, cmd->count);
    for (int m = 0; m < 24; m++) {
        tile_t tiles[64];
        int n = cmd->count;
        memcpy(tiles, cmd->tiles, (size_t)n * sizeof tiles[0]);
        for (int times = 1 + below(rng, 2); times > 0 && n > 0 && n < 60; times--) n = mutate(g, seat, tiles, n, rng);
        deal_both(g, m % 4 == 3 ? below(rng, g->nplayers) : seat, tiles, n);
    }
}

/* Deals out of place: a hand of the set to a random seat, as the game is, and seeded. */
static void deal_elsewhere(const struct game *g, uint64_t *rng)
{
    static struct game seeded;
    tile_t tiles[64];
    int size = g->rules->hand_size[g->nplayers];
    int n = 0;
    for (tileset rest = g->rules->set_tiles; n < size && !tileset_is_empty(rest);) {
        tile_t tile = tileset_pop(&rest);
        if (below(rng, 4) == 0) tiles[n++] = tile;
    }
    if (n == 0) return;
    int seat = below(rng, g->nplayers);
    deal_both(g, seat, tiles, n);
    seeded = *g;
    seeded.seeded = true;
    deal_both(&seeded, seat, tiles, n);
}

static void walk_record(const char *text, uint64_t seed)
{
    struct referee *ref = tu_session(NULL, 0);
    static struct command cmd;
    uint64_t rng = seed;
    long number = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const struct game *g = &ref->game;
        number++;
        if (len > 5 && memcmp(line, "deal ", 5) == 0) {
            assert_true(protocol_parse_deal_shape(line, len, g->rules->max_pip, &cmd));
            deal_line(g, &cmd, &rng);
        } else if (g->nplayers && number % 17 == 0) {
            deal_elsewhere(g, &rng);
        }
        char copy[PROTOCOL_LINE_MAX + 1];
        memcpy(copy, line, len);
        copy[len] = '\0';
        if (tu_line(ref, copy) != ERR_NONE) fail_msg("line %ld refused: %s: %s", number, copy, tu_last()->message);
        line += len + (end != NULL);
    }
    tu_free(ref);
}

static void walk_all(void **state)
{
    (void)state;
    for (size_t r = 0; r < NSETS; r++) {
        char paths[3][4096];
        const char *files[3];
        int n = tu_rule_files(rule_sets[r].names, paths, files);
        struct selfplay_options o;
        selfplay_defaults(&o);
        o.players = rule_sets[r].players;
        o.games = 8;
        o.seed = 41 + r;
        o.bots[0] = BOT_GREEDY;
        o.bots[1] = BOT_RANDOM;
        o.nbots = 2;
        char *text, err[RULES_MESSAGE_SIZE];
        if (tu_selfplay(&o, files, n, &text, NULL, err) != 0) fail_msg("selfplay: %s", err);
        walk_record(text, 7919 * (r + 1));
        free(text);
    }
    print_message("%ld deals compared (%ld refused by both readers):", t.compared, t.refused_by_shape);
    for (size_t k = 0; k < NKINDS; k++) print_message(" %s %ld;", k ? kinds[k] : "accepted", t.kind[k]);
    print_message("\n");
    assert_true(t.compared > 50000);
    for (size_t k = 0; k < NKINDS; k++)
        if (t.kind[k] == 0) fail_msg("no deal gave \"%s\"", k ? kinds[k] : "ok");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
