/* The types of a match between bots, shared by the runner (match_run.c), its seats'
 * I/O (match_io.c) and the run around them (match_plan.c): the bots, the faults and
 * their policy, the settings of a run, the set-up of one match and its result. */
#ifndef MTREF_MATCH_H
#define MTREF_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bots.h"
#include "engine.h"
#include "match_proto.h"
#include "proc.h"

/* Stable names, as stable as the error codes: start timeout crash garbled illegal
 * flood stalled. */
enum fault_kind {
    FAULT_NONE, FAULT_START, FAULT_TIMEOUT, FAULT_CRASH, FAULT_GARBLED, FAULT_ILLEGAL, FAULT_FLOOD,
    FAULT_STALLED, FAULT_COUNT
};

enum fault_policy { POLICY_FORFEIT, POLICY_STOP };

/* One bot of a run. */
struct match_bot {
    char name[GAME_NAME_MAX_LEN + 1];
    const char *cmd;                /* the command line; NULL for a built-in */
    enum bot_kind builtin;
    enum proto_form form;
    /* its own settings (NAME.time=, NAME.mem=, NAME.cpu=, NAME.dir=) over the run's */
    bool own_time;
    int64_t move_us, bank_us;       /* with own_time; move_us < 0: no clock */
    struct proc_limits limits;      /* each 0: the run's */
    const char *dir;                /* NULL: the run's */
};

struct match_config {
    int64_t init_us;                /* from start to the hello answer */
    int64_t move_us, bank_us;       /* per decision, and the per-match bank; move_us < 0: no clock */
    int64_t margin_us;              /* grace on every deadline, never charged */
    int64_t grace_us;               /* after bye (or a fault) before TERM, then KILL */
    size_t max_line;                /* bytes per bot line */
    long flood_lines;               /* unsolicited lines per match */
    size_t flood_bytes;             /* unsolicited bytes per match */
    size_t stall_bytes;             /* output queued to a bot that does not read */
    bool ask_forced;                /* send decisions with one legal action too */
    bool recover;                   /* a crash forfeits instead of stopping the run */
    enum fault_policy policy;
    enum bot_kind fallback;         /* plays a forfeited seat to the end */
    const char *log_dir;            /* transcripts of every bot's session; NULL: none */
    struct proc_limits limits;      /* per bot process; a core dump is never allowed */
    const char *bot_dir;            /* every bot's working directory; NULL: a fresh one each */
};

struct match_setup {
    int nplayers;
    const struct match_bot *bots[RULES_MAX_PLAYERS];   /* per seat */
    char names[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];   /* per seat, distinct player names */
    int rounds;                     /* 0: the rules' default */
    uint64_t deal_seed;             /* the referee's seed: every round's deal */
    uint64_t bot_seeds[RULES_MAX_PLAYERS];             /* built-in random's streams */
    const char *id;                 /* opaque, sent to bots */
    const char *header;             /* comment lines for the record's top (each "# ...\n") */
    const char *log_name;           /* transcript file stem, e.g. "d000017-s2" */
};

struct seat_result {
    enum fault_kind fault;
    char detail[240];               /* printable ASCII: "must-play [R8]", "exit 3", ... */
    long fault_decision;
    int fault_round;
    long decisions;                 /* asked */
    int64_t think_us, max_us, bank_left_us;
    int near_misses;                /* answers within 10% of their deadline */
    char tail[400];                 /* its stderr's last bytes, escaped */
};

struct match_result {
    bool ended;                     /* the match reached its end */
    bool stop;                      /* the run stops after this match */
    int stop_status;                /* then: 1 a bot broke the protocol, 2 a bot could not start */
    char stop_reason[300];
    int nplayers;
    int64_t totals[RULES_MAX_PLAYERS];        /* raw, as the record scores */
    int64_t adjudicated[RULES_MAX_PLAYERS];   /* a forfeit never pays */
    int ranks[RULES_MAX_PLAYERS];             /* 1 = first; ties share; forfeiters last */
    bool forfeited[RULES_MAX_PLAYERS];
    struct seat_result seats[RULES_MAX_PLAYERS];
    long decisions;                 /* asked of bot programs */
    int64_t *latency_us;            /* the referee's own time per decision (malloc'd) */
    long nlatency;
};

#endif
