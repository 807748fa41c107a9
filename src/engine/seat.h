/* Seat queries: who is next, who is still in, what a hand is worth, the name of a
 * train, and the house rules' answer to a question. Read-only helpers that the turn
 * (move.c), the rounds (round.c) and the callers above the engine share. */
#ifndef MTREF_SEAT_H
#define MTREF_SEAT_H

#include <string.h>

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

/* The seats of the table, bit s for seat s. */
static inline uint32_t game_seat_table(const struct game *g) { return (1u << g->nplayers) - 1; }
/* The seats whose flag is set in flags, one of g's arrays of a bool a seat (eliminated,
 * dealt, ...), bit s for seat s, seats past the table's included: mask them with
 * game_seat_table. Gathered by one multiply a word, not by a loop, whose test of each
 * seat's flag is a branch on data, often mispredicted. */
_Static_assert(RULES_MAX_PLAYERS == 16, "game_seat_flags reads two words of flags");
_Static_assert(sizeof(bool) == 1, "game_seat_flags reads a flag a byte");
static inline uint32_t game_seat_flags(const bool flags[RULES_MAX_PLAYERS])
{
    /* each flag is a byte 0 or 1: the multiply moves byte i's bit to bit 56 + i, and
     * no two of its products land on the same bit (no carry) */
    const uint64_t gather = 0x0102040810204080ULL;
    uint64_t lo, hi;
    memcpy(&lo, flags, 8);
    memcpy(&hi, flags + 8, 8);
    return (uint32_t)((lo * gather) >> 56) | (uint32_t)((hi * gather) >> 56) << 8;
}
/* The seats still in the match that wait for their hand of this round. */
static inline uint32_t game_seats_undealt(const struct game *g)
{
    return game_seat_table(g) & ~(game_seat_flags(g->eliminated) | game_seat_flags(g->dealt));
}

#endif
