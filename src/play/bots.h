/* Built-in players: they choose a move for the seat to act, through the engine's
 * own list of legal moves, so they play under whatever rules are loaded. */
#ifndef MTREF_BOTS_H
#define MTREF_BOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

enum bot_kind {
    BOT_RANDOM,      /* any legal move, uniformly */
    BOT_GREEDY,      /* sheds the heaviest tile; lays a double when it can cover it */
};

/* Parses "random" / "greedy"; returns -1 for anything else. */
int bot_parse(const char *name, int len);
const char *bot_name(enum bot_kind kind);

/* The move kind chooses for the seat to act in g (a game in play). rng is the
 * player's own random stream (rng_next). */
struct move bot_choose(enum bot_kind kind, const struct game *g, uint64_t *rng);
/* Whether bot_greedy knows the turns of matches under r: no per-move hook. */
bool bot_greedy_knows(const struct rules *r);
/* Whether it knows the turn of g: the rules as above, the engine laid, the round in play. */
bool bot_greedy_applies(const struct game *g);
/* Greedy's move in such a turn, as bot_choose(BOT_GREEDY) makes it, without its draw
 * from the random stream: greedy draws only to pick the one move of a list of one
 * (rng_uniform(rng, 1), always 0), so a stream that only greedy reads never changes
 * a choice and self-play need not keep it. */
struct move bot_greedy(const struct game *g);
/* The same choice among moves[0..n), the legal moves of the seat to act in g. Greedy
 * reads only that seat's own hand, its own train's marker and the tile values, so a
 * game that holds just those (a bot's private view) chooses as the full game does. */
struct move bot_choose_among(enum bot_kind kind, const struct game *g, const struct move *moves, int n, uint64_t *rng);
/* The same choice made the plain way, by scoring game_legal_moves (what bot_choose
 * does under a per-move hook; tests compare the two). */
struct move bot_choose_from_list(enum bot_kind kind, const struct game *g, uint64_t *rng);

#endif
