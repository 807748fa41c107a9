/* Moves known to be legal: game_apply_known (a bot's move, chosen from the legal
 * masks) and the quick ways of a plain turn (the referee's fast path), which accept a
 * legal move without building any message and leave every other one to game_move.
 * Debug builds prove every move made here against game_move on a copy. */
#include "engine.h"

#include <assert.h>
#include <string.h>

#include "turn.h"

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

/* The move made here from before is game_move's: accepted, the same game and verdict. */
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
#define PROOF_BEFORE(g) const struct game proof_before = *(g)
#define PROOF_AFTER(g, kind, tile, train, v) \
    assert_judged_alike(&proof_before, &(struct move){(kind), proof_before.turn, (tile), (train)}, (g), (v))
#else
#define PROOF_BEFORE(g) ((void)0)
#define PROOF_AFTER(g, kind, tile, train, v) ((void)0)
#endif

void game_apply_known(struct game *g, const struct move *m, struct verdict *v)
{
    if (g->rules->hooks.may_play || move_needs_copy(g)) {
        game_move(g, m, v);
        return;
    }
    PROOF_BEFORE(g);
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
    PROOF_AFTER(g, m->kind, m->tile, m->train, v);
    check_invariants(g);
}

/* --- plain turns ----------------------------------------------------------------
 * A turn is plain when no hook has a say in it and it can neither start a round nor
 * end one with a hook to call: then a legal move is told from the rules' fields
 * alone. The quick ways only spot what is right; what they do not accept they leave
 * unchanged for game_move, the one judge of what is wrong and its words. */
static inline bool turn_is_plain(const struct game *g)
{
#ifndef NDEBUG
    /* asks_per_move stands for every question of the turn (rules.h): trusted here, as
     * game_move trusts it for its copy */
    bool any = false;
    for (int q = ASK_MAY_DRAW; q <= ASK_BLOCKED; q++) any |= g->rules->hooks.asks[q];
    assert(!any || g->rules->hooks.asks_per_move);
#endif
    return !g->rules->hooks.may_play && !move_needs_copy(g);
}

/* Whether the player to act holds a tile that fits where they may play. */
static inline bool can_play_plain(const struct game *g, struct verdict *v)
{
    return !tileset_is_empty(playable_tiles(g, owed_double(g, v)));
}

/* [R7][R13][R14][R15] and first-turn-own-train, as play() in move.c accepts. */
bool game_play_quick(struct game *g, int train, tile_t tile, struct verdict *v)
{
    assert(GAME_TRAIN_VALID(g, train) && TILE_VALID(tile));
    if (!turn_is_plain(g)) return false;
    int seat = g->turn;
    const struct uncovered_double *owed = owed_double(g, v);
    if (!tileset_holds(&g->hands[seat], tile) || !tile_has_pip(tile, g->trains[train].open_pip)) return false;
    if (owed ? train != owed->train || !tile_has_pip(tile, owed->pip)
             : !train_open_to(g, train, seat) || (g->rules->first_turn_own_train && train != seat &&
                                                   !g->had_turn[seat]))
        return false;
    PROOF_BEFORE(g);
    verdict_reset(v);
    lay_tile(g, &(struct move){MOVE_PLAY, seat, tile, train}, v);
    PROOF_AFTER(g, MOVE_PLAY, tile, train, v);
    check_invariants(g);
    return true;
}

/* [R8][R9][R10][R23], as draw() in move.c accepts. */
bool game_draw_quick(struct game *g, tile_t tile, struct verdict *v)
{
    assert(tile == TILE_NONE || TILE_VALID(tile));
    if (!turn_is_plain(g) || tileset_is_empty(g->boneyard) ||
        (g->rules->draw != DRAW_UNTIL_PLAYABLE && g->draws != 0))
        return false;
    tile_t next = g->seeded ? g->boneyard_order[g->boneyard_next] : TILE_NONE;
    if (g->seeded ? tile != TILE_NONE && tile != next : tile == TILE_NONE || !tileset_holds(&g->boneyard, tile))
        return false;
    if (can_play_plain(g, v)) return false;
    PROOF_BEFORE(g);
    verdict_reset(v);
    g->boneyard_next += g->seeded;
    take_tile(g, g->turn, g->seeded ? next : tile, v);
    PROOF_AFTER(g, MOVE_DRAW, tile, 0, v);
    check_invariants(g);
    return true;
}

/* [R10][R11], as pass() in move.c accepts. */
bool game_pass_quick(struct game *g, struct verdict *v)
{
    if (!turn_is_plain(g)) return false;
    bool must_draw = !tileset_is_empty(g->boneyard) && (g->rules->draw == DRAW_UNTIL_PLAYABLE || g->draws == 0);
    if (must_draw || can_play_plain(g, v)) return false;
    PROOF_BEFORE(g);
    verdict_reset(v);
    end_turn(g, true, true, v);                        /* [R11] the marker */
    PROOF_AFTER(g, MOVE_PASS, TILE_NONE, 0, v);
    check_invariants(g);
    return true;
}
