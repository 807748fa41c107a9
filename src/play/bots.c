/* Built-in players: random and greedy. */
#include "bots.h"

#include <string.h>

#include "rng.h"

int bot_parse(const char *name, int len)
{
    if (len == 6 && memcmp(name, "random", 6) == 0) return BOT_RANDOM;
    if (len == 6 && memcmp(name, "greedy", 6) == 0) return BOT_GREEDY;
    return -1;
}

const char *bot_name(enum bot_kind kind) { return kind == BOT_GREEDY ? "greedy" : "random"; }

/* Greedy's taste: heavy tiles first (they are the penalty), a double only with its
 * cover in hand, its own train before others (it lifts the marker). */
static long greedy_score(const struct game *g, const struct move *m)
{
    int seat = m->seat;
    if (m->kind != MOVE_PLAY) return -1000;      /* a draw or pass offered beside plays: last */
    long score = 10L * g->rules->tile_value[m->tile];
    if (tile_is_double(m->tile)) {
        tileset rest = g->hands[seat];
        tileset_remove(&rest, m->tile);
        bool can_cover = !tileset_is_empty(tileset_and(rest, tileset_with_pip(tile_low(m->tile))));
        score += can_cover ? 60 : -40;
    }
    if (m->train == seat) score += g->trains[seat].marker ? 8 : 3;
    return score;
}

/* Greedy without the list: the same choice as scoring game_legal_moves, found from
 * the tile masks. A tile's best play is on the player's own train when it fits there
 * (the only train with a bonus), else on the first train of the list's order that it
 * fits; the best tile is the first in tile order with the highest score. This reads
 * the legality rules of move.c (the owed double, open trains, the first-turn limit,
 * the draw owed): tests/test_bots.c holds the two ways to the same answer under every
 * shipped rules file. Not used with a per-move hook, whose answers only the list has. */

/* The double the player to act must cover, as move.c's owed_double. */
static const struct uncovered_double *greedy_owed(const struct game *g)
{
    if (g->ndoubles == 0) return 0;
    switch (g->rules->doubles) {
    case DOUBLES_ANYWHERE_LIFO: return g->turn_began_owing ? &g->doubles[g->ndoubles - 1] : 0;
    case DOUBLES_ANYWHERE_FIFO: return g->turn_began_owing ? &g->doubles[0] : 0;
    default: return &g->doubles[0];
    }
}

/* The tiles of the set showing pip; without `wide` (every set but double-fifteen, whose
 * tiles 128..135 are the only ones in the third word) the third word is known to be
 * empty, so the compiler drops it from every step below. */
static inline __attribute__((always_inline)) tileset greedy_pips(int pip, bool wide)
{
    tileset s = tileset_with_pip(pip);
    if (!wide) s.word[2] = 0;
    return s;
}

/* The first tile of the highest score so far. */
struct greedy_best {
    tile_t tile;
    long score;
};

/* Scores the tiles of one word of the set (bits, tile ids from base up; own_bits
 * those that fit the seat's own train) into *best. */
static inline __attribute__((always_inline)) void greedy_scan(const struct game *g, tileset hand, const bool wide,
                                                              uint64_t bits, uint64_t own_bits, int base,
                                                              long own_bonus, struct greedy_best *best)
{
    const int *value = g->rules->tile_value;
    for (; bits; bits &= bits - 1) {
        int bit = __builtin_ctzll(bits);
        tile_t t = base + bit;
        long score = 10L * value[t] + ((own_bits >> bit) & 1 ? own_bonus : 0);
        if (tile_is_double(t))     /* its cover in hand: another tile showing its pip */
            score += tileset_at_most_one(tileset_and(hand, greedy_pips(tile_low(t), wide))) ? -40 : 60;
        if (best->tile == TILE_NONE || score > best->score) {
            best->tile = t;
            best->score = score;
        }
    }
}

/* Greedy's move from the masks. The trains open to the seat are its own, then (unless
 * first-turn-own-train holds it to its own) the marked trains of others in seat order,
 * then the Mexican train; a double owed narrows them to the double's train. A marker
 * lies only on the train of a seat that has acted this round, so never on an
 * eliminated seat's (game_invariants_hold checks it): the marker alone says "open".
 * When nplays is not NULL it is set to 0, 1 or 2 for none, one, or more legal plays
 * (what the list's length would be, 2 standing for any more). */
static inline __attribute__((always_inline)) struct move greedy_masks(const struct game *g, const bool wide,
                                                                      int *nplays)
{
    int seat = g->turn;
    const struct train *trains = g->trains;
    tileset hand = g->hands[seat];
    if (!wide) hand.word[2] = 0;
    const struct uncovered_double *owed = greedy_owed(g);
    tileset tiles;
    bool others = false;     /* trains besides the seat's own are open to it */
    if (owed) {
        tiles = tileset_and(hand, greedy_pips(owed->pip, wide));
    } else {
        tileset reach = greedy_pips(trains[seat].open_pip, wide);
        if (!(g->rules->first_turn_own_train && !g->had_turn[seat])) {
            others = true;
            reach = tileset_or(reach, greedy_pips(trains[TRAIN_MEX].open_pip, wide));
            /* the seat's own marker adds its own pip again: no test needed */
            for (int o = 0; o < g->nplayers; o++)
                if (trains[o].marker) reach = tileset_or(reach, greedy_pips(trains[o].open_pip, wide));
        }
        tiles = tileset_and(hand, reach);
    }
    if (tileset_is_empty(tiles)) {
        if (nplays) *nplays = 0;
        bool draw = !tileset_is_empty(g->boneyard) && (g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0);
        return (struct move){draw ? MOVE_DRAW : MOVE_PASS, seat, TILE_NONE, 0};
    }
    bool own_first = owed ? owed->train == seat : true;
    tileset own = own_first ? tileset_and(tiles, greedy_pips(trains[seat].open_pip, wide)) : tileset_empty();
    long own_bonus = trains[seat].marker ? 8 : 3;
    struct greedy_best best = {TILE_NONE, 0};
    /* in tile order, the words of the set one after the other */
    greedy_scan(g, hand, wide, tiles.word[0], own.word[0], 0, own_bonus, &best);
    greedy_scan(g, hand, wide, tiles.word[1], own.word[1], 64, own_bonus, &best);
    if (wide) greedy_scan(g, hand, wide, tiles.word[2], own.word[2], 128, own_bonus, &best);
    tile_t best_tile = best.tile;
    int train = TRAIN_MEX;
    if (owed) {
        train = owed->train;
    } else if (tileset_has(own, best_tile)) {
        train = seat;
    } else {
        for (int o = 0; o < g->nplayers; o++)
            if (o != seat && trains[o].marker && tile_has_pip(best_tile, trains[o].open_pip)) {
                train = o;
                break;
            }
    }
    if (nplays) {
        if (!tileset_at_most_one(tiles) || owed) {
            *nplays = tileset_at_most_one(tiles) ? 1 : 2;
        } else {     /* one tile: on how many trains? */
            int n = tile_has_pip(best_tile, trains[seat].open_pip);
            if (others) {
                n += tile_has_pip(best_tile, trains[TRAIN_MEX].open_pip);
                for (int o = 0; o < g->nplayers; o++)
                    n += o != seat && trains[o].marker && tile_has_pip(best_tile, trains[o].open_pip);
            }
            *nplays = n > 1 ? 2 : n;
        }
    }
    return (struct move){MOVE_PLAY, seat, best_tile, train};
}

/* bot_choose's greedy: the masks' move, and the draw of the list's length from rng. */
static struct move greedy_from_masks(const struct game *g, uint64_t *rng)
{
    int nplays;
    struct move m = g->rules->max_pip == TILE_MAX_PIP ? greedy_masks(g, true, &nplays)
                                                      : greedy_masks(g, false, &nplays);
    /* a list of one move (a draw, a pass, or the only play) is still drawn from,
     * rng_uniform(rng, 1): one rng_next */
    if (nplays < 2) rng_next(rng);
    return m;
}

bool bot_greedy_knows(const struct rules *r) { return !r->hooks.may_play && !r->hooks.asks_per_move; }

bool bot_greedy_applies(const struct game *g)
{
    return bot_greedy_knows(g->rules) && !g->hunting && g->phase == PHASE_PLAYING;
}

struct move bot_greedy(const struct game *g)
{
    return g->rules->max_pip == TILE_MAX_PIP ? greedy_masks(g, true, 0) : greedy_masks(g, false, 0);
}

struct move bot_choose(enum bot_kind kind, const struct game *g, uint64_t *rng)
{
    /* the masks know the canonical turn only: any hook on the turn, or the hunt for an
     * engine laid from a hand, goes through the legal list */
    if (kind == BOT_GREEDY && bot_greedy_applies(g)) return greedy_from_masks(g, rng);
    return bot_choose_from_list(kind, g, rng);
}

struct move bot_choose_from_list(enum bot_kind kind, const struct game *g, uint64_t *rng)
{
    struct move moves[GAME_MAX_LEGAL];
    int n = game_legal_moves(g, moves, GAME_MAX_LEGAL);
    return bot_choose_among(kind, g, moves, n, rng);
}

struct move bot_choose_among(enum bot_kind kind, const struct game *g, const struct move *moves, int n, uint64_t *rng)
{
    if (n <= 0) return (struct move){MOVE_PASS, g->turn, TILE_NONE, 0};
    if (kind == BOT_RANDOM || n == 1) return moves[rng_uniform(rng, (uint64_t)n)];
    /* plays come first: a pass a house rule offers beside them is greedy's last choice */
    while (n > 1 && moves[n - 1].kind != MOVE_PLAY) n--;
    int best = 0;
    long best_score = greedy_score(g, &moves[0]);
    for (int i = 1; i < n; i++) {
        long s = greedy_score(g, &moves[i]);
        if (s > best_score) { best = i; best_score = s; }
    }
    return moves[best];
}
