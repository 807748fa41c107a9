/* The canonical values of the variable points of the game. */
#include "rules.h"

#include <stdio.h>
#include <string.h>

void rules_init_canonical(struct rules *r)
{
    *r = (struct rules){0};
    rules_set_pips(r, TILE_CANONICAL_PIP);
    r->min_players = 2;
    r->max_players = 8;
    for (int n = 0; n <= RULES_MAX_PLAYERS; n++)
        r->hand_size[n] = n <= 4 ? 15 : n <= 6 ? 12 : 10;
    for (tile_t t = 0; t < TILE_COUNT; t++)
        r->tile_value[t] = tile_low(t) + tile_high(t);
    r->rounds_allowed = (1ULL << 13) | (1ULL << 7) | (1ULL << 1);
    r->default_rounds = 13;
    r->doubles = DOUBLES_COVER_NOW;
    r->draw = DRAW_ONCE;
    r->scoring = SCORING_PENALTY;
    r->out_on_double_factor = 1;
}

void rules_set_pips(struct rules *r, int max_pip)
{
    r->max_pip = max_pip;
    r->set_tiles = tileset_of_set(max_pip);
    r->set_size = tile_set_size(max_pip);
}

/* A limit written into a static message: the macro must be a plain decimal number. */
#define DECIMAL_(x) #x
#define DECIMAL(x) DECIMAL_(x)

const char *rules_check(const struct rules *r)
{
    if (!TILE_SET_VALID(r->max_pip) || r->set_size != tile_set_size(r->max_pip) ||
        !tileset_equal(r->set_tiles, tileset_of_set(r->max_pip)))
        return "the set must be one of double-6 to double-15";
    if (r->min_players < 2 || r->max_players > RULES_MAX_PLAYERS || r->min_players > r->max_players)
        return "players must range within 2..16";
    /* from 2 up, not min_players: eliminations deal to fewer than the table began with */
    for (int n = 2; n <= r->max_players; n++) {
        if (r->hand_size[n] < 1)
            return "every hand needs at least one tile";
        if (n * r->hand_size[n] > r->set_size - 1)
            return "the hands hold more tiles than the set has (a smaller set needs smaller hands: hand_size)";
    }
    if (r->rounds_allowed == 0 || (r->rounds_allowed & 1))
        return "the allowed round counts must be 1..63";
    if (r->default_rounds < 1 || r->default_rounds > RULES_MAX_ROUNDS ||
        !((r->rounds_allowed >> r->default_rounds) & 1))
        return "the default round count must be one of the allowed counts";
    if (r->out_on_double_factor < 1 || r->out_on_double_factor > RULES_MAX_FACTOR)
        return "the out-on-double factor must be 1.." DECIMAL(RULES_MAX_FACTOR);
    for (tile_t t = 0; t < TILE_COUNT; t++)
        if (r->tile_value[t] < -RULES_MAX_TILE_VALUE || r->tile_value[t] > RULES_MAX_TILE_VALUE)
            return "tile values must lie within -" DECIMAL(RULES_MAX_TILE_VALUE) ".." DECIMAL(RULES_MAX_TILE_VALUE);
    return 0;
}

void rules_file_name(const char *spelling, char *out, size_t size)
{
    const char *base = strrchr(spelling, '/');
    base = base ? base + 1 : spelling;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".lua") == 0) len -= 4;
    snprintf(out, size, "%.*s", (int)len, base);
}

void rules_format_rounds(const struct rules *r, char *buf, size_t size)
{
    size_t used = 0;
    int left = 0;
    for (int k = 1; k <= RULES_MAX_ROUNDS; k++) left += (int)((r->rounds_allowed >> k) & 1);
    if (size) buf[0] = '\0';
    for (int k = RULES_MAX_ROUNDS; k >= 1 && used < size; k--) {
        if (!((r->rounds_allowed >> k) & 1)) continue;
        left--;
        const char *sep = used == 0 ? "" : left == 0 ? " or " : ", ";
        used += (size_t)snprintf(buf + used, size - used, "%s%d", sep, k);
    }
}
