/* Property test: self-played matches (2..8 players, 1, 7 and 13 rounds, random and
 * greedy bots) through the engine, checked at every step against a model of the
 * canonical rules kept by this file alone:
 *   a. after every move all 91 tiles are accounted for, each once [R23];
 *   b. at every state every play of a tile of the mover's hand on every train (of every
 *      tile of the set, 0..90, in the matches with the full sweep: one in ten of the
 *      1-round ones, half of the others), bare and named draws and a pass are tried on a
 *      copy: the engine's verdict is the one the rules and the precedence of
 *      protocol.md give, it accepts exactly the moves game_legal_moves lists (in the
 *      documented order), a rejected move leaves the game as it was, and moves by the
 *      seats not to act are not-your-turn; the engine's state matches the model's;
 *   c. every match is written as a record (explicit deals, named draws) and adjudicated
 *      again by check_descriptor: legal, complete, with the engine's totals and winners;
 *   d. the same seed gives the same record bytes; so does selfplay_match.
 * A failure names the seed, the match and the move. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "deal.h"
#include "bots.h"
#include "selfplay.h"

/* Where the test is, for the failure messages. */
static struct {
    const char *what;
    long match;                  /* index within its group */
    uint64_t seed;
    int players, rounds;
    long move;
} at;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            char why_[600];                                                                        \
            snprintf(why_, sizeof why_, __VA_ARGS__);                                              \
            fail_msg("%s: match %ld, seed %llu (%d players, %d rounds), move %ld: %s", at.what,    \
                     at.match, (unsigned long long)at.seed, at.players, at.rounds, at.move, why_); \
        }                                                                                          \
    } while (0)

static struct {
    long matches, matches_full, rounds, moves, states, states_full, tried;
} count;

static struct rules canonical;

/* Far above any canonical match: a round has at most 90 draws and 90 plays, and one
 * where everybody only passes is blocked [R20]. */
#define MOVES_MAX 20000L

/* ---- record text ---- */

struct text {
    char *data;
    size_t len, cap;
};

static void put(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1 << 14;
        while (t->len + n + 1 > cap) cap *= 2;
        char *bigger = realloc(t->data, cap);
        assert_non_null(bigger);
        t->data = bigger;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n + 1);
    t->len += n;
}

static const char *tile_text(tile_t t)
{
    static char buf[4][TILE_TEXT_SIZE];
    static int next;
    char *b = buf[next++ % 4];
    tile_format(t, b);
    return b;
}

static void put_move(struct text *t, const struct game *g, const struct move *m, tile_t drew)
{
    char line[80];
    if (m->kind == MOVE_PLAY)
        snprintf(line, sizeof line, "%s play %s %s\n", g->names[m->seat], tile_text(m->tile),
                 m->train == TRAIN_MEX ? "mex" : g->names[m->train]);
    else if (m->kind == MOVE_DRAW)
        snprintf(line, sizeof line, "%s draw %s\n", g->names[m->seat], tile_text(drew));
    else
        snprintf(line, sizeof line, "%s pass\n", g->names[m->seat]);
    put(t, line);
}

static void put_deal(struct text *t, const struct game *g)
{
    char line[64];
    snprintf(line, sizeof line, "round %d\n", g->round);
    put(t, line);
    for (int s = 0; s < g->nplayers; s++) {
        put(t, "deal ");
        put(t, g->names[s]);
        tileset hand = g->hands[s];
        for (tile_t tile; (tile = tileset_pop(&hand)) != TILE_NONE;) {
            put(t, " ");
            put(t, tile_text(tile));
        }
        put(t, "\n");
    }
}

/* ---- the model: the canonical rules, kept apart from the engine ---- */

struct model {
    int n, rounds, round, engine, turn;
    tileset hands[8], boneyard;
    int open[TRAIN_COUNT];
    bool marker[TRAIN_COUNT];
    bool owed;                  /* a double waits for its cover [R14][R15] */
    int owed_train, owed_pip;
    bool drawn;                 /* a draw was made for the current play [R9][R17] */
    int64_t totals[8];
    bool over;
};

/* What a finished move should have caused. */
struct outcome {
    bool round_ended, match_ended;
    int out_seat;
    int64_t points[8];
    bool winners[8];
    int nwinners;
};

static int64_t pips(tileset s)
{
    int64_t sum = 0;
    for (tile_t t; (t = tileset_pop(&s)) != TILE_NONE;) sum += tile_low(t) + tile_high(t);
    return sum;
}

static int hand_size(int n) { return n <= 4 ? 15 : n <= 6 ? 12 : 10; }   /* [R5] */

static int trains_of(const struct model *m, int trains[TRAIN_COUNT])
{
    int k = 0;
    for (int s = 0; s < m->n; s++) trains[k++] = s;
    trains[k++] = TRAIN_MEX;
    return k;
}

/* The verdict of a play by the seat to act, by rules.md and the precedence of
 * protocol.md: not-in-hand, must-cover, train-closed, no-match. */
static enum error_code expect_play(const struct model *m, tile_t tile, int train)
{
    int seat = m->turn;
    if (!tileset_has(m->hands[seat], tile)) return ERR_NOT_IN_HAND;
    if (m->owed) {
        if (train != m->owed_train || !tile_has_pip(tile, m->owed_pip)) return ERR_MUST_COVER;
    } else if (train != seat && train != TRAIN_MEX && !m->marker[train]) {
        return ERR_TRAIN_CLOSED;
    }
    if (!tile_has_pip(tile, m->open[train])) return ERR_NO_MATCH;
    return ERR_NONE;
}

static bool can_play(const struct model *m)
{
    int trains[TRAIN_COUNT], k = trains_of(m, trains);
    tileset hand = m->hands[m->turn];
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;)
        for (int i = 0; i < k; i++)
            if (expect_play(m, t, trains[i]) == ERR_NONE) return true;
    return false;
}

/* draw: must-play, already-drawn, boneyard-empty (then not-in-boneyard, draw-mismatch
 * for named draws, checked by the caller). */
static enum error_code expect_draw(const struct model *m)
{
    if (can_play(m)) return ERR_MUST_PLAY;
    if (m->drawn) return ERR_ALREADY_DRAWN;
    if (tileset_is_empty(m->boneyard)) return ERR_BONEYARD_EMPTY;
    return ERR_NONE;
}

/* pass: must-play, must-draw [R10][R11]. */
static enum error_code expect_pass(const struct model *m)
{
    if (can_play(m)) return ERR_MUST_PLAY;
    if (!tileset_is_empty(m->boneyard) && !m->drawn) return ERR_MUST_DRAW;
    return ERR_NONE;
}

/* [R20] nobody can ever play again. */
static bool blocked(const struct model *m)
{
    if (!tileset_is_empty(m->boneyard)) return false;
    tileset all = tileset_empty(), fits = tileset_empty();
    for (int s = 0; s < m->n; s++) all = tileset_or(all, m->hands[s]);
    if (m->owed) {
        fits = tileset_with_pip(m->owed_pip);
    } else {
        int trains[TRAIN_COUNT], k = trains_of(m, trains);
        for (int i = 0; i < k; i++) fits = tileset_or(fits, tileset_with_pip(m->open[trains[i]]));
    }
    return tileset_is_empty(tileset_and(all, fits));
}

static void finish_round(struct model *m, int out_seat, struct outcome *o)
{
    o->round_ended = true;
    o->out_seat = out_seat;
    for (int s = 0; s < m->n; s++) {
        o->points[s] = pips(m->hands[s]);              /* [R21] */
        m->totals[s] += o->points[s];
    }
    if (m->round < m->rounds) {
        m->round++;
        return;
    }
    m->over = o->match_ended = true;                   /* [R22] */
    int64_t best = m->totals[0];
    for (int s = 1; s < m->n; s++)
        if (m->totals[s] < best) best = m->totals[s];
    for (int s = 0; s < m->n; s++) {
        o->winners[s] = m->totals[s] == best;
        o->nwinners += o->winners[s];
    }
}

static void end_turn(struct model *m, struct outcome *o)
{
    m->drawn = false;
    if (blocked(m)) finish_round(m, -1, o);
    else m->turn = (m->turn + 1) % m->n;              /* [R2] */
}

/* Applies an accepted move to the model; drew is the tile a draw took. */
static void model_apply(struct model *m, const struct move *mv, tile_t drew, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    int seat = mv->seat;
    if (mv->kind == MOVE_DRAW) {
        CHECK(tileset_has(m->boneyard, drew), "drew %s, which is not in the boneyard", tile_text(drew));
        tileset_remove(&m->boneyard, drew);
        tileset_add(&m->hands[seat], drew);
        m->drawn = true;
        return;
    }
    if (mv->kind == MOVE_PASS) {
        m->marker[seat] = true;                        /* [R11] */
        end_turn(m, o);
        return;
    }
    int before = m->open[mv->train];
    tileset_remove(&m->hands[seat], mv->tile);
    m->open[mv->train] = tile_other_pip(mv->tile, before);
    if (mv->train == seat) m->marker[seat] = false;    /* [R12] */
    m->owed = false;                                   /* a play while owed is the cover */
    m->drawn = false;                                  /* [R17] a new play */
    if (tileset_is_empty(m->hands[seat])) {            /* [R19] */
        finish_round(m, seat, o);
        return;
    }
    if (tile_is_double(mv->tile)) {                    /* [R14] */
        m->owed = true;
        m->owed_train = mv->train;
        m->owed_pip = before;
        return;
    }
    end_turn(m, o);                                    /* [R18] */
}

/* A new round has been dealt in g: take the hands, check the deal [R3-R6][R23]. */
static void model_start_round(struct model *m, const struct game *g)
{
    m->engine = TILE_CANONICAL_PIP - (m->round - 1) % (TILE_CANONICAL_PIP + 1);   /* [R3] */
    CHECK(g->round == m->round, "the engine plays round %d, the model %d", g->round, m->round);
    CHECK(g->engine_pip == m->engine, "round %d: engine %d, expected %d", m->round, g->engine_pip, m->engine);
    tileset all = tileset_empty();
    tile_t engine = tile_double(m->engine);
    for (int s = 0; s < m->n; s++) {
        CHECK(tileset_count(g->hands[s]) == hand_size(m->n), "seat %d dealt %d tiles", s,
              tileset_count(g->hands[s]));
        CHECK(tileset_is_empty(tileset_and(all, g->hands[s])), "a tile dealt twice");
        CHECK(!tileset_has(g->hands[s], engine), "the engine was dealt");
        all = tileset_or(all, g->hands[s]);
        m->hands[s] = g->hands[s];
    }
    m->boneyard = tileset_minus(tileset_all(), all);
    tileset_remove(&m->boneyard, engine);
    for (int t = 0; t < TRAIN_COUNT; t++) {
        m->open[t] = m->engine;
        m->marker[t] = false;
    }
    m->turn = (m->round - 1) % m->n;                   /* [R4] */
    m->owed = m->drawn = false;
}

/* The engine's state agrees with the model. */
static void compare_state(const struct model *m, const struct game *g)
{
    CHECK(g->phase == PHASE_PLAYING, "phase %d, expected playing", g->phase);
    CHECK(g->turn == m->turn, "turn %d, the model says %d", g->turn, m->turn);
    CHECK(tileset_equal(g->boneyard, m->boneyard), "boneyard differs (%d vs %d tiles)",
          tileset_count(g->boneyard), tileset_count(m->boneyard));
    for (int s = 0; s < m->n; s++) {
        CHECK(tileset_equal(g->hands[s], m->hands[s]), "hand of seat %d differs", s);
        CHECK(g->trains[s].marker == m->marker[s], "marker of seat %d: %d, expected %d", s,
              g->trains[s].marker, m->marker[s]);
        CHECK(g->trains[s].open_pip == m->open[s], "open end of seat %d: %d, expected %d", s,
              g->trains[s].open_pip, m->open[s]);
    }
    CHECK(g->trains[TRAIN_MEX].open_pip == m->open[TRAIN_MEX], "mex open end %d, expected %d",
          g->trains[TRAIN_MEX].open_pip, m->open[TRAIN_MEX]);
    CHECK(!g->trains[TRAIN_MEX].marker, "a marker on the Mexican train [R12]");
    CHECK(g->ndoubles == (m->owed ? 1 : 0), "%d uncovered doubles, expected %d", g->ndoubles, m->owed);
    if (m->owed)
        CHECK(g->doubles[0].train == m->owed_train && g->doubles[0].pip == m->owed_pip,
              "uncovered double %d-%d on train %d, expected %d-%d on %d", g->doubles[0].pip,
              g->doubles[0].pip, g->doubles[0].train, m->owed_pip, m->owed_pip, m->owed_train);
    for (int s = 0; s < m->n; s++)
        CHECK(g->totals[s] == m->totals[s], "total of seat %d: %lld, expected %lld", s,
              (long long)g->totals[s], (long long)m->totals[s]);
    /* [R23] every tile in one place, counted here apart from game_tiles_conserved */
    tileset seen = m->boneyard;
    tileset_add(&seen, tile_double(m->engine));
    int placed = 1 + tileset_count(m->boneyard);
    for (int s = 0; s < m->n; s++) {
        seen = tileset_or(seen, m->hands[s]);
        placed += tileset_count(m->hands[s]);
    }
    for (int t = 0; t < TRAIN_COUNT; t++) {
        const struct train *tr = &g->trains[t];
        CHECK(t < m->n || t == TRAIN_MEX || tr->length == 0, "train %d has tiles", t);
        int open = m->engine;
        for (int i = 0; i < tr->length; i++) {
            CHECK(!tileset_has(seen, tr->tiles[i]), "%s is in two places", tile_text(tr->tiles[i]));
            CHECK(tile_has_pip(tr->tiles[i], open), "train %d: %s laid against %d", t, tile_text(tr->tiles[i]), open);
            open = tile_other_pip(tr->tiles[i], open);
            tileset_add(&seen, tr->tiles[i]);
            placed++;
        }
        CHECK(open == tr->open_pip, "train %d ends at %d but its open end is %d", t, open, tr->open_pip);
    }
    CHECK(placed == TILE_CANONICAL_COUNT && tileset_equal(seen, tileset_all()), "%d tiles accounted for", placed);
}

/* ---- (b) every move tried at one state ---- */

static bool same_game(const struct game *a, const struct game *b) { return memcmp(a, b, sizeof *a) == 0; }

static const char *code_name(enum error_code c) { return error_code_name(c); }

/* Position of a legal entry in the documented order: tile, then own, others by seat,
 * mex; then draw, then pass. */
static long order_key(const struct move *mv)
{
    if (mv->kind == MOVE_DRAW) return 1000000;
    if (mv->kind == MOVE_PASS) return 1000001;
    int rank = mv->train == mv->seat ? 0 : mv->train == TRAIN_MEX ? 100 : 1 + mv->train;
    return (long)mv->tile * 1000 + rank;
}

static int find_legal(const struct move *list, int n, const struct move *mv)
{
    for (int i = 0; i < n; i++)
        if (list[i].kind == mv->kind && list[i].seat == mv->seat &&
            (mv->kind != MOVE_PLAY || (list[i].tile == mv->tile && list[i].train == mv->train)))
            return i;
    return -1;
}

/* "label: seat 1 play 5-12 on train 8", for messages. */
static const char *move_text(const struct move *mv, const char *label)
{
    static char buf[96];
    static const char *const kinds[] = {"play", "draw", "pass"};
    if (mv->kind == MOVE_PLAY)
        snprintf(buf, sizeof buf, "%s: seat %d play %s on train %d", label, mv->seat, tile_text(mv->tile), mv->train);
    else
        snprintf(buf, sizeof buf, "%s: seat %d %s %s", label, mv->seat, kinds[mv->kind],
                 mv->tile == TILE_NONE ? "" : tile_text(mv->tile));
    return buf;
}

/* Tries mv on scratch (a copy of g); checks the verdict is want and that a rejection
 * changed nothing (all of the game when deep_compare, else the mover's hand and the
 * turn); restores scratch after an acceptance. Returns the verdict. */
static const struct verdict *attempt(const struct game *g, struct game *scratch, const struct move *mv,
                                     enum error_code want, bool deep_compare, const char *label)
{
    static struct verdict v;
    game_move(scratch, mv, &v);
    count.tried++;
    CHECK(v.code == want, "%s: the engine says %s, the rules say %s (%s)", move_text(mv, label),
          code_name(v.code), code_name(want), v.message);
    if (v.code == ERR_NONE) {
        *scratch = *g;
    } else if (deep_compare) {
        CHECK(same_game(scratch, g), "%s: rejected (%s) but the game changed", move_text(mv, label),
              code_name(v.code));
    } else {
        CHECK(scratch->turn == g->turn && tileset_equal(scratch->hands[mv->seat], g->hands[mv->seat]),
              "%s: rejected (%s) but the game changed", move_text(mv, label), code_name(v.code));
    }
    return &v;
}

/* full: every tile of the set on every train; otherwise the tiles in the hand only (a
 * tile not in hand can only be not-in-hand: the full sweep checks that on its share). */
static void check_every_move(const struct model *m, const struct game *g, struct game *scratch, bool full)
{
    struct move legal[GAME_MAX_LEGAL];
    int nlegal = game_legal_moves(g, legal, GAME_MAX_LEGAL);
    bool listed[GAME_MAX_LEGAL] = {false};
    int accepted = 0, seat = m->turn;
    count.states++;
    CHECK(nlegal >= 1, "no legal move listed");
    for (int i = 0; i < nlegal; i++) {
        CHECK(legal[i].seat == seat, "legal move %d is for seat %d, not %d", i, legal[i].seat, seat);
        if (i > 0)
            CHECK(order_key(&legal[i - 1]) < order_key(&legal[i]), "legal moves %d and %d out of order", i - 1, i);
    }
    *scratch = *g;
    int trains[TRAIN_COUNT], k = trains_of(m, trains);
    count.states_full += full;
    for (tile_t t = 0; t < TILE_COUNT; t++) {
        bool in_hand = tileset_has(m->hands[seat], t);
        if (!in_hand && !full) continue;
        for (int i = 0; i < k; i++) {
            struct move mv = {MOVE_PLAY, seat, t, trains[i]};
            enum error_code want = expect_play(m, t, trains[i]);
            attempt(g, scratch, &mv, want, in_hand, "play");
            int at_list = in_hand ? find_legal(legal, nlegal, &mv) : -1;
            CHECK((want == ERR_NONE) == (at_list >= 0), "%s: accepted %d, listed %d", move_text(&mv, "play"),
                  want == ERR_NONE, at_list >= 0);
            if (at_list >= 0) { listed[at_list] = true; accepted++; }
        }
    }
    for (int i = 0; i < nlegal; i++)
        CHECK(legal[i].kind != MOVE_PLAY || tileset_has(m->hands[seat], legal[i].tile),
              "legal move %d plays a tile not in hand", i);
    struct move draw = {MOVE_DRAW, seat, TILE_NONE, 0}, pass = {MOVE_PASS, seat, TILE_NONE, 0};
    enum error_code want = expect_draw(m);
    const struct verdict *v = attempt(g, scratch, &draw, want, true, "bare draw");
    int at_list = find_legal(legal, nlegal, &draw);
    CHECK((want == ERR_NONE) == (at_list >= 0), "draw: accepted %d, listed %d", want == ERR_NONE, at_list >= 0);
    if (at_list >= 0) { listed[at_list] = true; accepted++; }
    if (want == ERR_NONE) {
        /* named draws: the next tile is accepted; another boneyard tile is draw-mismatch;
         * a tile not in the boneyard is not-in-boneyard [R23] */
        tile_t next = v->drew;
        CHECK(tileset_has(m->boneyard, next), "a bare draw gave %s, not in the boneyard", tile_text(next));
        draw.tile = next;
        attempt(g, scratch, &draw, ERR_NONE, true, "named draw of the next tile");
        tileset others = m->boneyard;
        tileset_remove(&others, next);
        if (!tileset_is_empty(others)) {
            draw.tile = tileset_first(others);
            attempt(g, scratch, &draw, ERR_DRAW_MISMATCH, true, "named draw of another boneyard tile");
        }
        tileset gone = tileset_minus(tileset_all(), m->boneyard);
        draw.tile = tileset_first(gone);
        attempt(g, scratch, &draw, ERR_NOT_IN_BONEYARD, true, "named draw of a tile not in the boneyard");
    }
    want = expect_pass(m);
    attempt(g, scratch, &pass, want, true, "pass");
    at_list = find_legal(legal, nlegal, &pass);
    CHECK((want == ERR_NONE) == (at_list >= 0), "pass: accepted %d, listed %d", want == ERR_NONE, at_list >= 0);
    if (at_list >= 0) { listed[at_list] = true; accepted++; }
    CHECK(accepted == nlegal, "%d moves accepted, %d listed", accepted, nlegal);
    for (int i = 0; i < nlegal; i++) CHECK(listed[i], "legal move %d was never accepted", i);

    /* [R24] nobody else may act */
    for (int s = 0; s < m->n; s++) {
        if (s == seat) continue;
        struct move other[4] = {{MOVE_PASS, s, TILE_NONE, 0}, {MOVE_DRAW, s, TILE_NONE, 0}};
        int nother = 2;
        if (!tileset_is_empty(m->hands[s])) {
            other[nother++] = (struct move){MOVE_PLAY, s, tileset_first(m->hands[s]), s};
            other[nother++] = (struct move){MOVE_PLAY, s, tileset_first(m->hands[s]), TRAIN_MEX};
        }
        for (int i = 0; i < nother; i++) attempt(g, scratch, &other[i], ERR_NOT_YOUR_TURN, true, "out of turn");
    }
}

/* ---- one match ---- */

struct config {
    int players, rounds;
    enum bot_kind bots[8];
};

static void bots_for(uint64_t seed, int players, enum bot_kind bots[8])
{
    /* all random, all greedy, or mixed, by seed */
    for (int s = 0; s < players; s++)
        bots[s] = seed % 3 == 0 ? BOT_RANDOM : seed % 3 == 1 ? BOT_GREEDY : (s % 2 ? BOT_GREEDY : BOT_RANDOM);
}

/* Plays the match of seed; with checks (a)-(b) when checked. Writes the record into
 * rec; returns the final game and the verdict that ended it. */
static void play_match(uint64_t seed, int players, int rounds, bool checked, bool full, struct text *rec,
                       struct game *g, struct verdict *end)
{
    static const char *const names[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
    enum bot_kind bots[8];
    bots_for(seed, players, bots);
    struct verdict v;
    struct model m = {.n = players, .rounds = rounds, .round = 1};
    struct game *snap = malloc(sizeof *snap), *scratch = malloc(sizeof *scratch);
    assert_non_null(snap);
    assert_non_null(scratch);
    uint64_t stream = seed * 0x9E3779B97F4A7C15ULL + 12345;
    uint64_t rng[8];
    for (int s = 0; s < players; s++) rng[s] = rng_next(&stream);

    game_init(g, &canonical);
    game_set_players(g, players, names, &v);
    CHECK(v.code == ERR_NONE, "players: %s", v.message);
    game_set_rounds(g, rounds, &v);
    CHECK(v.code == ERR_NONE, "rounds: %s", v.message);
    game_set_seed(g, rng_next(&stream), &v);
    rec->len = 0;
    put(rec, "players");
    for (int s = 0; s < players; s++) {
        put(rec, " ");
        put(rec, names[s]);
    }
    char line[32];
    snprintf(line, sizeof line, "\nrounds %d\n", rounds);
    put(rec, line);
    at.move = 0;
    while (!game_is_over(g)) {
        if (game_needs_deal(g)) {
            game_snapshot(g, snap);
            CHECK(!game_needs_deal(snap), "the snapshot did not deal round %d", g->round);
            *g = *snap;
            put_deal(rec, g);
            if (checked) {
                CHECK(game_tiles_conserved(g), "tiles not conserved after the deal of round %d", g->round);
                model_start_round(&m, g);
                count.rounds++;
            }
        }
        if (checked) {
            compare_state(&m, g);
            check_every_move(&m, g, scratch, full);
        }
        int seat = g->turn;
        struct move mv = bot_choose(bots[seat], g, &rng[seat]);
        at.move++;
        CHECK(at.move < MOVES_MAX, "the match does not end");
        if (checked) count.moves++;
        struct game before = *g;
        game_move(g, &mv, &v);
        CHECK(v.code == ERR_NONE, "the bot's move was rejected: %s: %s", code_name(v.code), v.message);
        put_move(rec, &before, &mv, v.drew);
        if (!checked) continue;
        CHECK(game_tiles_conserved(g), "tiles not conserved");
        struct outcome o;
        model_apply(&m, &mv, v.drew, &o);
        CHECK(v.round_ended == o.round_ended, "round ended: engine %d, rules %d", v.round_ended, o.round_ended);
        CHECK(v.match_ended == o.match_ended, "match ended: engine %d, rules %d", v.match_ended, o.match_ended);
        if (o.round_ended) {
            CHECK(v.report.out_seat == o.out_seat, "round %d: out %d, expected %d", v.report.round,
                  v.report.out_seat, o.out_seat);
            CHECK(v.report.engine_pip == m.engine, "round_end engine %d, expected %d", v.report.engine_pip, m.engine);
            for (int s = 0; s < players; s++) {
                CHECK(v.report.points[s] == o.points[s], "seat %d scored %lld, expected %lld", s,
                      (long long)v.report.points[s], (long long)o.points[s]);
                CHECK(g->totals[s] == m.totals[s], "seat %d total %lld, expected %lld", s,
                      (long long)g->totals[s], (long long)m.totals[s]);
            }
        }
        if (o.match_ended) {
            CHECK(v.nwinners == o.nwinners, "%d winners, expected %d", v.nwinners, o.nwinners);
            for (int s = 0; s < players; s++)
                CHECK(v.winners[s] == o.winners[s], "seat %d winner %d, expected %d", s, v.winners[s], o.winners[s]);
        }
        CHECK(m.over == game_is_over(g), "over: engine %d, model %d", game_is_over(g), m.over);
    }
    *end = v;
    free(snap);
    free(scratch);
}

/* ---- (c) the record adjudicated again ---- */

static struct check_result *adjudicate(const struct text *rec)
{
    static struct check_result res;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(rec->data, 1, rec->len, f), rec->len);
    fflush(f);
    rewind(f);
    struct rules_loader none = {0};
    check_descriptor(fileno(f), &none, NULL, 0, &res);
    fclose(f);
    return &res;
}

static void check_record(const struct text *rec, const struct game *g, const struct verdict *end)
{
    const struct check_result *res = adjudicate(rec);
    CHECK(res->status == 0, "the record is rejected at line %ld: %s: %s", res->line,
          code_name(res->verdict.code), res->verdict.message);
    CHECK(res->complete && res->matches == 1, "the record is not one complete match (%ld matches)", res->matches);
    for (int s = 0; s < g->nplayers; s++) {
        CHECK(res->last.totals[s] == g->totals[s], "record: seat %d total %lld, engine %lld", s,
              (long long)res->last.totals[s], (long long)g->totals[s]);
        CHECK(res->last_end.winners[s] == end->winners[s], "record: seat %d winner %d, engine %d", s,
              res->last_end.winners[s], end->winners[s]);
    }
    CHECK(res->last_end.nwinners == end->nwinners, "record: %d winners, engine %d", res->last_end.nwinners,
          end->nwinners);
    /* the same record without its last move: legal, but the match has not ended */
    struct text cut = *rec;
    while (cut.len > 0 && cut.data[cut.len - 1] == '\n') cut.len--;
    while (cut.len > 0 && cut.data[cut.len - 1] != '\n') cut.len--;
    res = adjudicate(&cut);
    CHECK(res->status == 0 && !res->complete && res->matches == 0,
          "the record cut before its last move: status %d, complete %d, %ld matches", res->status, res->complete,
          res->matches);
}

/* per_players matches for each table size; every full_every-th one (from the first)
 * with the full sweep of check_every_move. */
static void run_matches(const char *what, int rounds, int per_players, int full_every, uint64_t first_seed)
{
    struct game *g = malloc(sizeof *g), *again = malloc(sizeof *again);
    assert_non_null(g);
    assert_non_null(again);
    struct text rec = {0}, rec2 = {0};
    struct verdict end, end2;
    at.what = what;
    at.rounds = rounds;
    for (int players = 2; players <= 8; players++)
        for (int i = 0; i < per_players; i++) {
            at.players = players;
            at.match = i;
            at.seed = first_seed + (uint64_t)players * 100000 + (uint64_t)i;
            bool full = i % full_every == 0;
            play_match(at.seed, players, rounds, true, full, &rec, g, &end);
            count.matches_full += full;
            check_record(&rec, g, &end);                                  /* (c) */
            play_match(at.seed, players, rounds, false, false, &rec2, again, &end2);
            CHECK(rec.len == rec2.len && memcmp(rec.data, rec2.data, rec.len) == 0,
                  "the same seed gave different records");                  /* (d) */
            count.matches++;
        }
    free(rec.data);
    free(rec2.data);
    free(g);
    free(again);
}

static void report(const char *what, clock_t start)
{
    print_message("%s: %ld matches (%ld with the full sweep), %ld rounds, %ld moves, %ld states (%ld full), "
                  "%ld moves tried on copies, %.2f s\n", what, count.matches, count.matches_full, count.rounds,
                  count.moves, count.states, count.states_full, count.tried,
                  (double)(clock() - start) / CLOCKS_PER_SEC);
    memset(&count, 0, sizeof count);
}

static void property_one_round_matches(void **state)
{
    (void)state;
    clock_t start = clock();
    run_matches("1-round matches", 1, 300, 10, 1000000);
    report("1 round", start);
}

static void property_seven_round_matches(void **state)
{
    (void)state;
    clock_t start = clock();
    run_matches("7-round matches", 7, 4, 4, 2000000);
    report("7 rounds", start);
}

static void property_thirteen_round_matches(void **state)
{
    (void)state;
    clock_t start = clock();
    run_matches("13-round matches", 13, 2, 2, 3000000);
    report("13 rounds", start);
}

/* ---- selfplay_match: legal, complete, deterministic ---- */

static void to_text(void *ctx, const char *data, size_t len)
{
    struct text *t = ctx;
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, data, len);
    copy[len] = '\0';
    put(t, copy);
    free(copy);
}

static void selfplay_records(struct selfplay_options *o, long index, struct text *a)
{
    char err[RULES_MESSAGE_SIZE] = "";
    struct selfplay_sink sink = {to_text, a};
    a->len = 0;
    CHECK(selfplay_match(o, &canonical, NULL, 0, index, &sink, err) == 0, "selfplay_match failed: %s", err);
}

static void property_selfplay_records_are_legal_and_stable(void **state)
{
    (void)state;
    static const int rounds[] = {1, 7, 13};
    struct text a = {0}, b = {0};
    at.what = "selfplay_match";
    at.move = 0;
    for (int players = 2; players <= 8; players++)
        for (int r = 0; r < 3; r++)
            for (long index = 0; index < (rounds[r] == 1 ? 6 : 1); index++) {
                struct selfplay_options o;
                selfplay_defaults(&o);
                o.players = players;
                o.rounds = rounds[r];
                o.seed = 77 + (uint64_t)players;
                o.bots[0] = BOT_RANDOM;
                o.bots[1] = BOT_GREEDY;
                o.nbots = 2;
                at.seed = o.seed;
                at.match = index;
                at.players = players;
                at.rounds = rounds[r];
                selfplay_records(&o, index, &a);
                selfplay_records(&o, index, &b);
                CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
                      "same options, different records");
                const struct check_result *res = adjudicate(&a);
                CHECK(res->status == 0, "rejected at line %ld: %s: %s", res->line,
                      code_name(res->verdict.code), res->verdict.message);
                CHECK(res->complete && res->matches == 1, "not one complete match");
                o.seed++;
                selfplay_records(&o, index, &b);
                CHECK(a.len != b.len || memcmp(a.data, b.data, a.len) != 0,
                      "seeds %llu and %llu gave the same record", (unsigned long long)o.seed - 1,
                      (unsigned long long)o.seed);
            }
    free(a.data);
    free(b.data);
}

int main(void)
{
    rules_init_canonical(&canonical);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(property_one_round_matches),
        cmocka_unit_test(property_seven_round_matches),
        cmocka_unit_test(property_thirteen_round_matches),
        cmocka_unit_test(property_selfplay_records_are_legal_and_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
