/* Verdicts: error code names and the constructors of a verdict. */
#include "verdict.h"

#include <stdio.h>

static const char *const code_names[ERR_COUNT] = {
    [ERR_NONE] = "ok",
    [ERR_SYNTAX] = "syntax",
    [ERR_GAME_OVER] = "game-over",
    [ERR_SETUP_CLOSED] = "setup-closed",
    [ERR_ROUND_MISMATCH] = "round-mismatch",
    [ERR_UNKNOWN_PLAYER] = "unknown-player",
    [ERR_BAD_DEAL] = "bad-deal",
    [ERR_NOT_YOUR_TURN] = "not-your-turn",
    [ERR_NOT_IN_HAND] = "not-in-hand",
    [ERR_MUST_COVER] = "must-cover",
    [ERR_TRAIN_CLOSED] = "train-closed",
    [ERR_NO_MATCH] = "no-match",
    [ERR_HOUSE_RULE] = "house-rule",
    [ERR_MUST_PLAY] = "must-play",
    [ERR_ALREADY_DRAWN] = "already-drawn",
    [ERR_BONEYARD_EMPTY] = "boneyard-empty",
    [ERR_NOT_IN_BONEYARD] = "not-in-boneyard",
    [ERR_DRAW_MISMATCH] = "draw-mismatch",
    [ERR_MUST_DRAW] = "must-draw",
    [ERR_RULES] = "rules",
};

const char *error_code_name(enum error_code code)
{
    return code >= 0 && code < ERR_COUNT ? code_names[code] : "?";
}

int error_code_status(enum error_code code)
{
    if (code == ERR_NONE) return 0;
    if (code == ERR_SYNTAX || code == ERR_RULES) return 2;
    return 1;
}

void verdict_reset(struct verdict *v)
{
    v->code = ERR_NONE;
    v->rule = 0;
    v->message[0] = '\0';
    v->drew = TILE_NONE;
    v->round_ended = false;
    v->neliminated = 0;
    v->match_ended = false;
    v->nwinners = 0;
}

void verdict_fail(struct verdict *v, enum error_code code, const char *rule, const char *fmt, ...)
{
    verdict_reset(v);
    v->code = code;
    v->rule = rule;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
}
