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

struct move bot_choose(enum bot_kind kind, const struct game *g, uint64_t *rng)
{
    struct move moves[GAME_MAX_LEGAL];
    int n = game_legal_moves(g, moves, GAME_MAX_LEGAL);
    return bot_choose_among(kind, g, moves, n, rng);
}

struct move bot_choose_among(enum bot_kind kind, const struct game *g, const struct move *moves, int n, uint64_t *rng)
{
    if (n <= 0) return (struct move){MOVE_PASS, g->turn, TILE_NONE, 0};
    if (kind == BOT_RANDOM || n == 1) return moves[rng_uniform(rng, (uint64_t)n)];
    int best = 0;
    long best_score = greedy_score(g, &moves[0]);
    for (int i = 1; i < n; i++) {
        long s = greedy_score(g, &moves[i]);
        if (s > best_score) { best = i; best_score = s; }
    }
    return moves[best];
}
