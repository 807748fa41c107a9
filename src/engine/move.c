/* Moves judged: which plays are legal, and play, draw, pass with the precedence of
 * protocol.md [R7-R20], each rejection worded. Tile sets, no allocation. */
#include "engine.h"

#include <assert.h>
#include <string.h>

#include "round.h"
#include "turn.h"

/* Asks the per-move hook; returns -1 (v set to `rules`) when it failed. */
static int ask_may_play(const struct game *g, tile_t tile, int train, bool *allowed,
                        char *why, struct verdict *v)
{
    const struct rules *r = g->rules;
    *allowed = true;
    why[0] = '\0';
    if (!r->hooks.may_play) return 0;
    char err[RULES_MESSAGE_SIZE];         /* per candidate play: not zero-filled */
    err[0] = '\0';
    if (r->hooks.may_play(r->hooks.ctx, g, g->turn, tile, train, allowed, why, err) != 0) {
        verdict_fail(v, ERR_RULES, 0, "%s", err);
        return -1;
    }
    return 0;
}

/* Writes the legal plays of the current player into out (when not NULL); returns their
 * count, or -1 with v set when a hook failed. Without a per-move hook and with
 * out NULL this is one tile-set test. */
static int list_plays(const struct game *g, struct move *out, int max, struct verdict *v)
{
    if (g->hunting) return 0;               /* no tile is played before the engine is laid */
    const struct uncovered_double *owed = 0;
    if (g->ndoubles) {
        owed = owed_with_doubles(g, v);
        if (v->code != ERR_NONE) return -1;
    }
    tileset tiles = playable_tiles(g, owed);
    if (!out && !g->rules->hooks.may_play) return !tileset_is_empty(tiles);
    int seat = g->turn, n = 0;
    int order[TRAIN_COUNT], ntrains = 0;
    if (owed) {
        order[ntrains++] = owed->train;
    } else {
        order[ntrains++] = seat;
        if (!first_turn_limited(g, seat)) {
            for (int o = 0; o < g->nplayers; o++)
                if (o != seat && train_open_to(g, o, seat)) order[ntrains++] = o;
            order[ntrains++] = TRAIN_MEX;
        }
    }
    bool hooked = g->rules->hooks.may_play != NULL;
    for (tile_t t; (t = tileset_pop(&tiles)) != TILE_NONE;) {
        for (int i = 0; i < ntrains; i++) {
            if (!tile_has_pip(t, g->trains[order[i]].open_pip)) continue;
            if (hooked) {
                bool allowed;
                char why[RULES_MESSAGE_SIZE];
                if (ask_may_play(g, t, order[i], &allowed, why, v) != 0) return -1;
                if (!allowed) continue;
            }
            if (!out) return 1;
            if (n < max) out[n] = (struct move){MOVE_PLAY, seat, t, order[i]};
            n++;
        }
    }
    return n;
}

/* list_plays(g, 0, 0, v), whether the player to act can play at all: without a per-move
 * hook one tile-set test, in line (draw and pass ask it on every turn). */
static inline int any_play(const struct game *g, struct verdict *v)
{
    if (g->rules->hooks.may_play) return list_plays(g, 0, 0, v);
    if (g->hunting) return 0;
    const struct uncovered_double *owed = 0;
    if (g->ndoubles) {
        owed = owed_with_doubles(g, v);
        if (v->code != ERR_NONE) return -1;
    }
    return !tileset_is_empty(playable_tiles(g, owed));
}

/* A player with no legal play may draw now [R9][R17]: once per play, or again and
 * again under draw-until-playable; a may_draw hook has the last word. */
static bool draw_allowed(const struct game *g, struct verdict *v)
{
    bool canonical = g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0 || g->hunting;
    if (!g->rules->hooks.asks[ASK_MAY_DRAW] || g->hunting) return canonical;
    return game_ask(g, ASK_MAY_DRAW, TILE_NONE, -1, canonical, v) != 0;
}

static bool draw_owed(const struct game *g, struct verdict *v)
{
    if (boneyard_empty(g, v)) return false;
    return draw_allowed(g, v);
}

/* Whether the player to act may pass, given whether they can play and must draw:
 * canonically only with neither [R10][R11]; a may_pass hook may say otherwise. */
static bool pass_allowed(const struct game *g, bool can_play, bool must_draw, struct verdict *v)
{
    bool canonical = !can_play && !must_draw;
    if (!g->rules->hooks.asks[ASK_MAY_PASS] || g->hunting) return canonical && !g->hunting;
    return game_ask(g, ASK_MAY_PASS, can_play, must_draw, canonical, v) != 0;
}

static int legal_with_hooks(const struct game *g, int n, struct move *out, int max, struct verdict *v);

/* The canonical turn inline (the bots' hot path); house rules' questions out of line. */
static inline __attribute__((always_inline)) int legal_moves(const struct game *g, struct move *out, int max,
                                                             struct verdict *v)
{
    v->code = ERR_NONE;           /* only a failure fills the rest */
    if (g->phase != PHASE_PLAYING) return 0;
    int n = list_plays(g, out, max, v);
    if (n < 0) return -1;
    if (g->rules->hooks.asks_per_move || g->hunting) return legal_with_hooks(g, n, out, max, v);
    if (n > 0) return n < max ? n : max;
    if (max < 1) return 0;
    bool draw = !tileset_is_empty(g->boneyard) && (g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0);
    out[0] = (struct move){draw ? MOVE_DRAW : MOVE_PASS, g->turn, TILE_NONE, 0};
    return 1;
}

int game_legal_moves(const struct game *g, struct move *out, int max)
{
    struct verdict v;
    int n = legal_moves(g, out, max, &v);
    return n < 0 ? 0 : n;
}

int game_legal_moves_checked(const struct game *g, struct move *out, int max, struct verdict *v)
{
    return legal_moves(g, out, max, v);
}

static int legal_with_hooks(const struct game *g, int n, struct move *out, int max, struct verdict *v)
{
    bool must_draw = n == 0 && draw_owed(g, v);
    if (v->code != ERR_NONE) return -1;
    bool may_pass = pass_allowed(g, n > 0, must_draw, v);
    if (v->code != ERR_NONE) return -1;
    if (n > max) n = max;
    if (must_draw && n < max) out[n++] = (struct move){MOVE_DRAW, g->turn, TILE_NONE, 0};
    if (may_pass && n < max) out[n++] = (struct move){MOVE_PASS, g->turn, TILE_NONE, 0};
    return n;
}

static void play(struct game *g, const struct move *m, struct verdict *v)
{
    int seat = m->seat, train = m->train;
    tile_t tile = m->tile;
    char text[TILE_TEXT_SIZE];
    if (g->hunting) {
        tile_format(tile_double(g->engine_pip), text);
        verdict_fail(v, ERR_HOUSE_RULE, 0, "%s: no tile can be played before the engine %s is laid: draw",
                     g->rules->lay_engine_by ? g->rules->lay_engine_by : "house rules", text);
        return;
    }
    if (!tileset_holds(&g->hands[seat], tile)) {
        tile_format(tile, text);
        verdict_fail(v, ERR_NOT_IN_HAND, "R23", "%s does not hold %s", g->names[seat], text);
        return;
    }
    const struct uncovered_double *owed = owed_double(g, v);
    if (v->code != ERR_NONE) return;
    if (owed && (train != owed->train || !tile_has_pip(tile, owed->pip))) {
        char dbl[TILE_TEXT_SIZE];
        tile_format(tile_double(owed->pip), dbl);
        verdict_fail(v, ERR_MUST_COVER, g->turn_began_owing ? "R15" : "R14",
                     "the double %s on the %s train must be covered", dbl, game_train_name(g, owed->train));
        return;
    }
    if (!owed && !train_open_to(g, train, seat)) {
        if (g->eliminated[train])
            verdict_fail(v, ERR_TRAIN_CLOSED, "R7", "%s is out of the match and has no train", g->names[train]);
        else
            verdict_fail(v, ERR_TRAIN_CLOSED, "R7", "%s's train has no marker", g->names[train]);
        return;
    }
    int open = g->trains[train].open_pip;
    if (!tile_has_pip(tile, open)) {
        tile_format(tile, text);
        verdict_fail(v, ERR_NO_MATCH, "R7", "%s does not fit the open end %d of the %s train",
                     text, open, game_train_name(g, train));
        return;
    }
    if (!owed && train != seat && first_turn_limited(g, seat)) {
        verdict_fail(v, ERR_HOUSE_RULE, 0, "%s: in a first turn of the round %s may play only on their own train",
                     g->rules->first_turn_by ? g->rules->first_turn_by : "first-turn-own-train", g->names[seat]);
        return;
    }
    bool allowed;
    char why[RULES_MESSAGE_SIZE];
    if (ask_may_play(g, tile, train, &allowed, why, v) != 0) return;
    if (!allowed) {
        verdict_fail(v, ERR_HOUSE_RULE, 0, "%s", why[0] ? why : "a house rule forbids this play");
        return;
    }
    lay_tile(g, m, v);
}

static void draw(struct game *g, const struct move *m, struct verdict *v)
{
    int seat = m->seat;
    int plays = any_play(g, v);
    if (plays < 0) return;
    if (plays > 0) {
        verdict_fail(v, ERR_MUST_PLAY, "R8", "%s holds a playable tile", g->names[seat]);
        return;
    }
    bool hooked = g->rules->hooks.asks_per_move || g->hunting;
    bool allowed = hooked ? draw_allowed(g, v) : g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0;
    if (hooked && v->code != ERR_NONE) return;
    if (!allowed) {
        verdict_fail(v, ERR_ALREADY_DRAWN, "R9", "%s has already drawn for this play", g->names[seat]);
        return;
    }
    bool empty = hooked ? boneyard_empty(g, v) : tileset_is_empty(g->boneyard);
    if (hooked && v->code != ERR_NONE) return;
    if (empty) {
        verdict_fail(v, ERR_BONEYARD_EMPTY, "R10", "the boneyard is empty");
        return;
    }
    tile_t tile = m->tile;
    char text[TILE_TEXT_SIZE];
    if (tile == TILE_NONE && !g->seeded) {         /* the reader refuses this first */
        verdict_fail(v, ERR_SYNTAX, "R23", "draw must name the tile: this match has no seed");
        return;
    }
    if (tile != TILE_NONE && !tileset_holds(&g->boneyard, tile)) {
        tile_format(tile, text);
        verdict_fail(v, ERR_NOT_IN_BONEYARD, "R23", "%s is not in the boneyard", text);
        return;
    }
    if (g->seeded) {
        tile_t next = g->boneyard_order[g->boneyard_next];
        if (tile != TILE_NONE && tile != next) {
            tile_format(tile, text);
            verdict_fail(v, ERR_DRAW_MISMATCH, "R23", "%s is not the next tile of the boneyard", text);
            return;
        }
        tile = next;
        g->boneyard_next++;
    }
    take_tile(g, seat, tile, v);
}

static void pass(struct game *g, const struct move *m, struct verdict *v)
{
    int seat = m->seat;
    int plays = any_play(g, v);
    if (plays < 0) return;
    bool must_draw = plays == 0 && draw_owed(g, v);
    bool allowed = !plays && !must_draw;
    if (g->rules->hooks.asks_per_move || g->hunting) {
        if (v->code != ERR_NONE) return;
        allowed = pass_allowed(g, plays > 0, must_draw, v);
        if (v->code != ERR_NONE) return;
    }
    if (!allowed) {
        if (plays > 0)
            verdict_fail(v, ERR_MUST_PLAY, "R11", "%s holds a playable tile", g->names[seat]);
        else if (must_draw || g->hunting)
            verdict_fail(v, ERR_MUST_DRAW, "R11", "%s must draw first", g->names[seat]);
        else
            verdict_fail(v, ERR_RULES, 0, "may_pass refuses the pass of %s, who can neither play nor draw",
                         g->names[seat]);
        return;
    }
    end_turn(g, true, true, v);                        /* [R11] the marker */
}

/* Seeded games deal when the first move of a round arrives; false with v set when a
 * rules hook failed on the way. */
static bool deal_if_due(struct game *g, struct verdict *v)
{
    if (g->phase == PHASE_SETUP) {
        g->phase = PHASE_DEALING;
        g->round = 1;
        if (!round_start(g, v)) return false;
    }
    if (g->phase == PHASE_DEALING) return round_deal_seeded(g, v);
    return true;
}

void game_move(struct game *g, const struct move *m, struct verdict *v)
{
    assert(GAME_SEAT_VALID(g, m->seat));
    assert(m->kind == MOVE_PASS || (m->kind == MOVE_PLAY ? TILE_VALID(m->tile) && GAME_TRAIN_VALID(g, m->train)
                                                         : m->kind == MOVE_DRAW && (m->tile == TILE_NONE || TILE_VALID(m->tile))));
    verdict_reset(v);
    if (g->phase == PHASE_OVER) {
        verdict_fail(v, ERR_GAME_OVER, "R24", "the match is over");
        return;
    }
    /* A rejected line leaves the game as it was: keep a copy where the move may
     * start a round or call a hook that can fail half-way. */
    struct game before;
    bool saved = false;
    if (g->phase != PHASE_PLAYING || g->rules->hooks.asks_per_move || g->hunting ||
        (g->rules->hooks.at_round_end &&
         (tileset_is_empty(g->boneyard) || tileset_at_most_one(g->hands[g->turn])))) {
        before = *g;
        saved = true;
    }
    if (game_needs_deal(g)) {
        if (!g->seeded) {
            verdict_fail(v, ERR_BAD_DEAL, "R5", "not every hand of round %d is dealt: give each player a deal line "
                         "(deal NAME TILE...)%s", g->round,
                         game_setup_open(g) ? ", or a seed line first so that the referee deals" : "");
            return;
        }
        if (!deal_if_due(g, v)) { *g = before; return; }
    }
    if (m->seat != g->turn) {
        verdict_fail(v, ERR_NOT_YOUR_TURN, "R24", "it is %s's turn", g->names[g->turn]);
    } else if (m->kind == MOVE_PLAY) {
        play(g, m, v);
    } else if (m->kind == MOVE_DRAW) {
        draw(g, m, v);
    } else {
        pass(g, m, v);
    }
    if (v->code != ERR_NONE && saved) *g = before;
    check_invariants(g);
}
