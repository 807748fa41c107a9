/* The game engine: set-up, deals, and queries on a match. Moves are in move.c,
 * the life of a round in round.c. */
#include "engine.h"

#include <assert.h>
#include <string.h>

#include "round.h"

void game_init(struct game *g, const struct rules *rules)
{
    memset(g, 0, sizeof *g);
    g->rules = rules;
    g->phase = PHASE_SETUP;
    g->rounds = rules->default_rounds;
    g->round = 1;
    if (rules->hooks.match_begin) rules->hooks.match_begin(rules->hooks.ctx);
}

bool game_is_over(const struct game *g) { return g->phase == PHASE_OVER; }
bool game_setup_open(const struct game *g) { return g->phase == PHASE_SETUP; }

bool game_needs_deal(const struct game *g)
{
    if (g->phase != PHASE_SETUP && g->phase != PHASE_DEALING) return false;
    return game_seats_undealt(g) != 0 || g->nplayers == 0;
}

static bool name_is(const char *stored, const char *name, int len)
{
    return len <= GAME_NAME_MAX_LEN && stored[len] == '\0' && memcmp(stored, name, (size_t)len) == 0;
}

int game_find_player(const struct game *g, const char *name, int len)
{
    assert(name && len >= 0);
    /* the player to act names themselves and usually their own train: try them first */
    if (g->nplayers && name_is(g->names[g->turn], name, len)) return g->turn;
    for (int s = 0; s < g->nplayers; s++)
        if (name_is(g->names[s], name, len)) return s;
    return -1;
}

void game_set_players(struct game *g, int n, const char *const names[], struct verdict *v)
{
    assert(n >= 0 && (n == 0 || names));
    const struct rules *r = g->rules;
    if (n < r->min_players || n > r->max_players) {
        verdict_fail(v, ERR_SYNTAX, "R2", "%d players: the table seats %d to %d",
                     n, r->min_players, r->max_players);
        return;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0) {
                verdict_fail(v, ERR_SYNTAX, "R2", "%s is named twice", names[i]);
                return;
            }
    g->nplayers = n;
    for (int i = 0; i < n; i++) {
        strncpy(g->names[i], names[i], GAME_NAME_MAX_LEN);
        g->names[i][GAME_NAME_MAX_LEN] = '\0';
    }
    verdict_reset(v);
}

void game_set_rounds(struct game *g, int rounds, struct verdict *v)
{
    if (rounds < 1 || rounds > RULES_MAX_ROUNDS || !((g->rules->rounds_allowed >> rounds) & 1)) {
        char allowed[200];
        rules_format_rounds(g->rules, allowed, sizeof allowed);
        verdict_fail(v, ERR_SYNTAX, "R3", "a match cannot have %d rounds under these rules: %s", rounds, allowed);
        return;
    }
    g->rounds = rounds;
    g->rounds_given = true;
    verdict_reset(v);
}

void game_set_seed(struct game *g, uint64_t seed, struct verdict *v)
{
    g->seeded = true;
    g->rng = seed;
    verdict_reset(v);
}

void game_set_rules(struct game *g, const struct rules *rules, struct verdict *v)
{
    if (g->nplayers && (g->nplayers < rules->min_players || g->nplayers > rules->max_players)) {
        verdict_fail(v, ERR_RULES, 0, "these rules seat %d to %d players, not the %d at the table",
                     rules->min_players, rules->max_players, g->nplayers);
        return;
    }
    if (g->rounds_given && !((rules->rounds_allowed >> g->rounds) & 1)) {
        verdict_fail(v, ERR_RULES, 0, "these rules do not allow the %d rounds set before", g->rounds);
        return;
    }
    g->rules = rules;
    if (!g->rounds_given) g->rounds = rules->default_rounds;
    if (rules->hooks.match_begin) rules->hooks.match_begin(rules->hooks.ctx);
    verdict_reset(v);
}

void game_assert_round(struct game *g, long long n, struct verdict *v)
{
    if (n != g->round) {
        verdict_fail(v, ERR_ROUND_MISMATCH, "R3", "this is round %d, not %lld", g->round, n);
        return;
    }
    verdict_reset(v);
}

/* Leaves set-up for the first round; false with v set when a rules hook failed. */
static bool leave_setup(struct game *g, struct verdict *v)
{
    if (g->phase != PHASE_SETUP) return true;
    g->phase = PHASE_DEALING;
    g->round = 1;
    return round_start(g, v);
}

void game_deal(struct game *g, int seat, const tile_t *tiles, int count, struct verdict *v)
{
    assert(count >= 0 && (count == 0 || tiles));
    /* the whole hand at once, the word of each tile by index (no branch on it) */
    uint64_t words[3] = {0, 0, 0};
    for (int i = 0; i < count; i++) {
        assert(TILE_VALID(tiles[i]));
        words[tiles[i] >> 6] |= (uint64_t)1 << (tiles[i] & 63);
    }
    game_deal_hand(g, seat, (tileset){{words[0], words[1], words[2]}}, tiles, count, v);
}

void game_deal_hand(struct game *g, int seat, tileset hand, const tile_t *tiles, int count, struct verdict *v)
{
    assert(GAME_SEAT_VALID(g, seat) && count >= 0 && (count == 0 || tiles));
#ifndef NDEBUG
    tileset read = tileset_empty();
    for (int i = 0; i < count; i++) {
        assert(TILE_VALID(tiles[i]));
        tileset_add(&read, tiles[i]);
    }
    assert(tileset_equal(read, hand));
#endif
    /* the hooks that starting a round asks (lay_engine, opener) add a failure only to a
     * clean verdict (game_ask): whatever the caller left in v must not count */
    verdict_reset(v);
    char text[TILE_TEXT_SIZE];
    if (g->seeded) {
        verdict_fail(v, ERR_BAD_DEAL, "R5", "the referee deals: this match has a seed");
        return;
    }
    if (g->eliminated[seat]) {
        verdict_fail(v, ERR_BAD_DEAL, "R5", "%s is out of the match", g->names[seat]);
        return;
    }
    if (g->phase == PHASE_PLAYING || (g->phase == PHASE_DEALING && g->dealt[seat])) {
        verdict_fail(v, ERR_BAD_DEAL, "R5", "%s has already been dealt in round %d",
                     g->names[seat], g->round);
        return;
    }
    /* Only the first deal of a match changes the game before the hand is checked (it
     * starts round 1), and only the last hand of a round starts the play, which a
     * house rule may refuse (lay_engine): only those need a copy to undo. */
    bool starts_match = g->phase == PHASE_SETUP;
    bool last_hand = (game_seats_undealt(g) & ~(1u << seat)) == 0;
    /* the play that the last hand starts can be refused only by an opener hook
     * (round_begin_play): without one, nothing after the checks can fail */
    bool undo = starts_match || (last_hand && g->rules->hooks.asks[ASK_OPENER]);
    struct game before;
    if (undo) before = *g;
    if (!leave_setup(g, v)) { *g = before; return; }
    int size = g->rules->hand_size[game_players_in(g)];
    tileset others = tileset_empty();
    for (int s = 0; s < g->nplayers; s++) others = tileset_or(others, g->hands[s]);
    tile_t engine = tile_double(g->engine_pip);
    const char *problem = 0;
    enum { NONE, TWICE_IN_HAND, ENGINE, DEALT } why = NONE;
    tile_t culprit = TILE_NONE;
    /* a hand without a fault is count different tiles, no engine, none dealt before */
    if (tileset_count(hand) != count || (!g->engine_dealt && tileset_has(hand, engine)) ||
        !tileset_is_empty(tileset_and(hand, others))) {
        /* a fault: the first tile in the line's order that shows one */
        hand = tileset_empty();
        for (int i = 0; i < count && why == NONE; i++) {
            culprit = tiles[i];
            if (tileset_has(hand, tiles[i])) why = TWICE_IN_HAND;
            else if (tiles[i] == engine && !g->engine_dealt) why = ENGINE;
            else if (tileset_has(others, tiles[i])) why = DEALT;
            tileset_add(&hand, tiles[i]);
        }
    }
    if (why == NONE && !tileset_is_empty(tileset_minus(hand, g->rules->set_tiles))) {
        /* the reader refuses this first: the engine's own guard */
        if (starts_match) *g = before;
        tile_format(tileset_first(tileset_minus(hand, g->rules->set_tiles)), text);
        verdict_fail(v, ERR_SYNTAX, "R1", "%s is not a tile of the %s set", text, tile_set_name(g->rules->max_pip));
        return;
    }
    if (why == NONE && count != size) {
        if (starts_match) *g = before;
        verdict_fail(v, ERR_BAD_DEAL, "R5", "%d tiles dealt, the hand size is %d", count, size);
        return;
    }
    if (why != NONE) {
        if (starts_match) *g = before;
        tile_format(culprit, text);
        if (why == TWICE_IN_HAND) problem = "a tile is dealt twice in the hand";
        else if (why == ENGINE) {
            verdict_fail(v, ERR_BAD_DEAL, "R5", "the engine %s is dealt", text);
            return;
        } else {
            int holder = 0;
            while (holder < g->nplayers && (holder == seat || !tileset_has(g->hands[holder], culprit))) holder++;
            if (holder < g->nplayers)
                verdict_fail(v, ERR_BAD_DEAL, "R23", "%s is already dealt, to %s", text, g->names[holder]);
            else
                verdict_fail(v, ERR_BAD_DEAL, "R23", "%s is already dealt", text);
            return;
        }
        verdict_fail(v, ERR_BAD_DEAL, "R23", "%s (%s)", problem, text);
        return;
    }
    g->hands[seat] = hand;
    g->dealt[seat] = true;
    if (!game_needs_deal(g) && !round_begin_play(g, v)) {
        assert(undo);
        if (undo) *g = before;
        return;
    }
    verdict_reset(v);
}

/* Starts and deals the seeded round g waits for, in g; false when a hook failed
 * half-way (g is then partly changed). */
static bool deal_seeded(struct game *g)
{
    if (!g->seeded || g->phase == PHASE_OVER || g->nplayers == 0) return true;
    struct verdict v;
    verdict_reset(&v);
    if (g->phase == PHASE_SETUP) {
        g->phase = PHASE_DEALING;
        if (!round_start(g, &v)) return false;
    }
    if (g->phase == PHASE_DEALING && !round_deal_seeded(g, &v)) return false;
    return true;
}

void game_snapshot(const struct game *g, struct game *out)
{
    *out = *g;
    if (!deal_seeded(out)) *out = *g;
}

bool game_deal_seeded(struct game *g)
{
    /* without a hook on a round's start nothing can fail, so nothing needs undoing */
    const struct rules_hooks *h = &g->rules->hooks;
    if (!h->engine_pip && !h->asks[ASK_LAY_ENGINE] && !h->asks[ASK_OPENER]) return deal_seeded(g) && !game_needs_deal(g);
    struct game copy = *g;
    if (!deal_seeded(&copy) || game_needs_deal(&copy)) return false;
    *g = copy;
    return true;
}

bool game_tiles_conserved(const struct game *g)
{
    if (g->phase != PHASE_PLAYING) return true;
    tileset seen = tileset_empty();
    int count = 0;
    if (!g->hunting) {                   /* once laid, the engine is a place of its own */
        tileset_add(&seen, tile_double(g->engine_pip));
        count++;
    }
    for (int s = 0; s < g->nplayers; s++) {
        if (!tileset_is_empty(tileset_and(seen, g->hands[s]))) return false;
        seen = tileset_or(seen, g->hands[s]);
        count += tileset_count(g->hands[s]);
    }
    if (!tileset_is_empty(tileset_and(seen, g->boneyard))) return false;
    seen = tileset_or(seen, g->boneyard);
    count += tileset_count(g->boneyard);
    for (int t = 0; t < TRAIN_COUNT; t++)
        for (int i = 0; i < g->trains[t].length; i++) {
            tile_t tile = g->trains[t].tiles[i];
            if (tileset_has(seen, tile)) return false;
            tileset_add(&seen, tile);
            count++;
        }
    return count == g->rules->set_size && tileset_equal(seen, g->rules->set_tiles);
}

bool game_invariants_hold(const struct game *g, const char **why)
{
    *why = 0;
    if (!game_tiles_conserved(g)) *why = "tiles are not all accounted for, each once";
    else if (g->trains[TRAIN_MEX].marker) *why = "a marker lies on the Mexican train";
    else if (g->rules->doubles == DOUBLES_COVER_NOW && g->ndoubles > 1 && !g->rules->hooks.asks[ASK_MUST_COVER] &&
             !g->rules->hooks.asks[ASK_ANOTHER_PLAY])
        *why = "more than one double is uncovered";
    else if (g->ndoubles > GAME_DOUBLES_MAX) *why = "too many uncovered doubles";
    if (*why || g->phase != PHASE_PLAYING) return *why == 0;
    for (int t = 0; t < TRAIN_COUNT && !*why; t++) {
        bool seated = t == TRAIN_MEX || (t < g->nplayers && !g->eliminated[t]);
        if (!seated && (g->trains[t].marker || g->trains[t].length))
            *why = "a train without a player carries tiles or a marker";
    }
    for (int i = 0; i < g->ndoubles && !*why; i++) {
        const struct train *tr = &g->trains[g->doubles[i].train];
        if (tr->length == 0 || tr->tiles[tr->length - 1] != tile_double(g->doubles[i].pip) ||
            tr->open_pip != g->doubles[i].pip)
            *why = "an uncovered double is not at the end of its train";
    }
    if (!*why && (g->turn < 0 || g->turn >= g->nplayers || g->eliminated[g->turn]))
        *why = "the turn belongs to nobody at the table";
    return *why == 0;
}
