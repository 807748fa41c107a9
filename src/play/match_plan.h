/* A run of `mtref match`: the bots, the tables they sit at, the deals, the seatings,
 * the journal that is both the results and the state a rerun resumes from, and the
 * records. Results never depend on the order matches finish in, nor on -j. */
#ifndef MTREF_MATCH_PLAN_H
#define MTREF_MATCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match_run.h"
#include "referee.h"

#define MATCH_MAX_BOTS 64

enum tournament_kind { TOURNAMENT_TABLE, TOURNAMENT_ROUNDROBIN, TOURNAMENT_GAUNTLET };
enum seating_kind { SEATING_ROTATE, SEATING_NONE };

struct match_plan {
    struct match_bot bots[MATCH_MAX_BOTS];
    int nbots;
    int players;                    /* seats per table; 0: the number of bots if 2-8, else 4 */
    int table[RULES_MAX_PLAYERS];   /* --table: bot indexes in seat order */
    int ntable;
    enum tournament_kind tournament;
    bool tournament_given;
    enum seating_kind seating;
    int swap_a, swap_b;             /* --swap A,B: bot indexes, or -1 */
    long deals, first_deal;
    uint64_t seed;
    bool seed_given;
    int rounds;                     /* 0: the rules' default */
    const char *rules[RULES_MAX_FILES];
    int nrules;
    struct match_config config;
    int jobs;
    const char *out_dir;            /* NULL: nothing kept */
    bool json, quiet, force, allow_changed_bots, anonymous;
};

void match_plan_defaults(struct match_plan *p);

/* Parses "[NAME=]COMMAND" or "builtin:greedy|random" into the next bot; false with
 * err (200 bytes) when the name is not a valid player name or is taken. */
bool match_plan_add_bot(struct match_plan *p, const char *spec, char *err);
/* The bot named name, or -1. */
int match_plan_find_bot(const struct match_plan *p, const char *name, size_t len);

/* Runs the plan: matches to the journal and records under out_dir, progress on
 * progress, the results table (or JSON lines) on out. Exit status as mtref(1) says:
 * 0 done, 1 a bot broke the protocol and the run stopped, 2 a bot could not start or
 * another error (message on progress), 130 interrupted. */
int match_plan_run(struct match_plan *p, const struct rules_loader *loader, FILE *out, FILE *progress);

#endif
