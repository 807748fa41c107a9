/* The quick ways of a plain turn (game_play_quick, game_draw_quick, game_pass_quick)
 * are game_move: in positions of many self-played matches, at 2 to 10 players, under
 * canonical rules, the shipped files and house rules with hooks, seeded and the same
 * positions in an unseeded twin (deal lines, every draw naming its tile), every
 * candidate move of the player to act (each tile of the set on each train, a draw of
 * no tile and of each tile, the pass) goes both ways. What a quick way accepts must be
 * the move game_move accepts, the same game byte for byte and the same verdict; what
 * it refuses it must leave untouched; in a plain turn it must accept every move
 * game_move accepts, and outside one (a per-move hook, a round to deal, the hunt for
 * the engine, a round-end hook within reach, the match over) none. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "luarules.h"

/* Every candidate is swept in one position out of SWEEP_EVERY (and in the positions
 * before a deal and after the match); the legal moves in every position. */
#define SWEEP_EVERY 61

/* The names of a set (a '/' names a file under rules/), and whether it has a per-move
 * hook (may_play, or one of the turn's questions). */
struct rule_set {
    const char *names[4];
    bool hooked;
};
static const struct rule_set rule_sets[] = {
    {{NULL}, false},
    {{"doubles-anywhere-lifo", NULL}, false},
    {{"doubles-anywhere-fifo", "marker-after-cover", NULL}, false},
    {{"draw-until-playable", NULL}, false},
    {{"first-turn-own-train", NULL}, false},
    {{"elimination-100", "double-blank-50", NULL}, false},
    {{"positive-scoring", "double-out-doubles", NULL}, false},
    {{"ascending", "ten-players", NULL}, false},
    {{"engine-from-hand", NULL}, false},
    {{"doubles-anywhere-lifo", "first-turn-own-train", "draw-until-playable"}, false},
    {{"examples/double-nine", NULL}, false},
    {{"examples/double-fifteen", NULL}, false},
    {{"examples/target-score", NULL}, false},
    {{"examples/marker-penalty", NULL}, false},
    {{"first-turn-chain", NULL}, true},
    {{"examples/first-turn-no-doubles", NULL}, true},
    {{"examples/mex-after-own", NULL}, true},
    {{"examples/blocked-after-passes", NULL}, true},
    {{"examples/boneyard-reserve", NULL}, true},
    {{"examples/drawn-tile-optional", NULL}, true},
    {{"examples/trainless-draws", NULL}, true},
};
#define NSETS (sizeof rule_sets / sizeof rule_sets[0])

/* Why a turn is not plain (engine.h): the quick ways must refuse every move of it. */
enum plainness {
    PLAIN,
    NOT_DEALT,           /* set-up, or a round waiting for its hands */
    MATCH_OVER,
    PER_MOVE_HOOK,       /* may_play, or a question of the turn */
    HUNTING,             /* nobody held the engine: players draw until it turns up */
    ROUND_END_HOOK,      /* a hook of a round's end within reach: boneyard empty, or one tile left */
    NPLAINNESS
};
static const char *const plainness_names[] = {"plain turn",    "round not dealt",     "match over",
                                              "per-move hook", "hunt for the engine", "round-end hook within reach"};

/* The plain turn of engine.h as the test reads it (no may_play, none of the turn's
 * questions, the round in play and its engine laid, and no round's end within a move
 * while a hook waits for one): where it says PLAIN the quick ways must accept exactly
 * what game_move accepts; elsewhere nothing. */
static enum plainness plainness(const struct game *g)
{
    const struct rules_hooks *h = &g->rules->hooks;
    if (g->phase == PHASE_OVER) return MATCH_OVER;
    if (g->phase != PHASE_PLAYING) return NOT_DEALT;
    if (h->may_play || h->asks_per_move) return PER_MOVE_HOOK;
    if (g->hunting) return HUNTING;
    if (h->at_round_end && (tileset_is_empty(g->boneyard) || tileset_count(g->hands[g->turn]) <= 1))
        return ROUND_END_HOOK;
    return PLAIN;
}

enum { QPLAY, QDRAW, QPASS, QOUTSIDE, QKINDS };   /* QOUTSIDE: any move outside a plain turn */
static const char *const kind_names[] = {"play", "draw", "pass", "outside a plain turn"};

struct tally {
    long calls, accepted, compared, failures;
    char first[600];                  /* the first failure, for the report */
};

static struct {
    struct tally kind[QKINDS];
    long positions, swept, legal_checked;
    long drew_none, drew_named, drew_unseeded;    /* quick draws accepted, by how the tile was given */
    long refused[NPLAINNESS];                     /* quick calls refused outside a plain turn, by why */
    long set_accepted[NSETS][3];                  /* quick moves accepted, by set and kind */
    bool round_end_hook[NSETS];
    /* quick plays accepted onto another seat's train, the Mexican train, with a double
     * owed, and quick moves that ended a round and the match */
    long onto_other, onto_mex, covers, round_ends, match_ends;
} t;

/* The match being walked, for messages and counts. */
struct walk {
    size_t set;
    const char *set_name;
    int players;
    uint64_t seed;
};

static void note_failure(struct tally *y, const struct walk *w, const struct game *g, const struct move *m,
                         const char *what, enum error_code code)
{
    if (y->failures++) return;
    char tile[TILE_TEXT_SIZE] = "", move[64];
    if (m->tile != TILE_NONE) tile_format(m->tile, tile);
    if (m->kind == MOVE_PLAY)
        snprintf(move, sizeof move, "play %s on the %s train", tile, game_train_name(g, m->train));
    else if (m->kind == MOVE_DRAW)
        snprintf(move, sizeof move, "draw %s", m->tile == TILE_NONE ? "(no tile)" : tile);
    else
        snprintf(move, sizeof move, "pass");
    snprintf(y->first, sizeof y->first,
             "%s, %d players, seed %llu, %s, round %d, seat %d (%s): %s: the quick way %s (game_move: %s)",
             w->set_name, w->players, (unsigned long long)w->seed, g->seeded ? "seeded" : "unseeded", g->round,
             g->turn, plainness_names[plainness(g)], move, what, error_code_name(code));
}

/* Candidate m of the player to act in g both ways: its quick way on a, game_move on b,
 * both copies of g on entry and again on return. */
static void compare(const struct walk *w, const struct game *g, struct game *a, struct game *b, const struct move *m,
                    enum plainness why)
{
    int kind = m->kind == MOVE_PLAY ? QPLAY : m->kind == MOVE_DRAW ? QDRAW : QPASS;
    struct tally *y = why == PLAIN ? &t.kind[kind] : &t.kind[QOUTSIDE];
    struct verdict va, vb;
    bool quick = m->kind == MOVE_PLAY ? game_play_quick(a, m->train, m->tile, &va)
                 : m->kind == MOVE_DRAW ? game_draw_quick(a, m->tile, &va)
                                        : game_pass_quick(a, &va);
    y->calls++;
    if (!quick) {
        if (memcmp(a, g, sizeof *g) != 0) {
            note_failure(y, w, g, m, "refused it but changed the game", ERR_NONE);
            *a = *g;
        }
        if (why != PLAIN) {
            t.refused[why]++;
            return;
        }
    }
    game_move(b, m, &vb);
    y->compared++;
    if (quick) {
        y->accepted++;
        t.set_accepted[w->set][kind]++;
        if (m->kind == MOVE_PLAY) {
            t.onto_other += m->train != g->turn && m->train != TRAIN_MEX;
            t.onto_mex += m->train == TRAIN_MEX;
            t.covers += g->ndoubles > 0;
        }
        t.round_ends += va.round_ended;
        t.match_ends += va.match_ended;
        if (m->kind == MOVE_DRAW && !g->seeded)
            t.drew_unseeded++;
        else if (m->kind == MOVE_DRAW)
            *(m->tile == TILE_NONE ? &t.drew_none : &t.drew_named) += 1;
        if (why != PLAIN)
            note_failure(y, w, g, m, "accepted it", vb.code);
        else if (vb.code != ERR_NONE)
            note_failure(y, w, g, m, "accepted it", vb.code);
        else if (!tu_same_verdict(&va, &vb, g->nplayers))
            note_failure(y, w, g, m, "accepted it with another verdict", vb.code);
        else if (memcmp(a, b, sizeof *a) != 0)
            note_failure(y, w, g, m, "accepted it and left another game", vb.code);
        *a = *g;
    } else if (vb.code == ERR_NONE) {
        note_failure(y, w, g, m, "refused it", vb.code);
    }
    *b = *g;
}

/* Every candidate of the player to act: each tile of the set on each train, a draw of
 * no tile and of each tile, the pass. */
static void sweep(const struct walk *w, const struct game *g, struct game *a, struct game *b)
{
    enum plainness why = plainness(g);
    *a = *g;
    *b = *g;
    int seat = g->turn;
    tileset set = g->rules->set_tiles;
    for (tile_t tile; (tile = tileset_pop(&set)) != TILE_NONE;) {
        for (int train = 0; train < g->nplayers; train++)
            compare(w, g, a, b, &(struct move){MOVE_PLAY, seat, tile, train}, why);
        compare(w, g, a, b, &(struct move){MOVE_PLAY, seat, tile, TRAIN_MEX}, why);
        compare(w, g, a, b, &(struct move){MOVE_DRAW, seat, tile, 0}, why);
    }
    compare(w, g, a, b, &(struct move){MOVE_DRAW, seat, TILE_NONE, 0}, why);
    compare(w, g, a, b, &(struct move){MOVE_PASS, seat, TILE_NONE, 0}, why);
    t.swept++;
}

/* The legal moves only (an unseeded draw names the boneyard's first tile). */
static void legal_only(const struct walk *w, const struct game *g, struct game *a, struct game *b)
{
    enum plainness why = plainness(g);
    struct move legal[GAME_MAX_LEGAL];
    int n = game_legal_moves(g, legal, GAME_MAX_LEGAL);
    *a = *g;
    *b = *g;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind == MOVE_DRAW && !g->seeded) {
            tileset bone = g->boneyard;
            legal[i].tile = tileset_pop(&bone);
        }
        compare(w, g, a, b, &legal[i], why);
        t.legal_checked++;
    }
}

/* The unseeded twin u is the seeded game g but for the seed and the boneyard's order. */
static void assert_twins(const struct game *g, const struct game *u)
{
    static struct game c;
    c = *g;
    c.seeded = u->seeded;
    c.rng = u->rng;
    c.boneyard_order_len = u->boneyard_order_len;
    c.boneyard_next = u->boneyard_next;
    memcpy(c.boneyard_order, u->boneyard_order, sizeof c.boneyard_order);
    assert_memory_equal(&c, u, sizeof c);
}

/* Deals u, by deal lines, the hands the seed dealt g (the engine back in the hand that
 * laid it). */
static void deal_twin(struct game *u, const struct game *g)
{
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        tile_t tiles[TILE_COUNT];
        int n = tu_dealt_tiles(g, s, tiles);
        struct verdict v;
        game_deal(u, s, tiles, n, &v);
        assert_int_equal(v.code, ERR_NONE);
    }
}

/* One match, seeded (g) and unseeded (u) side by side, greedy and random seats by turns. */
static void walk_match(const struct walk *w, const struct rules *rules)
{
    struct game *g = malloc(sizeof *g), *u = malloc(sizeof *u), *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_true(g && u && a && b);
    struct verdict v, vu;
    tu_seat_players(g, rules, w->players);
    tu_seat_players(u, rules, w->players);
    game_set_seed(g, w->seed, &v);
    assert_int_equal(v.code, ERR_NONE);
    uint64_t rng[RULES_MAX_PLAYERS];
    for (int s = 0; s < w->players; s++) rng[s] = w->seed * 37 + (uint64_t)s;
    int deals = 0;
    for (int n = 0; !game_is_over(g) && n < 20000; n++) {
        if (game_needs_deal(g)) {
            if (deals++ < 2) {                 /* set-up, and the second round's start */
                sweep(w, g, a, b);
                sweep(w, u, a, b);
            }
            assert_true(game_deal_seeded(g));
            deal_twin(u, g);
            assert_twins(g, u);
        }
        t.positions++;
        if (w->set == 0) assert_int_equal(plainness(g), PLAIN);   /* canonical: every turn in play */
        if (t.positions % SWEEP_EVERY == 0) {
            sweep(w, g, a, b);
            sweep(w, u, a, b);
        } else {
            legal_only(w, g, a, b);
            legal_only(w, u, a, b);
        }
        int seat = g->turn;
        struct move m = bot_choose(seat % 2 ? BOT_RANDOM : BOT_GREEDY, g, &rng[seat]);
        game_move(g, &m, &v);
        assert_int_equal(v.code, ERR_NONE);
        if (m.kind == MOVE_DRAW) m.tile = v.drew;
        game_move(u, &m, &vu);
        assert_true(tu_same_verdict(&v, &vu, w->players));
        assert_twins(g, u);
    }
    assert_true(game_is_over(g));
    sweep(w, g, a, b);
    sweep(w, u, a, b);
    free(b);
    free(a);
    free(u);
    free(g);
}

static int walk_all(void **state)
{
    (void)state;
    struct luarules *lua = luarules_new();
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua);
    struct rules canonical;
    rules_init_canonical(&canonical);
    for (size_t r = 0; r < NSETS; r++) {
        char paths[3][4096];
        const char *files[3];
        int n = tu_rule_files(rule_sets[r].names, paths, files);
        void *handle;
        const struct rules *rules = tu_load_rules(&loader, files, n, &canonical, &handle);
        t.round_end_hook[r] = rules->hooks.at_round_end;
        bool hooked = rules->hooks.may_play || rules->hooks.asks_per_move;
        if (hooked != rule_sets[r].hooked)
            fail_msg("%s: the table says %s per-move hook", n ? files[0] : "canonical",
                     rule_sets[r].hooked ? "a" : "no");
        int top = rules->max_players < 10 ? rules->max_players : 10;
        for (int players = rules->min_players; players <= top; players++) {
            struct walk w = {r, n ? rule_sets[r].names[0] : "canonical", players, 977 * (uint64_t)players + r};
            walk_match(&w, rules);
        }
        if (handle) loader.release(loader.ctx, handle);
    }
    luarules_free(lua);
    print_message("%ld positions (%ld swept), %ld legal moves checked; quick calls / accepted / compared "
                  "with game_move: play %ld/%ld/%ld, draw %ld/%ld/%ld, pass %ld/%ld/%ld, outside a plain turn "
                  "%ld/%ld\n",
                  t.positions, t.swept, t.legal_checked, t.kind[QPLAY].calls, t.kind[QPLAY].accepted,
                  t.kind[QPLAY].compared, t.kind[QDRAW].calls, t.kind[QDRAW].accepted, t.kind[QDRAW].compared,
                  t.kind[QPASS].calls, t.kind[QPASS].accepted, t.kind[QPASS].compared, t.kind[QOUTSIDE].calls,
                  t.kind[QOUTSIDE].accepted);
    assert_true(t.positions > 20000);
    assert_true(t.swept > 300);
    return 0;
}

static void assert_no_failure(int kind)
{
    if (t.kind[kind].failures) fail_msg("%ld failures; the first: %s", t.kind[kind].failures, t.kind[kind].first);
}

/* Every set without a per-move hook had quick moves of kind accepted (passes only where
 * no round-end hook makes the turns of the empty boneyard not plain). */
static void assert_accepted_in_every_plain_set(int kind)
{
    for (size_t r = 0; r < NSETS; r++) {
        if (rule_sets[r].hooked || (kind == QPASS && t.round_end_hook[r])) continue;
        if (!t.set_accepted[r][kind])
            fail_msg("%s: no quick %s accepted", rule_sets[r].names[0] ? rule_sets[r].names[0] : "canonical",
                     kind_names[kind]);
    }
}

static void R7_R15_a_quick_play_is_the_play_of_game_move(void **state)
{
    (void)state;
    assert_no_failure(QPLAY);
    print_message("quick plays accepted: %ld onto another seat's train, %ld onto the Mexican train, %ld with a double "
                  "uncovered; quick moves that ended a round %ld, the match %ld\n",
                  t.onto_other, t.onto_mex, t.covers, t.round_ends, t.match_ends);
    assert_true(t.kind[QPLAY].accepted > 1000);
    assert_true(t.onto_other > 100 && t.onto_mex > 100 && t.covers > 100 && t.round_ends > 100 && t.match_ends > 0);
    assert_accepted_in_every_plain_set(QPLAY);
}

static void R9_R10_a_quick_draw_is_the_draw_of_game_move(void **state)
{
    (void)state;
    assert_no_failure(QDRAW);
    print_message("quick draws accepted: %ld of no tile, %ld named (seeded), %ld unseeded\n", t.drew_none,
                  t.drew_named, t.drew_unseeded);
    assert_true(t.drew_none > 100 && t.drew_named > 100 && t.drew_unseeded > 100);
    assert_accepted_in_every_plain_set(QDRAW);
}

static void R11_a_quick_pass_is_the_pass_of_game_move(void **state)
{
    (void)state;
    assert_no_failure(QPASS);
    assert_true(t.kind[QPASS].accepted > 100);
    assert_accepted_in_every_plain_set(QPASS);
}

static void quick_ways_leave_every_other_turn_to_game_move(void **state)
{
    (void)state;
    assert_no_failure(QOUTSIDE);
    print_message("refused outside a plain turn: %ld not dealt, %ld match over, %ld per-move hook, %ld hunt, "
                  "%ld round-end hook\n",
                  t.refused[NOT_DEALT], t.refused[MATCH_OVER], t.refused[PER_MOVE_HOOK], t.refused[HUNTING],
                  t.refused[ROUND_END_HOOK]);
    for (int why = NOT_DEALT; why < NPLAINNESS; why++)
        if (!t.refused[why]) fail_msg("no turn met of this kind: %s", plainness_names[why]);
    for (size_t r = 0; r < NSETS; r++)
        for (int kind = QPLAY; kind <= QPASS; kind++)
            if (rule_sets[r].hooked && t.set_accepted[r][kind])
                fail_msg("%s has a per-move hook, yet a quick %s was accepted", rule_sets[r].names[0],
                         kind_names[kind]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R7_R15_a_quick_play_is_the_play_of_game_move),
        cmocka_unit_test(R9_R10_a_quick_draw_is_the_draw_of_game_move),
        cmocka_unit_test(R11_a_quick_pass_is_the_pass_of_game_move),
        cmocka_unit_test(quick_ways_leave_every_other_turn_to_game_move),
    };
    return cmocka_run_group_tests(tests, walk_all, NULL);
}
