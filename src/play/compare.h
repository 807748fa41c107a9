/* What a rule set does to the game: self-played matches under it, counted. The
 * figures `mtref compare` puts side by side for two rule sets on the same seeds. */
#ifndef MTREF_COMPARE_H
#define MTREF_COMPARE_H

#include <stdbool.h>

#include "referee.h"
#include "selfplay.h"

struct compare_tally {
    long matches;
    long rounds, blocked;              /* rounds played; of them, blocked [R20] */
    long moves;                        /* plays, draws and passes */
    double moves_sq;                   /* sum over rounds of (moves in the round)^2 */
    long totals;                       /* final totals counted (players x matches) */
    double total_sum, total_sq;        /* of each player's final total */
    double match_mean_sum, match_mean_sq;   /* of each match's mean final total */
    double first_wins;                 /* matches won by the first seat (a shared win counts its share) */
    long doubles, doubles_left;        /* doubles played; of them, left uncovered when the turn ended */
};

/* A figure with its 95% interval. */
struct compare_figure {
    double value, low, high;
};

enum compare_row {
    COMPARE_MEAN_TOTAL,        /* a player's final total, mean */
    COMPARE_SPREAD,            /* standard deviation of the final totals */
    COMPARE_BLOCKED,           /* share of rounds blocked */
    COMPARE_MOVES,             /* moves per round, mean */
    COMPARE_FIRST_WINS,        /* share of matches won by the first seat */
    COMPARE_DOUBLES_LEFT,      /* share of doubles left uncovered by the player who laid them */
    COMPARE_ROWS
};

/* Plays o->games matches (the seeds of `mtref selfplay` with the same options, so any
 * of them can be replayed) under rules files[0..n) and counts them into t (zeroed
 * first). Returns 0, or 2 with err set (RULES_MESSAGE_SIZE bytes). */
int compare_tally_run(const struct selfplay_options *o, const struct rules_loader *loader, const char *const files[],
                      int n, struct compare_tally *t, char *err);

/* A row's figure and interval: Wilson's for shares, mean +- 1.96 standard errors for
 * means, the normal approximation for the spread. */
struct compare_figure compare_figure_of(const struct compare_tally *t, enum compare_row row);
/* B - A with 1.96 times the combined standard error (the two sides taken as
 * independent samples, which overstates the error of paired seeds). */
struct compare_figure compare_difference(const struct compare_tally *a, const struct compare_tally *b,
                                         enum compare_row row);

/* "mean total", ... */
const char *compare_row_name(enum compare_row row);
/* Whether the row is a share (printed as a percentage). */
bool compare_row_is_share(enum compare_row row);

#endif
