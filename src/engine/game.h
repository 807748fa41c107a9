/* The state of one match: the plain-value types every part of the engine shares.
 *
 * A struct game has no pointers but the rules it reads, so a copy is a snapshot and
 * any number of games run side by side. The functions that change it are in engine.h;
 * this header is what round.c and seat.c see of it. */
#ifndef MTREF_GAME_H
#define MTREF_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "rules.h"
#include "tile.h"
#include "verdict.h"

#define GAME_NAME_MAX_LEN 16                 /* a player name is 1..16 characters */
#define TRAIN_MEX RULES_MAX_PLAYERS     /* the index of the Mexican train */
#define TRAIN_COUNT (RULES_MAX_PLAYERS + 1)
#define GAME_DOUBLES_MAX TILE_PIPS           /* uncovered doubles at once: one per pip at most */

/* Argument checks of the entry points (see TILE_VALID): a seat at the table, a train
 * of one or the Mexican train. */
#define GAME_SEAT_VALID(g, s) ((s) >= 0 && (s) < (g)->nplayers)
#define GAME_TRAIN_VALID(g, t) ((t) == TRAIN_MEX || GAME_SEAT_VALID(g, t))

struct train {
    int open_pip;                        /* [R6] the engine's pip while empty */
    bool marker;                         /* [R11][R12] */
    int length;
    unsigned char tiles[TILE_COUNT];     /* laid tiles, from the engine outwards */
};

struct uncovered_double {
    int train;
    int pip;
};

enum game_phase {
    PHASE_SETUP,        /* no deal or move accepted yet: set-up commands allowed */
    PHASE_DEALING,      /* a round waits for its hands */
    PHASE_PLAYING,
    PHASE_OVER,         /* the match has ended */
};

struct game {
    const struct rules *rules;           /* not owned; must outlive the game */
    enum game_phase phase;

    /* set-up */
    int nplayers;
    char names[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];
    int rounds;
    bool rounds_given;                   /* a `rounds` line set it (else the rules' default) */
    bool seeded;
    uint64_t rng;                        /* SplitMix64 state, see deal.h */

    /* the match */
    int round;                           /* 1, 2, ...: the round being dealt or played */
    int64_t totals[RULES_MAX_PLAYERS];
    bool eliminated[RULES_MAX_PLAYERS];
    int first_seat;                      /* [R4] who opened this round */

    /* the round */
    int engine_pip;
    tileset hands[RULES_MAX_PLAYERS];
    bool dealt[RULES_MAX_PLAYERS];
    tileset boneyard;
    int boneyard_order_len;              /* seeded: the boneyard in draw order */
    int boneyard_next;
    unsigned char boneyard_order[TILE_COUNT];
    struct train trains[TRAIN_COUNT];
    int turn;                            /* the seat to act */
    int draws;                           /* draws made for the current play [R17] */
    struct uncovered_double doubles[GAME_DOUBLES_MAX];   /* in the order they were played */
    int ndoubles;
    bool turn_began_owing;               /* a cover was owed when this turn began */
    bool had_turn[RULES_MAX_PLAYERS];    /* has had a turn this round */
    int idle_passes;                     /* idle passes in a row (move.c, end_turn) */
    /* for house rules: what this turn and round have done */
    int plays;                           /* plays made in this turn */
    int turn_draws;                      /* draws made in this turn */
    tile_t drew;                         /* the last tile drawn in this turn, or TILE_NONE */
    int pass_streak;                     /* turns in a row that ended with a pass */
    int wins[RULES_MAX_PLAYERS];         /* rounds won: gone out, or lowest hand of a block */
    bool won_last[RULES_MAX_PLAYERS];    /* the winners of the last round ended (wins' meaning) */
    bool engine_dealt;                   /* the engine is dealt with the rest (ASK_LAY_ENGINE) */
    bool hunting;                        /* nobody held it: players draw until it turns up */
    int engine_from;                     /* the seat that laid the engine from hand, or -1 */
};

/* A turn that has not ended after this many plays is a `rules` error. */
#define GAME_MAX_TURN_PLAYS 64

/* One action of a player. train is a seat or TRAIN_MEX; tile is TILE_NONE for a bare
 * draw (seeded games only) and for pass. */
enum move_kind { MOVE_PLAY, MOVE_DRAW, MOVE_PASS };
struct move {
    enum move_kind kind;
    int seat;
    tile_t tile;
    int train;
};

#endif
