/* Seats and hands: who is still in the match, who sits next, what a hand is worth.
 * The small queries the rest of the engine builds on (below engine, round, move). */
#include "engine.h"

int game_next_seat(const struct game *g, int seat)
{
    /* once per turn: a wrap-around, not a division */
    int s = seat;
    for (int i = 1; i <= g->nplayers; i++) {
        if (++s >= g->nplayers) s = 0;
        if (!g->eliminated[s]) return s;
    }
    return seat;
}

int64_t game_hand_value(const struct game *g, tileset hand)
{
    int64_t sum = 0;
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;)
        sum += g->rules->tile_value[t];
    return sum;
}

int game_players_in(const struct game *g)
{
    int n = 0;
    for (int s = 0; s < g->nplayers; s++) n += !g->eliminated[s];
    return n;
}
