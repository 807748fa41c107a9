/* Seats, hands and trains: who is still in the match, who sits next, what a hand is
 * worth, what a train is called. The small queries the rest of the engine builds on. */
#include "seat.h"

#include <assert.h>

int game_next_seat(const struct game *g, int seat)
{
    assert(GAME_SEAT_VALID(g, seat));
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
    return tile_popcount(game_seat_table(g) & ~game_seat_flags(g->eliminated));
}

const char *game_train_name(const struct game *g, int train)
{
    assert(GAME_TRAIN_VALID(g, train));
    return train == TRAIN_MEX ? "mex" : g->names[train];
}

int64_t game_ask(const struct game *g, enum rules_question q, tile_t tile, int train, int64_t canonical,
                 struct verdict *v)
{
    const struct rules_hooks *h = &g->rules->hooks;
    if (!h->ask || !h->asks[q]) return canonical;
    int64_t answer = canonical;
    char err[RULES_MESSAGE_SIZE];
    err[0] = '\0';
    if (h->ask(h->ctx, g, q, tile, train, &answer, err) != 0) {
        if (v->code == ERR_NONE) verdict_fail(v, ERR_RULES, 0, "%s", err[0] ? err : "a rules hook failed");
        return canonical;
    }
    return answer;
}
