/* The game engine: the state of one match and the moves that change it.
 *
 * Pure: a struct game is a plain value (no pointers but the rules it reads), every
 * call is state + move -> verdict, nothing here does I/O or keeps globals (but the
 * invariant check of fuzz builds, which reports and aborts), so any number of games
 * run side by side and a copy of a game is a snapshot. The callers
 * (the referee session, the built-in players) resolve names to seats first. */
#ifndef MTREF_ENGINE_H
#define MTREF_ENGINE_H

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
    int idle_passes;                     /* passes in a row with an empty boneyard */
    /* for house rules: what this turn and round have done */
    int plays;                           /* plays made in this turn */
    int turn_draws;                      /* draws made in this turn */
    tile_t drew;                         /* the last tile drawn in this turn, or TILE_NONE */
    int pass_streak;                     /* turns in a row that ended with a pass */
    int wins[RULES_MAX_PLAYERS];         /* rounds won: gone out, or lowest hand of a block */
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

/* Starts an empty match under rules (not owned). No players yet. */
void game_init(struct game *g, const struct rules *rules);

/* Set-up. Each returns the verdict of the line; a rejected line changes nothing.
 * names holds n NUL-terminated valid names (the reader checked their spelling). */
void game_set_players(struct game *g, int n, const char *const names[], struct verdict *v);
void game_set_rounds(struct game *g, int rounds, struct verdict *v);
void game_set_seed(struct game *g, uint64_t seed, struct verdict *v);
/* Plays on under new rules (set-up only; rules not owned). Answers `rules`, changing
 * nothing, when the players or the rounds already set do not fit them. */
void game_set_rules(struct game *g, const struct rules *rules, struct verdict *v);

/* `round N` [R3]. */
void game_assert_round(struct game *g, long long n, struct verdict *v);
/* `deal` [R5][R23]: tiles[0..count) as read, duplicates included. */
void game_deal(struct game *g, int seat, const tile_t *tiles, int count, struct verdict *v);
/* `play`, `draw`, `pass` [R7]-[R20]; fills v's events when the move ends a round. */
void game_move(struct game *g, const struct move *m, struct verdict *v);

/* Queries. */
int game_find_player(const struct game *g, const char *name, int len);  /* seat or -1 */
bool game_is_over(const struct game *g);
bool game_setup_open(const struct game *g);
bool game_needs_deal(const struct game *g);       /* moves wait for hands */
/* A copy of g with the round dealt when the referee deals it (seeded) and has not yet. */
void game_snapshot(const struct game *g, struct game *out);

/* The moves the current player may make now, in a stable order: plays by tile then
 * train (own, others by seat, mex), then draw, then pass. Returns how many were
 * written (at most max); a seeded-or-not draw is listed with tile TILE_NONE. */
int game_legal_moves(const struct game *g, struct move *out, int max);
/* The same, but a failing hook returns -1 with v set to its `rules` error (v is
 * reset first). */
int game_legal_moves_checked(const struct game *g, struct move *out, int max, struct verdict *v);
#define GAME_MAX_LEGAL (TILE_COUNT * TRAIN_COUNT + 2)

/* Tiles accounted for: hands + boneyard + trains + engine == the 91, each once. */
bool game_tiles_conserved(const struct game *g);

/* The engine's invariants: tiles conserved, no marker on the Mexican train, at most
 * the allowed uncovered doubles, each at the end of its train, trains only for seated
 * players, a turn that belongs to one. Sets *why (static text) when one fails.
 * Builds with MTREF_INVARIANTS check it after every accepted move and abort. */
bool game_invariants_hold(const struct game *g, const char **why);

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
