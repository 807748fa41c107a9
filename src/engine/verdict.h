/* Verdicts: the answer to one line, an error code with its rule id, and the events
 * (round end, eliminations, match end) that an accepted move caused. */
#ifndef MTREF_VERDICT_H
#define MTREF_VERDICT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "rules.h"
#include "tile.h"

/* Listed in the order of precedence of protocol.md where one applies. */
enum error_code {
    ERR_NONE = 0,
    ERR_SYNTAX,
    ERR_GAME_OVER,
    ERR_SETUP_CLOSED,
    ERR_ROUND_MISMATCH,
    ERR_UNKNOWN_PLAYER,
    ERR_BAD_DEAL,
    ERR_NOT_YOUR_TURN,
    ERR_NOT_IN_HAND,
    ERR_MUST_COVER,
    ERR_TRAIN_CLOSED,
    ERR_NO_MATCH,
    ERR_HOUSE_RULE,
    ERR_MUST_PLAY,
    ERR_ALREADY_DRAWN,
    ERR_BONEYARD_EMPTY,
    ERR_NOT_IN_BONEYARD,
    ERR_DRAW_MISMATCH,
    ERR_MUST_DRAW,
    ERR_RULES,
    ERR_COUNT
};

/* The stable lower-case code of protocol.md ("no-match"). */
const char *error_code_name(enum error_code code);
/* Exit status a code leads to: 0 none, 1 illegal record, 2 syntax or rules. */
int error_code_status(enum error_code code);

struct round_report {
    int round;
    int engine_pip;
    int out_seat;                               /* -1 when blocked */
    bool in_round[RULES_MAX_PLAYERS];           /* seats that played the round */
    int64_t points[RULES_MAX_PLAYERS];
};

#define VERDICT_MESSAGE_SIZE 600

struct verdict {
    enum error_code code;
    const char *rule;                 /* "R15", or NULL; static */
    char message[VERDICT_MESSAGE_SIZE];   /* for people; cut, never overflowed */
    tile_t drew;                      /* an accepted draw: the tile, else TILE_NONE */
    bool round_ended;
    struct round_report report;
    int neliminated;
    int eliminated[RULES_MAX_PLAYERS];    /* seats, in seat order */
    bool match_ended;
    bool winners[RULES_MAX_PLAYERS];
    int nwinners;
};

/* Resets v to an accepted, eventless verdict. */
void verdict_reset(struct verdict *v);
/* Makes v a rejection: code, rule id (static or NULL), printf-style message. */
void verdict_fail(struct verdict *v, enum error_code code, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
