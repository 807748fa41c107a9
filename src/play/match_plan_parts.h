/* The parts of a run that match_plan.c (tables, the schedule, one match and its journal
 * line) gives match_journal.c (the journal, resuming, workers): private to the two. */
#ifndef MTREF_MATCH_PLAN_PARTS_H
#define MTREF_MATCH_PLAN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rules.h"

/* Only pointers to these: this header stands below match_plan.h, not beside it. */
struct match_plan;
struct match_result;
struct mbuf;

#define MATCH_MAX_TABLES 4096

struct tables {
    int n, size;
    int seats[MATCH_MAX_TABLES][RULES_MAX_PLAYERS];
};

struct slot {
    long deal;
    int table, seating, swap;
};

struct run {
    struct match_plan *p;
    struct tables *t;
    const struct rules *rules;
    const char *plan_text;
    char records_dir[4096], logs_dir[4096];
};

bool match_build_tables(const struct match_plan *p, struct tables *t, char *err);
int match_seatings(const struct match_plan *p);
int match_swaps(const struct match_plan *p);
long match_total_matches(const struct match_plan *p, const struct tables *t);
/* Match i of the schedule: deal, table, seating, swap; and its key "d000017-t00-s2-w0". */
struct slot match_slot_of(const struct match_plan *p, const struct tables *t, long i);
void match_slot_key(const struct slot *s, char *out, size_t size);
/* The plan as JSON, and the journal's first line around it. */
void match_plan_json(const struct match_plan *p, const struct tables *t, const struct rules *rules, struct mbuf *b);
void match_run_line(const struct match_plan *p, const char *plan, struct mbuf *b);
/* Plays match i, writes its record, and its journal line into line. 0, or 2 with err. */
int match_play_one(struct run *r, long i, struct mbuf *line, struct match_result *res, char *err);
/* "[37/800] d000009-t00-s1-w0: winners alice (fault: bob timeout)" from a journal line. */
void match_progress_line(FILE *out, long done, long total, const char *line);

#endif
