/* The life of a round: its layout, the seeded deal, its end, scores, eliminations,
 * and the end of the match [R3-R6][R19-R22]. */
#include "round.h"
#include "seat.h"

#include <string.h>

#include "deal.h"

static bool engine_of_round(const struct game *g, int *pip, struct verdict *v)
{
    const struct rules *r = g->rules;
    int step = (g->round - 1) % (r->max_pip + 1);   /* cycles when rounds go past 13 */
    *pip = r->max_pip - step;
    if (r->hooks.engine_pip) {
        char err[RULES_MESSAGE_SIZE] = "";
        if (r->hooks.engine_pip(r->hooks.ctx, g, g->round, g->rounds, pip, err) != 0) {
            verdict_fail(v, ERR_RULES, 0, "%s", err);
            return false;
        }
        if (*pip < 0 || *pip > r->max_pip) {
            verdict_fail(v, ERR_RULES, 0, "engine of round %d: %d is not a pip 0..%d of the %s set", g->round, *pip,
                         r->max_pip, tile_set_name(r->max_pip));
            return false;
        }
    }
    return true;
}

static void reset_turn(struct game *g)
{
    g->draws = 0;
    g->plays = 0;
    g->turn_draws = 0;
    g->drew = TILE_NONE;
}

bool round_start(struct game *g, struct verdict *v)
{
    int pip;
    if (!engine_of_round(g, &pip, v)) return false;
    g->engine_pip = pip;
    /* [R4] round 1 opens at seat 0; then the next seat still in after the last opener,
     * which is (k-1) mod n while nobody has been eliminated. */
    g->first_seat = g->round == 1 ? 0 : game_next_seat(g, g->first_seat);
    for (int t = 0; t < TRAIN_COUNT; t++) {
        g->trains[t].open_pip = pip;
        g->trains[t].marker = false;
        g->trains[t].length = 0;
    }
    for (int s = 0; s < RULES_MAX_PLAYERS; s++) {
        g->hands[s] = tileset_empty();
        g->dealt[s] = false;
        g->had_turn[s] = false;
    }
    g->boneyard = tileset_empty();
    g->boneyard_order_len = 0;
    g->boneyard_next = 0;
    g->turn = g->first_seat;
    reset_turn(g);
    g->ndoubles = 0;
    g->turn_began_owing = false;
    g->idle_passes = 0;
    g->pass_streak = 0;
    g->hunting = false;
    g->engine_from = -1;
    g->engine_dealt = false;
    g->phase = PHASE_DEALING;
    if (g->rules->hooks.asks[ASK_LAY_ENGINE]) {
        g->engine_dealt = game_ask(g, ASK_LAY_ENGINE, TILE_NONE, -1, false, v) != 0;
        if (v->code != ERR_NONE) return false;
    }
    return true;
}

bool round_deal_seeded(struct game *g, struct verdict *v)
{
    unsigned char deck[TILE_COUNT];
    int decksize = deal_shuffle_set(&g->rng, g->rules->max_pip, g->engine_pip, g->engine_dealt, deck);
    int size = g->rules->hand_size[game_players_in(g)], next = 0;
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        for (int i = 0; i < size; i++) tileset_add(&g->hands[s], deck[next++]);
        g->dealt[s] = true;
    }
    g->boneyard_order_len = decksize - next;
    memcpy(g->boneyard_order, deck + next, (size_t)g->boneyard_order_len);
    return round_begin_play(g, v);
}

/* The round opens with seat to act (before the opener hook has its say). */
static bool open_round(struct game *g, int seat, struct verdict *v)
{
    if (g->rules->hooks.asks[ASK_OPENER]) {
        seat = (int)game_ask(g, ASK_OPENER, TILE_NONE, -1, seat, v);
        if (v->code != ERR_NONE) return false;
        if (seat < 0 || seat >= g->nplayers || g->eliminated[seat]) {
            verdict_fail(v, ERR_RULES, 0, "opener: the seat named is not in play");
            return false;
        }
    }
    g->turn = seat;
    reset_turn(g);
    return true;
}

bool round_lay_engine_from(struct game *g, int seat, struct verdict *v)
{
    tileset_remove(&g->hands[seat], tile_double(g->engine_pip));
    g->hunting = false;
    g->engine_from = seat;
    return open_round(g, game_next_seat(g, seat), v);
}

bool round_begin_play(struct game *g, struct verdict *v)
{
    tileset rest = g->rules->set_tiles;
    tile_t engine = tile_double(g->engine_pip);
    if (!g->engine_dealt) tileset_remove(&rest, engine);
    for (int s = 0; s < g->nplayers; s++) rest = tileset_minus(rest, g->hands[s]);
    g->boneyard = rest;
    g->phase = PHASE_PLAYING;
    if (g->engine_dealt) {
        for (int s = 0; s < g->nplayers; s++)
            if (tileset_has(g->hands[s], engine)) return round_lay_engine_from(g, s, v);
        /* nobody holds it: the hunt starts with the seat R4 names */
        g->hunting = true;
        g->turn = g->first_seat;
        reset_turn(g);
        return true;
    }
    return open_round(g, g->first_seat, v);
}

/* Built-in scoring: penalties [R21] or positive-scoring, then double-out-doubles. */
static void score_builtin(const struct rules *r, const struct round_outcome *o, int64_t points[])
{
    int64_t all = 0, lowest = INT64_MAX;
    int nlowest = 0;
    for (int s = 0; s < o->nplayers; s++) {
        points[s] = 0;
        if (!o->in_round[s]) continue;
        all += o->hand_value[s];
        if (o->hand_value[s] < lowest) { lowest = o->hand_value[s]; nlowest = 0; }
        if (o->hand_value[s] == lowest) nlowest++;
    }
    int factor = o->out_seat >= 0 && o->out_on_double ? r->out_on_double_factor : 1;
    if (r->scoring == SCORING_PENALTY) {
        for (int s = 0; s < o->nplayers; s++)
            if (o->in_round[s] && s != o->out_seat) points[s] = o->hand_value[s] * factor;
    } else if (o->out_seat >= 0) {
        points[o->out_seat] = (all - o->hand_value[o->out_seat]) * factor;
    } else {
        int64_t rest = all - lowest * nlowest;     /* "rounded down", negative values too */
        int64_t share = rest / nlowest - (rest % nlowest < 0);
        for (int s = 0; s < o->nplayers; s++)
            if (o->in_round[s] && o->hand_value[s] == lowest) points[s] = share;
    }
}

static bool eliminate(struct game *g, struct verdict *v)
{
    const struct rules *r = g->rules;
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        bool out = false;
        char err[RULES_MESSAGE_SIZE] = "";
        if (r->hooks.eliminated(r->hooks.ctx, g, s, g->totals[s], &out, err) != 0) {
            verdict_fail(v, ERR_RULES, 0, "%s", err);
            return false;
        }
        if (out) v->eliminated[v->neliminated++] = s;
    }
    for (int i = 0; i < v->neliminated; i++) g->eliminated[v->eliminated[i]] = true;
    return true;
}


/* [R22] the best total among candidates wins; equal best totals share a draw. */
static void pick_winners(struct game *g, const bool candidate[], struct verdict *v)
{
    bool highest = g->rules->scoring == SCORING_POSITIVE;
    int64_t best = 0;
    bool any = false;
    for (int s = 0; s < g->nplayers; s++) {
        if (!candidate[s]) continue;
        if (!any || (highest ? g->totals[s] > best : g->totals[s] < best)) best = g->totals[s];
        any = true;
    }
    v->nwinners = 0;
    for (int s = 0; s < g->nplayers; s++) {
        v->winners[s] = candidate[s] && g->totals[s] == best;
        v->nwinners += v->winners[s];
    }
}

static void end_match(struct game *g, const bool candidate[], struct verdict *v)
{
    v->match_ended = true;
    pick_winners(g, candidate, v);
    g->phase = PHASE_OVER;
    if (!g->rules->hooks.asks[ASK_WINNERS]) return;
    int64_t mask = 0;
    for (int s = 0; s < g->nplayers; s++)
        if (v->winners[s]) mask |= (int64_t)1 << s;
    mask = game_ask(g, ASK_WINNERS, TILE_NONE, -1, mask, v);
    if (v->code != ERR_NONE) return;
    if (mask <= 0 || mask >= (int64_t)1 << g->nplayers) {
        verdict_fail(v, ERR_RULES, 0, "winners: the list must name players at the table, at least one");
        return;
    }
    v->nwinners = 0;
    for (int s = 0; s < g->nplayers; s++) {
        v->winners[s] = (mask >> s) & 1;
        v->nwinners += v->winners[s];
    }
}

/* Rounds won: the player who went out, or on a block every lowest hand. */
static void count_wins(struct game *g, const struct round_outcome *o)
{
    memset(g->won_last, 0, sizeof g->won_last);
    if (o->out_seat >= 0) {
        g->wins[o->out_seat]++;
        g->won_last[o->out_seat] = true;
        return;
    }
    int64_t lowest = INT64_MAX;
    for (int s = 0; s < o->nplayers; s++)
        if (o->in_round[s] && o->hand_value[s] < lowest) lowest = o->hand_value[s];
    for (int s = 0; s < o->nplayers; s++)
        if (o->in_round[s] && o->hand_value[s] == lowest) {
            g->wins[s]++;
            g->won_last[s] = true;
        }
}

void round_finish(struct game *g, int out_seat, bool out_on_double, struct verdict *v)
{
    const struct rules *r = g->rules;
    struct round_outcome o = {.round = g->round, .nplayers = g->nplayers,
                              .out_seat = out_seat, .out_on_double = out_on_double};
    for (int s = 0; s < g->nplayers; s++) {
        o.in_round[s] = !g->eliminated[s];
        o.hand_value[s] = o.in_round[s] ? game_hand_value(g, g->hands[s]) : 0;
    }
    int64_t points[RULES_MAX_PLAYERS] = {0};
    score_builtin(r, &o, points);
    if (r->hooks.round_points) {
        char err[RULES_MESSAGE_SIZE] = "";
        if (r->hooks.round_points(r->hooks.ctx, g, &o, points, err) != 0) {
            verdict_fail(v, ERR_RULES, 0, "%s", err);
            return;
        }
    }
    v->round_ended = true;
    v->report.round = g->round;
    v->report.engine_pip = g->engine_pip;
    v->report.out_seat = out_seat;
    for (int s = 0; s < g->nplayers; s++) {
        v->report.in_round[s] = o.in_round[s];
        v->report.points[s] = o.in_round[s] ? points[s] : 0;
        g->totals[s] += v->report.points[s];
    }
    count_wins(g, &o);
    bool candidate[RULES_MAX_PLAYERS] = {false};
    bool over;
    int left = game_players_in(g);
    if (r->hooks.eliminated) {
        if (!eliminate(g, v)) return;
        left = game_players_in(g);
        over = left <= 1;
        /* the last one in wins; if the round took everyone, its victims compete */
        for (int s = 0; s < g->nplayers; s++) candidate[s] = !g->eliminated[s];
        if (left == 0)
            for (int i = 0; i < v->neliminated; i++) candidate[v->eliminated[i]] = true;
    } else {
        over = g->round >= g->rounds;
        for (int s = 0; s < g->nplayers; s++) candidate[s] = true;
    }
    if (r->hooks.asks[ASK_MATCH_OVER]) {
        over = game_ask(g, ASK_MATCH_OVER, TILE_NONE, -1, over, v) != 0;
        if (v->code != ERR_NONE) return;
    }
    if (over || left <= 1) {              /* a round needs two players */
        end_match(g, candidate, v);
        return;
    }
    g->round++;
    if (!round_start(g, v)) return;
}
