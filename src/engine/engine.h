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

#include "game.h"
#include "seat.h"

/* The types of a match are in game.h, the seat queries in seat.h. */

/* Starts an empty match under rules (not owned). No players yet. */
void game_init(struct game *g, const struct rules *rules);

/* A call that answers a line writes its verdict: what the caller left in v never
 * counts (the quick ways below write it only when they accept the move). */

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
/* game_deal with hand, the set of tiles[0..count), built by the caller as it read them
 * (the referee's fast path, in the same pass): the same game and verdict. The tiles
 * are read only when the hand has a fault, to find the first tile that shows it.
 * Debug builds assert that hand is their set. */
void game_deal_hand(struct game *g, int seat, tileset hand, const tile_t *tiles, int count, struct verdict *v);
/* `play`, `draw`, `pass` [R7]-[R20]; fills v's events when the move ends a round. */
void game_move(struct game *g, const struct move *m, struct verdict *v);
/* game_move for a move already known legal: one of game_legal_moves' list (or the
 * same move found another way) for the game as it is now. Where no hook has a say in
 * the move and it can neither start nor end a round with a hook to call, it is applied
 * without the checks of game_move (the same game and verdict: Debug builds assert it
 * against game_move on a copy); any other move goes through game_move. */
void game_apply_known(struct game *g, const struct move *m, struct verdict *v);
/* The quick ways of the player to act (the referee's fast path): each makes the move
 * and returns true, with game and verdict as game_move would leave them, when the
 * turn is plain (no hook has a say, no round starts, none ends with a hook to call)
 * and the move legal; else it returns false and changes nothing, and game_move must
 * judge the move. Debug builds assert every move they make against game_move. */
bool game_play_quick(struct game *g, int train, tile_t tile, struct verdict *v);
bool game_draw_quick(struct game *g, tile_t tile, struct verdict *v);   /* TILE_NONE: seeded */
bool game_pass_quick(struct game *g, struct verdict *v);

/* Queries. */
int game_find_player(const struct game *g, const char *name, int len);  /* seat or -1 */
bool game_is_over(const struct game *g);
bool game_setup_open(const struct game *g);
bool game_needs_deal(const struct game *g);       /* moves wait for hands */
/* A copy of g with the round dealt when the referee deals it (seeded) and has not yet. */
void game_snapshot(const struct game *g, struct game *out);
/* The same in g itself: deals the seeded round it waits for. False, with g as it was,
 * when a rules hook failed while dealing (the round still waits for its hands). */
bool game_deal_seeded(struct game *g);

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

#endif
