/* The half of a move that both ways of taking one share: what the player to act owes
 * and may reach (the owed double, the open trains, the playable tiles), and making a
 * move once it is known legal (laying a tile, taking one, ending the turn). The judge
 * (move.c) and the ways that know a move is legal (known.c) include it; inline, as it
 * is the referee's and the bots' hot path. Internal to the engine. */
#ifndef MTREF_TURN_H
#define MTREF_TURN_H

#include <string.h>
#ifdef MTREF_INVARIANTS
#include <stdio.h>
#include <stdlib.h>
#endif

#include "engine.h"
#include "round.h"

/* The head of the queue of uncovered doubles: the one to cover first. */
static inline const struct uncovered_double *head_double(const struct game *g)
{
    return g->rules->doubles == DOUBLES_ANYWHERE_LIFO ? &g->doubles[g->ndoubles - 1] : &g->doubles[0];
}

/* The double the current player must cover now, or NULL when their play is free.
 * [R14][R15] Canonically the player who laid it covers it next; under the
 * doubles-anywhere rules its layer plays on, and later turns cover the queue's head.
 * A must_cover hook may lift the duty or lay it on the player to act (the head). */
static inline const struct uncovered_double *owed_with_doubles(const struct game *g, struct verdict *v);

static inline const struct uncovered_double *owed_double(const struct game *g, struct verdict *v)
{
    return g->ndoubles == 0 ? 0 : owed_with_doubles(g, v);
}

static inline const struct uncovered_double *owed_with_doubles(const struct game *g, struct verdict *v)
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
static inline bool first_turn_limited(const struct game *g, int seat)
{
    return g->rules->first_turn_own_train && !g->had_turn[seat];
}

/* [R7] Trains open to seat: its own, the Mexican, and marked trains of others. */
static inline bool train_open_to(const struct game *g, int train, int seat)
{
    if (train == seat || train == TRAIN_MEX) return true;
    return !g->eliminated[train] && g->trains[train].marker;
}

/* Tiles of the current hand that fit somewhere the player may play, before any
 * per-move hook is asked. */
static inline tileset playable_tiles(const struct game *g, const struct uncovered_double *owed)
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

/* The boneyard counts as empty [R9][R10]: nothing in it, or nothing a house rule
 * lets be drawn (the hunt for an engine draws past any such rule). */
static inline bool boneyard_empty(const struct game *g, struct verdict *v)
{
    if (tileset_is_empty(g->boneyard)) return true;
    if (!g->rules->hooks.asks[ASK_DRAWABLE] || g->hunting) return false;
    int64_t size = tileset_count(g->boneyard);
    return game_ask(g, ASK_DRAWABLE, TILE_NONE, -1, size, v) <= 0;
}

/* [R20] At the end of a turn, with the boneyard empty: can nobody ever play again? */
static inline bool round_blocked(const struct game *g, bool empty)
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

/* Whether game_move would keep a copy of g for this move (and so whether the move may
 * ask a hook or start a round): game_apply_known leaves those moves to it. */
static inline bool move_needs_copy(const struct game *g)
{
    const struct rules_hooks *h = &g->rules->hooks;
    return g->phase != PHASE_PLAYING || h->asks_per_move || g->hunting ||
           (h->at_round_end && (tileset_is_empty(g->boneyard) || tileset_at_most_one(g->hands[g->turn])));
}

#endif
