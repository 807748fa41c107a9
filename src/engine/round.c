/* The life of a round: its layout, the seeded deal, its end, scores, eliminations,
 * and the end of the match [R3-R6][R19-R22]. */
#include "round.h"

#include <string.h>

#include "deal.h"

static bool engine_of_round(const struct game *g, int *pip, struct verdict *v)
{
    const struct rules *r = g->rules;
    if (r->hooks.engine_pip) {
        char err[RULES_MESSAGE_SIZE] = "";
        if (r->hooks.engine_pip(r->hooks.ctx, g->round, g->rounds, pip, err) != 0) {
            verdict_fail(v, ERR_RULES, 0, "%s", err);
            return false;
        }
        if (*pip < 0 || *pip > TILE_MAX_PIP) {
            verdict_fail(v, ERR_RULES, 0, "engine of round %d: %d is not a pip 0..12", g->round, *pip);
            return false;
        }
        return true;
    }
    int step = (g->round - 1) % TILE_PIPS;          /* cycles when rounds go past 13 */
    *pip = TILE_MAX_PIP - step;
    return true;
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
    g->draws = 0;
    g->ndoubles = 0;
    g->turn_began_owing = false;
    g->idle_passes = 0;
    g->phase = PHASE_DEALING;
    return true;
}

void round_deal_seeded(struct game *g)
{
    unsigned char deck[DEAL_DECK_SIZE];
    deal_shuffle(&g->rng, g->engine_pip, deck);
    int size = g->rules->hand_size[game_players_in(g)], next = 0;
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        for (int i = 0; i < size; i++) tileset_add(&g->hands[s], deck[next++]);
        g->dealt[s] = true;
    }
    g->boneyard_order_len = DEAL_DECK_SIZE - next;
    memcpy(g->boneyard_order, deck + next, (size_t)g->boneyard_order_len);
    round_begin_play(g);
}

void round_begin_play(struct game *g)
{
    tileset rest = tileset_all();
    tileset_remove(&rest, tile_double(g->engine_pip));
    for (int s = 0; s < g->nplayers; s++) rest = tileset_minus(rest, g->hands[s]);
    g->boneyard = rest;
    g->phase = PHASE_PLAYING;
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
    if (r->hooks.round_points) {
        char err[RULES_MESSAGE_SIZE] = "";
        if (r->hooks.round_points(r->hooks.ctx, g, &o, points, err) != 0) {
            verdict_fail(v, ERR_RULES, 0, "%s", err);
            return;
        }
    } else {
        score_builtin(r, &o, points);
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
    bool candidate[RULES_MAX_PLAYERS] = {false};
    if (r->hooks.eliminated) {
        if (!eliminate(g, v)) return;
        int left = game_players_in(g);
        if (left <= 1) {
            /* the last one in wins; if the round took everyone, its victims compete */
            for (int s = 0; s < g->nplayers; s++) candidate[s] = !g->eliminated[s];
            if (left == 0)
                for (int i = 0; i < v->neliminated; i++) candidate[v->eliminated[i]] = true;
            end_match(g, candidate, v);
            return;
        }
    } else if (g->round >= g->rounds) {
        for (int s = 0; s < g->nplayers; s++) candidate[s] = true;
        end_match(g, candidate, v);
        return;
    }
    g->round++;
    if (!round_start(g, v)) return;
}
