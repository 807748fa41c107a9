/* Statistics of a run from its journal lines (one run, or the shards of one run):
 * per bot the duplicate margin (its total minus the mean of every bot that held the
 * same hand of the same deal) with a 95% interval over deals, the deal being the
 * independent unit; matchpoints (MP%, its rank-based twin); win share, placement, raw totals, pairwise differences, faults
 * and timing. */
#ifndef MTREF_STATS_H
#define MTREF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct stats;

struct stats *stats_new(void);
void stats_free(struct stats *st);

/* Adds one journal line. Lines of the run (the plan) must agree with the first run
 * line seen; summary lines and blank lines are skipped. False with err set when the
 * line is malformed or belongs to another plan. A match seen twice counts once. */
bool stats_add_line(struct stats *st, const char *line, size_t len, char *err, size_t errsize);

/* The figures of one bot (by index, in the order bots were first met), for tests. */
struct stats_bot {
    const char *name;
    long matches, deals;
    double win_share, placement;          /* win share as a fraction; mean place */
    double margin, margin_ci;             /* mean over deals, half-width of the 95% interval */
    double mp, mp_ci;                     /* matchpoints, percent: per hand, the share of the other
                                           * holders it beat (ties half, a forfeit loses each), over deals */
    double total, total_ci;               /* mean adjudicated total, matches taken as independent */
    long faults[8];                       /* by fault kind (match_run.h order; 0 unused) */
    long decisions;
    double mean_ms, max_ms;
};
int stats_nbots(const struct stats *st);
bool stats_bot(const struct stats *st, int i, struct stats_bot *out);
/* Pairwise: mean of (b's total minus a's) per match over deals they shared, its 95%
 * half-width, and the share of matches a finished below b (ties count half). */
bool stats_pair(const struct stats *st, int a, int b, double *diff, double *ci, double *beat, long *deals);

/* The results table for people, or one JSON summary line. */
void stats_print(const struct stats *st, FILE *out);
void stats_print_json(const struct stats *st, FILE *out);

/* The two-sided 95% quantile of Student's t with df degrees of freedom. */
double stats_t975(long df);

#endif
