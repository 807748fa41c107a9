/* Moves: which plays are legal, and play, draw, pass with the precedence of
 * protocol.md [R7-R20]. The hot path of the referee: tile sets, no allocation. */
#include "engine.h"

#include <assert.h>
#include <string.h>
#ifdef MTREF_INVARIANTS
#include <stdio.h>
#include <stdlib.h>
#endif

#include "round.h"

/* The head of the queue of uncovered doubles: the one to cover first. */
static const struct uncovered_double *head_double(const struct game *g)
{
    return g->rules->doubles == DOUBLES_ANYWHERE_LIFO ? &g->doubles[g->ndoubles - 1] : &g->doubles[0];
}

/* The double the current player must cover now, or NULL when their play is free.
 * [R14][R15] Canonically the player who laid it covers it next; under the
 * doubles-anywhere rules its layer plays on, and later turns cover the queue's head.
 * A must_cover hook may lift the duty or lay it on the player to act (the head). */
static const struct uncovered_double *owed_with_doubles(const struct game *g, struct verdict *v);

static inline const struct uncovered_double *owed_double(const struct game *g, struct verdict *v)
{
    return g->ndoubles == 0 ? 0 : owed_with_doubles(g, v);
}

static const struct uncovered_double *owed_with_doubles(const struct game *g, struct verdict *v)
{
    const struct uncovered_double *owed;
    switch (g->rules->doubles) {
    case DOUBLES_ANYWHERE_LIFO:
    case DOUBLES_ANYWHERE_FIFO:
        owed = g->turn_began_owing ? head_double(g) : 0;
        break;
    default:
        owed = &g->doubles[0];
        break;
    }
    if (!g->rules->hooks.asks[ASK_MUST_COVER]) return owed;
    bool must = game_ask(g, ASK_MUST_COVER, TILE_NONE, -1, owed != 0, v) != 0;
    return must ? (owed ? owed : head_double(g)) : 0;
}

/* first-turn-own-train: the seat has not yet had its first turn of the round. */
static bool first_turn_limited(const struct game *g, int seat)
{
    return g->rules->first_turn_own_train && !g->had_turn[seat];
}

/* [R7] Trains open to seat: its own, the Mexican, and marked trains of others. */
static bool train_open_to(const struct game *g, int train, int seat)
{
    if (train == seat || train == TRAIN_MEX) return true;
    return !g->eliminated[train] && g->trains[train].marker;
}

/* Tiles of the current hand that fit somewhere the player may play, before any
 * per-move hook is asked. */
static tileset playable_tiles(const struct game *g, const struct uncovered_double *owed)
{
    int seat = g->turn;
    tileset hand = g->hands[seat];
    if (owed) return tileset_and(hand, tileset_with_pip(owed->pip));
    tileset fits = tileset_with_pip(g->trains[seat].open_pip);
    if (!first_turn_limited(g, seat)) {
        fits = tileset_or(fits, tileset_with_pip(g->trains[TRAIN_MEX].open_pip));
        /* train_open_to of every other seat, without a branch on its marker (the
         * player's own train, in fits already, may be added again) */
        for (int o = 0; o < g->nplayers; o++) {
            uint64_t open = -(uint64_t)(!g->eliminated[o] & g->trains[o].marker);
            tileset t = tileset_with_pip(g->trains[o].open_pip);
            fits.word[0] |= t.word[0] & open;
            fits.word[1] |= t.word[1] & open;
            fits.word[2] |= t.word[2] & open;
        }
    }
    return tileset_and(hand, fits);
}

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

/* The boneyard counts as empty [R9][R10]: nothing in it, or nothing a house rule
 * lets be drawn (the hunt for an engine draws past any such rule). */
static bool boneyard_empty(const struct game *g, struct verdict *v)
{
    if (tileset_is_empty(g->boneyard)) return true;
    if (!g->rules->hooks.asks[ASK_DRAWABLE] || g->hunting) return false;
    int64_t size = tileset_count(g->boneyard);
    return game_ask(g, ASK_DRAWABLE, TILE_NONE, -1, size, v) <= 0;
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

/* [R20] At the end of a turn, with the boneyard empty: can nobody ever play again? */
static bool round_blocked(const struct game *g, bool empty)
{
    if (!empty) return false;
    tileset hands = tileset_empty();
    for (int s = 0; s < g->nplayers; s++)
        if (!g->eliminated[s]) hands = tileset_or(hands, g->hands[s]);
    tileset fits;
    if (g->ndoubles > 0) {
        fits = tileset_with_pip(head_double(g)->pip);
    } else {
        fits = tileset_with_pip(g->trains[TRAIN_MEX].open_pip);
        for (int s = 0; s < g->nplayers; s++)
            if (!g->eliminated[s]) fits = tileset_or(fits, tileset_with_pip(g->trains[s].open_pip));
    }
    return tileset_is_empty(tileset_and(hands, fits));
}

/* A turn ends with a play that owes no cover, or a pass [R18][R20]. Besides R20, a
 * round in which everyone passed twice round the table, each pass leaving the
 * boneyard empty or ending a turn without a draw or a play, is blocked: a per-move
 * hook can forbid plays R20 cannot see, a may_draw or may_pass hook can let players
 * pass by a boneyard that still holds tiles, and a round must end. Canonically a
 * player passes only once the boneyard is empty, so only house rules meet the second
 * kind of idle pass. */
static inline __attribute__((always_inline)) void end_turn(struct game *g, bool mark, bool passed, struct verdict *v)
{
    int seat = g->turn;
    if (mark) g->trains[seat].marker = true;
    g->had_turn[seat] = true;
    g->draws = 0;
    g->pass_streak = passed ? g->pass_streak + 1 : 0;
    bool empty = boneyard_empty(g, v);
    bool idle = passed && (empty || (g->turn_draws == 0 && g->plays == 0));
    g->idle_passes = idle ? g->idle_passes + 1 : 0;
    bool blocked = empty && round_blocked(g, empty);   /* the call only once the boneyard is empty */
    if (g->rules->hooks.asks_per_move) {
        if (g->rules->hooks.asks[ASK_BLOCKED]) blocked = game_ask(g, ASK_BLOCKED, TILE_NONE, -1, blocked, v) != 0;
        if (v->code != ERR_NONE) return;
    }
    if (blocked || (g->idle_passes && g->idle_passes >= 2 * game_players_in(g))) {
        round_finish(g, -1, false, v);
        return;
    }
    /* the next seat, unless it is out; the wrap-around by a mask, as it comes once
     * round the table and a jump on it is mispredicted that often */
    int next = (seat + 1) & -(seat + 1 < g->nplayers);
    g->turn = g->eliminated[next] ? game_next_seat(g, seat) : next;
    g->turn_began_owing = g->ndoubles > 0;
    g->plays = 0;
    g->turn_draws = 0;
    g->drew = TILE_NONE;
}

/* A legal play: the tile onto its train, and what follows [R12][R14][R19]. */
static inline __attribute__((always_inline)) void lay_tile(struct game *g, const struct move *m, struct verdict *v)
{
    int seat = m->seat, train = m->train;
    tile_t tile = m->tile;
    int open = g->trains[train].open_pip;
    bool began_owing = g->turn_began_owing;
    tileset_remove(&g->hands[seat], tile);
    struct train *tr = &g->trains[train];
    tr->tiles[tr->length++] = (unsigned char)tile;
    tr->open_pip = tile_low(tile) + tile_high(tile) - open;   /* tile_other_pip, without a branch */
    tr->marker &= train != seat;                       /* [R12], without a jump */
    bool covered = false;
    for (int i = 0; i < g->ndoubles; i++)
        if (g->doubles[i].train == train) {
            memmove(&g->doubles[i], &g->doubles[i + 1], (size_t)(g->ndoubles - i - 1) * sizeof g->doubles[0]);
            g->ndoubles--;
            covered = true;
            break;
        }
    bool is_double = tile_is_double(tile);
    if (tileset_is_empty(g->hands[seat])) {            /* [R19] even on a double */
        round_finish(g, seat, is_double, v);
        return;
    }
    if (is_double) g->doubles[g->ndoubles++] = (struct uncovered_double){train, open};
    g->plays++;
    bool again = is_double;                            /* [R14] one more play */
    if (g->rules->hooks.asks_per_move && g->rules->hooks.asks[ASK_ANOTHER_PLAY]) {
        again = game_ask(g, ASK_ANOTHER_PLAY, tile, train, again, v) != 0;
        if (v->code != ERR_NONE) return;
    }
    if (again) {
        if (g->plays >= GAME_MAX_TURN_PLAYS) {
            verdict_fail(v, ERR_RULES, 0, "the turn of %s has not ended after %d plays: does a rule give another "
                         "play for ever?", g->names[seat], g->plays);
            return;
        }
        g->draws = 0;                                  /* [R17] the allowance is per play */
        return;
    }
    bool mark = g->rules->marker_after_cover && began_owing && covered && train != seat;
    end_turn(g, mark, false, v);
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
    if (!tileset_has(g->hands[seat], tile)) {
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

/* A legal draw of tile (the boneyard's next one when seeded, already counted) [R9][R17]. */
static inline __attribute__((always_inline)) void take_tile(struct game *g, int seat, tile_t tile, struct verdict *v)
{
    tileset_remove(&g->boneyard, tile);
    tileset_add(&g->hands[seat], tile);
    g->draws++;
    g->turn_draws++;
    g->drew = tile;
    v->drew = tile;
    if (!g->hunting) return;
    /* the hunt: the engine is laid at once; any other tile stays, and the turn passes */
    if (tile == tile_double(g->engine_pip)) {
        round_lay_engine_from(g, seat, v);
        return;
    }
    g->turn = game_next_seat(g, seat);
    g->draws = 0;
    g->turn_draws = 0;
    g->drew = TILE_NONE;
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
    if (tile != TILE_NONE && !tileset_has(g->boneyard, tile)) {
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

/* Builds with MTREF_INVARIANTS check the engine's invariants after every accepted move. */
static inline void check_invariants(const struct game *g)
{
#ifdef MTREF_INVARIANTS
    const char *why;
    if (!game_invariants_hold(g, &why)) {
        fprintf(stderr, "mtref: invariant broken after a move: %s\n", why);
        abort();
    }
#else
    (void)g;
#endif
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

/* Whether game_move would keep a copy of g for this move (and so whether the move may
 * ask a hook or start a round): game_apply_known leaves those moves to it. */
static inline bool move_needs_copy(const struct game *g)
{
    const struct rules_hooks *h = &g->rules->hooks;
    return g->phase != PHASE_PLAYING || h->asks_per_move || g->hunting ||
           (h->at_round_end && (tileset_is_empty(g->boneyard) || tileset_at_most_one(g->hands[g->turn])));
}


/* --- plain turns ----------------------------------------------------------------
 * A turn is plain when no hook has a say in it and it can neither start a round nor
 * end one with a hook to call: then a legal move is told from the rules' fields
 * alone, and game_*_quick accept it without building any message. What they do not
 * accept they leave unchanged for game_move, which judges it and words the verdict:
 * one judge of what is wrong, the quick ways only spot what is right. */
static inline bool turn_is_plain(const struct game *g)
{
    return !g->rules->hooks.may_play && !move_needs_copy(g);
}

/* Whether the player to act holds a tile that fits where they may play. */
static inline bool can_play_plain(const struct game *g, struct verdict *v)
{
    return !tileset_is_empty(playable_tiles(g, g->ndoubles ? owed_with_doubles(g, v) : 0));
}

#ifndef NDEBUG
static void assert_judged_alike(const struct game *before, const struct move *m, const struct game *after,
                                const struct verdict *v);
#define QUICK_BEFORE(g) struct game quick_before = *(g)
#define QUICK_AFTER(g, kind, tile, train, v) \
    assert_judged_alike(&quick_before, &(struct move){(kind), quick_before.turn, (tile), (train)}, (g), (v))
#else
#define QUICK_BEFORE(g) ((void)0)
#define QUICK_AFTER(g, kind, tile, train, v) ((void)0)
#endif

bool game_play_quick(struct game *g, int train, tile_t tile, struct verdict *v)
{
    assert(GAME_TRAIN_VALID(g, train) && TILE_VALID(tile));
    if (!turn_is_plain(g)) return false;
    int seat = g->turn;
    const struct uncovered_double *owed = g->ndoubles ? owed_with_doubles(g, v) : 0;
    if (!tileset_has(g->hands[seat], tile) || !tile_has_pip(tile, g->trains[train].open_pip)) return false;
    if (owed ? train != owed->train || !tile_has_pip(tile, owed->pip)
             : !train_open_to(g, train, seat) || (g->rules->first_turn_own_train && train != seat &&
                                                   !g->had_turn[seat]))
        return false;
    QUICK_BEFORE(g);
    verdict_reset(v);
    lay_tile(g, &(struct move){MOVE_PLAY, seat, tile, train}, v);
    QUICK_AFTER(g, MOVE_PLAY, tile, train, v);
    check_invariants(g);
    return true;
}

bool game_draw_quick(struct game *g, tile_t tile, struct verdict *v)
{
    assert(tile == TILE_NONE || TILE_VALID(tile));
    if (!turn_is_plain(g) || tileset_is_empty(g->boneyard) ||
        (g->rules->draw != DRAW_UNTIL_PLAYABLE && g->draws != 0))
        return false;
    tile_t next = g->seeded ? g->boneyard_order[g->boneyard_next] : TILE_NONE;
    if (g->seeded ? tile != TILE_NONE && tile != next : tile == TILE_NONE || !tileset_has(g->boneyard, tile))
        return false;
    if (can_play_plain(g, v)) return false;
    QUICK_BEFORE(g);
    verdict_reset(v);
    g->boneyard_next += g->seeded;
    take_tile(g, g->turn, g->seeded ? next : tile, v);
    QUICK_AFTER(g, MOVE_DRAW, tile, 0, v);
    check_invariants(g);
    return true;
}

bool game_pass_quick(struct game *g, struct verdict *v)
{
    if (!turn_is_plain(g)) return false;
    bool must_draw = !tileset_is_empty(g->boneyard) && (g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0);
    if (must_draw || can_play_plain(g, v)) return false;
    QUICK_BEFORE(g);
    verdict_reset(v);
    end_turn(g, true, true, v);                        /* [R11] the marker */
    QUICK_AFTER(g, MOVE_PASS, TILE_NONE, 0, v);
    check_invariants(g);
    return true;
}

#ifndef NDEBUG
/* The verdicts of the two ways agree on everything a caller reads of an accepted move. */
static bool same_verdict(const struct verdict *a, const struct verdict *b, int nplayers)
{
    if (a->code != b->code || a->drew != b->drew || a->round_ended != b->round_ended ||
        a->neliminated != b->neliminated || a->match_ended != b->match_ended || a->nwinners != b->nwinners)
        return false;
    if (a->round_ended) {
        const struct round_report *x = &a->report, *y = &b->report;
        if (x->round != y->round || x->engine_pip != y->engine_pip || x->out_seat != y->out_seat) return false;
        for (int s = 0; s < nplayers; s++)          /* the seats round_finish fills */
            if (x->in_round[s] != y->in_round[s] || x->points[s] != y->points[s]) return false;
    }
    for (int i = 0; i < a->neliminated; i++)
        if (a->eliminated[i] != b->eliminated[i]) return false;
    for (int s = 0; a->match_ended && s < nplayers; s++)   /* set when the match ends */
        if (a->winners[s] != b->winners[s]) return false;
    return true;
}

/* The quick way's move is game_move's: accepted, the same game and verdict. */
static void assert_judged_alike(const struct game *before, const struct move *m, const struct game *after,
                                const struct verdict *v)
{
    struct game judged = *before;
    struct verdict jv;
    game_move(&judged, m, &jv);
    assert(jv.code == ERR_NONE);
    assert(same_verdict(v, &jv, after->nplayers));
    assert(memcmp(after, &judged, sizeof judged) == 0);
}
#endif

void game_apply_known(struct game *g, const struct move *m, struct verdict *v)
{
    if (g->rules->hooks.may_play || move_needs_copy(g)) {
        game_move(g, m, v);
        return;
    }
#ifndef NDEBUG
    /* the proof in every Debug build: the full check of the same move, on a copy */
    struct game checked = *g;
    struct verdict cv;
    game_move(&checked, m, &cv);
    assert(cv.code == ERR_NONE);
#endif
    verdict_reset(v);
    int seat = g->turn;
    if (m->kind == MOVE_PLAY) {
        lay_tile(g, m, v);
    } else if (m->kind == MOVE_DRAW) {
        tile_t tile = m->tile;
        if (g->seeded) tile = g->boneyard_order[g->boneyard_next++];
        take_tile(g, seat, tile, v);
    } else {
        end_turn(g, true, true, v);                    /* [R11] the marker */
    }
#ifndef NDEBUG
    assert(same_verdict(v, &cv, g->nplayers));
    assert(memcmp(g, &checked, sizeof *g) == 0);
#endif
    check_invariants(g);
}
