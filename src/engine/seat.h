/* Seat queries: who is next, who is still in, what a hand is worth, the name of a
 * train, and the house rules' answer to a question. Read-only helpers that the turn
 * (move.c), the rounds (round.c) and the callers above the engine share. */
#ifndef MTREF_SEAT_H
#define MTREF_SEAT_H

#include "game.h"

/* The next seat still in the match after seat. */
int game_next_seat(const struct game *g, int seat);
/* Sum of tile values in a hand. */
int64_t game_hand_value(const struct game *g, tileset hand);
/* Seats still in the match. */
int game_players_in(const struct game *g);
/* How the protocol names a train: "mex", or its owner's name (static or in g). */
const char *game_train_name(const struct game *g, int train);
/* The answer to question q: the house rules' when a hook answers it, else canonical.
 * A failing hook sets v to its `rules` error (unless v already failed) and gives the
 * canonical answer: callers stop once v->code is set. */
int64_t game_ask(const struct game *g, enum rules_question q, tile_t tile, int train, int64_t canonical,
                 struct verdict *v);

#endif
