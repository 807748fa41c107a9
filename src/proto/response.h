/* The answer to one protocol line, as the session makes it and output writes it. */
#ifndef MTREF_RESPONSE_H
#define MTREF_RESPONSE_H

#include "engine.h"
#include "verdict.h"

enum response_kind { RESPONSE_NONE, RESPONSE_VERDICT, RESPONSE_SHOW, RESPONSE_LEGAL };

struct response {
    enum response_kind kind;
    long line;
    struct verdict verdict;
    int show_seat;               /* show NAME: the seat whose view; -1 for the whole table */
    /* legal: the moves of the player to act, for a `legal` query and a rejected line */
    int nlegal;
    struct move legal[GAME_MAX_LEGAL];
};

#endif
