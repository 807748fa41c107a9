/* The private view: what one seat may know of a match, and nothing more.
 *
 * One pure function (view_of) copies out of a game the public table (trains with
 * their open ends and markers, uncovered doubles, every hand's size, the boneyard's
 * size, totals, whose turn, round, engine) and the seat's own hand. The hidden part
 * (other hands, the boneyard and its order, the seed) never enters the value, so a
 * view formatted from it cannot reveal them; tests permute the hidden tiles and
 * compare views byte for byte. `show NAME` and the bot protocol both print it. */
#ifndef MTREF_VIEW_H
#define MTREF_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct seat_view {
    int seat;                                   /* the viewer */
    int nplayers;
    char names[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];
    enum game_phase phase;
    int round, rounds;
    int engine_pip;                             /* -1 during set-up */
    int turn;                                   /* the seat to act, -1 unless playing */
    int draws;                                  /* draws the player to act made for this play */
    int boneyard;                               /* tiles left to draw */
    bool eliminated[RULES_MAX_PLAYERS];
    bool dealt[RULES_MAX_PLAYERS];
    int hand_size[RULES_MAX_PLAYERS];
    tileset hand;                               /* the viewer's own tiles */
    struct train trains[TRAIN_COUNT];           /* tiles past length are zero */
    struct uncovered_double doubles[GAME_DOUBLES_MAX];
    int ndoubles;
    int64_t totals[RULES_MAX_PLAYERS];
};

/* Fills *v with seat's view of g (0 <= seat < g->nplayers). Every byte of *v is
 * set (padding included), so two views compare with memcmp. Pass a snapshot
 * (game_snapshot) to see a seeded round the referee has not dealt yet. */
void view_of(const struct game *g, int seat, struct seat_view *v);

/* A train's name in the view: its owner's, or "mex". */
const char *view_train_name(const struct seat_view *v, int t);

/* n in decimal at the start of out, without printf (a bot is sent numbers at every
 * decision, and the match runner writes its messages the same way); returns the
 * length. Not NUL-terminated. */
#define VIEW_DECIMAL_SIZE 24        /* a long long's digits and its sign */
size_t view_decimal(long long n, char out[VIEW_DECIMAL_SIZE]);

/* Bytes any formatted view fits in (names, 17 trains of at most 91 tiles). */
#define VIEW_TEXT_MAX 24576

/* The view as lines of the bot protocol (mtref-bot(7)), each ending in '\n':
 *   view NAME round R of N engine E turn T boneyard B
 *   hand A-B ...
 *   train NAME|mex OPEN marked|unmarked A-B ...   (seat order, then mex)
 *   uncovered D-D TRAIN                            (0 or more, queue order)
 *   sizes NAME N ...
 *   totals NAME N ...
 * Writes at most size bytes (NUL included); returns the length. */
size_t view_format_lines(const struct seat_view *v, char *buf, size_t size);

/* The view as the fields of a JSON object, without the braces:
 *   "player":..,"phase":..,"round":..,"rounds":..,"engine":..,"turn":..,"boneyard":..,
 *   "trains":[..],"uncovered":[..],"hand":[..],"hand_sizes":{..},"totals":{..}
 * Writes at most size bytes (NUL included); returns the length. */
size_t view_format_json(const struct seat_view *v, char *buf, size_t size);

#endif
