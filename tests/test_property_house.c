/* Property: under every house-rules file and the settled combinations, self-played
 * matches re-adjudicate as legal and complete with the same totals; the 91 tiles are
 * conserved after every move; and at every state the legal listing is exactly the set
 * of moves the engine accepts (every tile of the hand on every train, a draw, a pass,
 * each tried on a copy of the game).
 *
 * For the shipped files whose effect is per move (doubles-anywhere-lifo/-fifo,
 * first-turn-own-train, draw-until-playable, marker-after-cover, and those that change
 * nothing per move) and three examples (mex-after-own, trainless-draws,
 * drawn-tile-optional), a model written from the settled details of house-rules.md, kept
 * apart from the engine's decision code, says at every position what is legal (which
 * plays, whether a draw, whether a pass) and who holds a marker; over thousands of
 * self-played games the engine's legal list must be the model's. The model reads the
 * table (hands, open ends, the boneyard) from the game and keeps the rest itself:
 * whose turn, markers, the doubles owed a cover, draws, first turns. */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol.h"
#include "luarules.h"
#include "selfplay.h"

struct config {
    const char *files[4];
    int nfiles;
    int players;
    int rounds;          /* 0: the rules' default */
    int seeds;
};

static const struct config configs[] = {
    {{"double-blank-50"}, 1, 4, 1, 10},
    {{"elimination-100"}, 1, 3, 0, 8},
    {{"elimination-100"}, 1, 5, 0, 3},
    {{"doubles-anywhere-lifo"}, 1, 4, 1, 16},
    {{"doubles-anywhere-fifo"}, 1, 4, 1, 16},
    {{"doubles-anywhere-lifo"}, 1, 2, 1, 10},
    {{"draw-until-playable"}, 1, 4, 1, 10},
    {{"first-turn-own-train"}, 1, 4, 1, 10},
    {{"positive-scoring"}, 1, 3, 1, 10},
    {{"double-out-doubles"}, 1, 2, 1, 10},
    {{"ascending"}, 1, 2, 7, 3},
    {{"ten-players"}, 1, 6, 1, 6},
    {{"marker-after-cover"}, 1, 4, 1, 12},
    {{"double-blank-50", "elimination-100"}, 2, 3, 0, 8},
    {{"draw-until-playable", "doubles-anywhere-lifo"}, 2, 4, 1, 12},
    {{"first-turn-own-train", "marker-after-cover", "doubles-anywhere-fifo"}, 3, 4, 1, 12},
    {{"ascending", "elimination-100"}, 2, 3, 0, 8},
    {{"ten-players"}, 1, 9, 1, 8},
    {{"ten-players"}, 1, 10, 1, 8},
    /* the rules nobody planned, on the hooks of mtref-rules(5) */
    {{"engine-from-hand"}, 1, 4, 1, 12},
    {{"engine-from-hand"}, 1, 8, 1, 8},
    {{"first-turn-chain"}, 1, 4, 1, 10},
    {{"mex-after-own"}, 1, 4, 1, 10},
    {{"target-score"}, 1, 6, 0, 4},
    {{"trainless-draws"}, 1, 4, 1, 10},
    {{"boneyard-reserve"}, 1, 2, 1, 8},
    {{"boneyard-reserve"}, 1, 8, 1, 8},
    {{"marker-penalty"}, 1, 4, 1, 8},
    {{"drawn-tile-optional"}, 1, 4, 1, 10},
    {{"blocked-after-passes"}, 1, 8, 1, 8},
    {{"first-turn-chain", "first-turn-own-train"}, 2, 4, 1, 8},
    {{"engine-from-hand", "elimination-100"}, 2, 3, 0, 4},
    {{"boneyard-reserve", "draw-until-playable", "drawn-tile-optional"}, 3, 4, 1, 8},
    /* the sets: every size of table, the full match's schedule, and with other rules */
    {{"double-nine"}, 1, 2, 0, 2},
    {{"double-nine"}, 1, 4, 1, 8},
    {{"double-nine"}, 1, 6, 5, 2},
    {{"double-fifteen"}, 1, 3, 0, 1},
    {{"double-fifteen"}, 1, 8, 1, 4},
    {{"double-fifteen"}, 1, 12, 1, 4},
    {{"double-fifteen"}, 1, 11, 8, 1},
    {{"double-nine", "engine-from-hand", "draw-until-playable"}, 3, 4, 1, 6},
    {{"double-fifteen", "doubles-anywhere-lifo", "elimination-100"}, 3, 5, 0, 2},
    {{"double-nine", "blocked-after-passes", "marker-penalty"}, 3, 3, 1, 6},
};

#define MODEL_SEEDS 150      /* games per configuration the model knows */

struct stats {
    long states, tries, matches, rounds;
};
static struct stats stats;

static void collect(void *ctx, const char *data, size_t len) { fwrite(data, 1, len, ctx); }

static const char *describe(const struct config *c, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%d players,", c->players);
    for (int i = 0; i < c->nfiles; i++) used += (size_t)snprintf(buf + used, size - used, " %s", c->files[i]);
    return buf;
}

/* ---- the model of the per-move house rules ---------------------------------- */

enum model_doubles { MODEL_CANONICAL, MODEL_LIFO, MODEL_FIFO };

struct model_double {
    int train, pip;
};

struct model {
    enum model_doubles doubles;
    bool until_playable;         /* draw-until-playable */
    bool first_own;              /* first-turn-own-train */
    bool marker_after_cover;
    bool mex_after_own;          /* the examples of mtref-rules(5): mex-after-own, */
    bool trainless;              /* trainless-draws, */
    bool drawn_optional;         /* drawn-tile-optional */
    int round, turn, n;
    bool marker[TRAIN_COUNT];
    struct model_double queue[GAME_DOUBLES_MAX];   /* owed a cover, in the order played */
    int nqueue;
    struct model_double mine[GAME_DOUBLES_MAX];    /* doubles-anywhere: this turn's, uncovered */
    int nmine;
    int draws;                   /* for the current play */
    bool began_owing;            /* the queue was not empty when the turn began */
    bool covered_elsewhere;      /* this turn covered an owed double off the own train */
    bool first_done[RULES_MAX_PLAYERS];
};

/* The files the model knows: NULL-terminated names and what each sets. */
static bool model_configure(struct model *m, const struct config *c)
{
    memset(m, 0, sizeof *m);
    static const char *const neutral[] = {"double-blank-50", "positive-scoring", "double-out-doubles", "ascending",
                                          "ten-players"};
    for (int i = 0; i < c->nfiles; i++) {
        const char *f = c->files[i];
        bool known = true;
        if (strcmp(f, "doubles-anywhere-lifo") == 0) m->doubles = MODEL_LIFO;
        else if (strcmp(f, "doubles-anywhere-fifo") == 0) m->doubles = MODEL_FIFO;
        else if (strcmp(f, "draw-until-playable") == 0) m->until_playable = true;
        else if (strcmp(f, "first-turn-own-train") == 0) m->first_own = true;
        else if (strcmp(f, "marker-after-cover") == 0) m->marker_after_cover = true;
        else if (strcmp(f, "mex-after-own") == 0) m->mex_after_own = true;
        else if (strcmp(f, "trainless-draws") == 0) m->trainless = true;
        else if (strcmp(f, "drawn-tile-optional") == 0) m->drawn_optional = true;
        else {
            known = false;
            for (size_t k = 0; k < sizeof neutral / sizeof neutral[0]; k++) known = known || strcmp(f, neutral[k]) == 0;
        }
        if (!known) return false;
    }
    return true;
}

static void model_start_round(struct model *m, const struct game *g)
{
    struct model saved = *m;
    memset(m, 0, sizeof *m);
    m->doubles = saved.doubles;
    m->until_playable = saved.until_playable;
    m->first_own = saved.first_own;
    m->marker_after_cover = saved.marker_after_cover;
    m->mex_after_own = saved.mex_after_own;
    m->trainless = saved.trainless;
    m->drawn_optional = saved.drawn_optional;
    m->round = g->round;
    m->n = g->nplayers;
    m->turn = (g->round - 1) % g->nplayers;          /* [R4] */
}

/* The double that must be covered now, or NULL: canonically the one laid last (R14,
 * R15); under doubles-anywhere the head of the queue of earlier turns' doubles. */
static const struct model_double *model_owed(const struct model *m)
{
    if (m->nqueue == 0) return NULL;
    return m->doubles == MODEL_FIFO ? &m->queue[0] : &m->queue[m->nqueue - 1];
}

static bool model_play_legal(const struct model *m, const struct game *g, tile_t tile, int train)
{
    int seat = m->turn;
    if (!tileset_has(g->hands[seat], tile)) return false;
    const struct model_double *owed = model_owed(m);
    if (owed) return train == owed->train && tile_has_pip(tile, owed->pip);   /* always allowed, first turn too */
    bool open = train == seat || train == TRAIN_MEX || m->marker[train];
    if (!open || !tile_has_pip(tile, g->trains[train].open_pip)) return false;
    if (m->first_own && !m->first_done[seat] && train != seat) return false;
    if (m->mex_after_own && train == TRAIN_MEX && g->trains[TRAIN_MEX].length == 0 && g->trains[seat].length == 0)
        return false;
    return true;
}

/* Fills plays[tile][train]; returns how many. */
static int model_plays(const struct model *m, const struct game *g, bool plays[TILE_COUNT][TRAIN_COUNT])
{
    memset(plays, 0, sizeof(bool) * TILE_COUNT * TRAIN_COUNT);
    int n = 0;
    tileset hand = g->hands[m->turn];
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
        for (int s = 0; s < m->n; s++) n += plays[t][s] = model_play_legal(m, g, t, s);
        n += plays[t][TRAIN_MEX] = model_play_legal(m, g, t, TRAIN_MEX);
    }
    return n;
}

/* Draws until a tile can be played: draw-until-playable, or trainless-draws while
 * the player's own train is empty. */
static bool draws_again(const struct model *m, const struct game *g)
{
    return m->until_playable || (m->trainless && g->trains[m->turn].length == 0);
}

static bool model_may_draw(const struct model *m, const struct game *g, int nplays)
{
    if (nplays > 0 || tileset_is_empty(g->boneyard)) return false;      /* [R8] [R10] */
    return draws_again(m, g) || m->draws == 0;                           /* [R9] [R17] */
}

static bool model_may_pass(const struct model *m, const struct game *g, int nplays)
{
    if (nplays > 0) return m->drawn_optional && m->draws > 0;           /* [R11] */
    if (tileset_is_empty(g->boneyard)) return true;                      /* [R10] */
    return !draws_again(m, g) && m->draws > 0;
}

static void model_end_turn(struct model *m, bool passed)
{
    int seat = m->turn;
    if (passed) m->marker[seat] = true;                                  /* [R11] */
    if (m->marker_after_cover && m->covered_elsewhere) m->marker[seat] = true;
    for (int i = 0; i < m->nmine; i++) m->queue[m->nqueue++] = m->mine[i];   /* left for the next players */
    m->nmine = 0;
    m->first_done[seat] = true;            /* a first turn spent drawing and passing ends the limit too */
    m->draws = 0;
    m->covered_elsewhere = false;
    m->turn = (seat + 1) % m->n;
    m->began_owing = m->nqueue > 0;
}

static void remove_double(struct model_double *list, int *n, int train)
{
    for (int i = 0; i < *n; i++)
        if (list[i].train == train) {
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof *list);
            (*n)--;
            return;
        }
}

/* An accepted play of tile on train; open is the train's open end before it. */
static void model_play(struct model *m, tile_t tile, int train, int open)
{
    int seat = m->turn;
    bool owed = model_owed(m) != NULL;
    if (train == seat) m->marker[seat] = false;                          /* [R12] */
    m->draws = 0;                                                        /* [R17] a new play */
    if (owed) {                                                          /* the cover [R15] [R16] */
        remove_double(m->queue, &m->nqueue, train);
        if (m->began_owing && train != seat) m->covered_elsewhere = true;
    }
    remove_double(m->mine, &m->nmine, train);                            /* a cover of one's own */
    if (tile_is_double(tile) && !owed) {                                 /* [R14]: another play */
        struct model_double d = {train, open};
        if (m->doubles == MODEL_CANONICAL) m->queue[m->nqueue++] = d;
        else m->mine[m->nmine++] = d;
        return;
    }
    model_end_turn(m, false);                                            /* [R18] */
}

static struct {
    long positions, games;
} model_stats;

/* The engine's legal list at g against the model's. */
static void model_check(const struct model *m, const struct game *g, const char *what, long line)
{
    if (g->turn != m->turn) fail_msg("%s, line %ld: %s to act, the model says %s", what, line, g->names[g->turn],
                                     g->names[m->turn]);
    for (int t = 0; t < m->n; t++)
        if (g->trains[t].marker != m->marker[t])
            fail_msg("%s, line %ld: %s's train %s, the model says %s", what, line, g->names[t],
                     g->trains[t].marker ? "marked" : "unmarked", m->marker[t] ? "marked" : "unmarked");
    static bool plays[TILE_COUNT][TRAIN_COUNT], listed[TILE_COUNT][TRAIN_COUNT];
    int nplays = model_plays(m, g, plays);
    struct move legal[GAME_MAX_LEGAL];
    int n = game_legal_moves(g, legal, GAME_MAX_LEGAL);
    memset(listed, 0, sizeof listed);
    bool draw_listed = false, pass_listed = false;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind == MOVE_PLAY) listed[legal[i].tile][legal[i].train] = true;
        else if (legal[i].kind == MOVE_DRAW) draw_listed = true;
        else pass_listed = true;
    }
    for (int t = 0; t < TILE_COUNT; t++)
        for (int r = 0; r < TRAIN_COUNT; r++)
            if (plays[t][r] != listed[t][r]) {
                char tile[TILE_TEXT_SIZE];
                tile_format((tile_t)t, tile);
                fail_msg("%s, line %ld: %s play %s %s: the engine %s it, the model %s", what, line,
                         g->names[m->turn], tile, r == TRAIN_MEX ? "mex" : g->names[r],
                         listed[t][r] ? "lists" : "does not list", plays[t][r] ? "does" : "does not");
            }
    bool draw = model_may_draw(m, g, nplays), pass = model_may_pass(m, g, nplays);
    if (draw != draw_listed)
        fail_msg("%s, line %ld: the engine %s a draw, the model %s", what, line, draw_listed ? "lists" : "does not list",
                 draw ? "does" : "does not");
    if (pass != pass_listed)
        fail_msg("%s, line %ld: the engine %s a pass, the model %s", what, line, pass_listed ? "lists" : "does not list",
                 pass ? "does" : "does not");
    model_stats.positions++;
}

/* Applies the accepted move line text to the model (g: the game before it). */
static void model_apply(struct model *m, const struct game *g, const char *text, size_t len)
{
    struct command cmd;
    char err[128];
    if (!protocol_parse(text, len, &cmd, err, sizeof err)) fail_msg("'%.*s': %s", (int)len, text, err);
    if (cmd.kind == CMD_DRAW) {
        m->draws++;
    } else if (cmd.kind == CMD_PASS) {
        model_end_turn(m, true);
    } else if (cmd.kind == CMD_PLAY) {
        int train = cmd.train_is_mex ? TRAIN_MEX : game_find_player(g, cmd.train.text, cmd.train.len);
        model_play(m, cmd.tile, train, g->trains[train].open_pip);
    }
}

static bool accepted(const struct game *g, struct move m)
{
    struct game copy = *g;
    struct verdict v;
    game_move(&copy, &m, &v);
    stats.tries++;
    return v.code == ERR_NONE;
}

/* The legal listing against the moves the engine accepts, at the state of g. */
static void check_legal_is_accepted(const struct game *g, const char *what, long line)
{
    struct move legal[GAME_MAX_LEGAL];
    int n = game_legal_moves(g, legal, GAME_MAX_LEGAL);
    if (n < 1) fail_msg("%s, line %ld: nothing is legal", what, line);
    static bool listed[TILE_COUNT][TRAIN_COUNT];
    memset(listed, 0, sizeof listed);
    bool draw_listed = false, pass_listed = false;
    int seat = g->turn;
    for (int i = 0; i < n; i++) {
        if (legal[i].seat != seat) fail_msg("%s, line %ld: a legal move of another seat", what, line);
        if (legal[i].kind == MOVE_PLAY) listed[legal[i].tile][legal[i].train] = true;
        else if (legal[i].kind == MOVE_DRAW) draw_listed = true;
        else pass_listed = true;
    }
    stats.states++;
    int trains[TRAIN_COUNT], ntrains = 0;
    for (int s = 0; s < g->nplayers; s++) trains[ntrains++] = s;
    trains[ntrains++] = TRAIN_MEX;
    /* every tile of the hand, and a few that are not in it, on every train */
    tileset tries = g->hands[seat];
    tileset others = tileset_minus(tileset_all(), g->hands[seat]);
    for (int k = 0; k < 3 && !tileset_is_empty(others); k++) tileset_add(&tries, tileset_pop(&others));
    for (tile_t t; (t = tileset_pop(&tries)) != TILE_NONE;)
        for (int i = 0; i < ntrains; i++) {
            bool ok = accepted(g, (struct move){MOVE_PLAY, seat, t, trains[i]});
            if (ok != listed[t][trains[i]]) {
                char tile[TILE_TEXT_SIZE];
                tile_format(t, tile);
                fail_msg("%s, line %ld: %s play %s %s is %s but %s", what, line, g->names[seat], tile,
                         trains[i] == TRAIN_MEX ? "mex" : g->names[trains[i]], ok ? "accepted" : "refused",
                         listed[t][trains[i]] ? "listed" : "not listed");
            }
        }
    tile_t drawn = tileset_is_empty(g->boneyard) ? tileset_first(g->hands[seat]) : tileset_first(g->boneyard);
    if (accepted(g, (struct move){MOVE_DRAW, seat, drawn, 0}) != draw_listed)
        fail_msg("%s, line %ld: a draw is %s", what, line, draw_listed ? "listed but refused" : "accepted, not listed");
    if (accepted(g, (struct move){MOVE_PASS, seat, TILE_NONE, 0}) != pass_listed)
        fail_msg("%s, line %ld: a pass is %s", what, line, pass_listed ? "listed but refused" : "accepted, not listed");
    /* nobody else may act */
    int other = (seat + 1) % g->nplayers;
    if (other != seat && accepted(g, (struct move){MOVE_PASS, other, TILE_NONE, 0}))
        fail_msg("%s, line %ld: another seat may pass", what, line);
}

static bool is_move(const char *text, size_t len)
{
    const char *sp = memchr(text, ' ', len);
    if (!sp) return false;
    size_t rest = len - (size_t)(sp - text) - 1;
    return (rest >= 4 && (memcmp(sp + 1, "play", 4) == 0 || memcmp(sp + 1, "draw", 4) == 0 ||
                          memcmp(sp + 1, "pass", 4) == 0));
}

/* Replays the record line by line with the checks; returns the final session. The
 * record names its own rules; cli (may be empty) are given as --rules besides. */
static struct referee *replay(const char *record, const char *what, const char *const cli[], int ncli,
                              struct model *m, bool exhaustive)
{
    struct referee *ref = tu_session(cli, ncli);
    struct response resp;
    long number = 0;
    const char *text = record;
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        number++;
        bool move = ref->game.phase == PHASE_PLAYING && is_move(text, len);
        static struct game before;
        if (move && exhaustive) check_legal_is_accepted(&ref->game, what, number);
        if (move && m) {
            if (ref->game.round != m->round) model_start_round(m, &ref->game);
            model_check(m, &ref->game, what, number);
            before = ref->game;
        }
        referee_line(ref, text, len, false, number, &resp);
        if (move && m && resp.verdict.code == ERR_NONE) model_apply(m, &before, text, len);
        if (resp.kind == RESPONSE_VERDICT && resp.verdict.code != ERR_NONE)
            fail_msg("%s, line %ld '%.*s': %s: %s", what, number, (int)len, text, error_code_name(resp.verdict.code),
                     resp.verdict.message);
        if (!game_tiles_conserved(&ref->game)) fail_msg("%s, line %ld: tiles not conserved", what, number);
        const char *why;
        if (!game_invariants_hold(&ref->game, &why)) fail_msg("%s, line %ld: %s", what, number, why);
        if (resp.verdict.round_ended) stats.rounds++;
        text += len + (end ? 1 : 0);
    }
    return ref;
}

/* Self-plays seeds first_seed.. (c->seeds of them, or seeds when not 0) and replays
 * each record with the checks: every move tried on a copy and the record checked
 * again when exhaustive; the model at every position when it knows the files. */
static void play_config(const struct config *c, int first_seed, int seeds, bool exhaustive)
{
    char what[200];
    describe(c, what, sizeof what);
    struct model model, *m = model_configure(&model, c) ? &model : NULL;
    struct referee *rules = tu_session(c->files, c->nfiles);
    if (seeds == 0) seeds = c->seeds;
    for (int seed = first_seed; seed < first_seed + seeds; seed++) {
        struct selfplay_options o;
        selfplay_defaults(&o);
        o.players = c->players;
        o.rounds = c->rounds;
        o.seed = (uint64_t)seed;
        o.bots[0] = BOT_RANDOM;
        o.bots[1] = BOT_GREEDY;
        o.nbots = 2;
        char *record = NULL;
        size_t size = 0;
        FILE *mem = open_memstream(&record, &size);
        struct selfplay_sink sink = {collect, mem};
        char err[RULES_MESSAGE_SIZE] = "";
        int status = selfplay_match(&o, rules->cli_rules, c->files, c->nfiles, 0, &sink, err);
        fclose(mem);
        if (status != 0) fail_msg("%s, seed %d: self-play failed: %s", what, seed, err);

        /* a self-played record writes `players` before `rules`: 9 or 10 players need
         * ten-players from the command line to be seated (see the report) */
        int ncli = c->players > 8 ? c->nfiles : 0;
        if (m) model.round = 0;               /* a new match */
        struct referee *ref = replay(record, what, c->files, ncli, m, exhaustive);
        if (!game_is_over(&ref->game)) fail_msg("%s, seed %d: the record does not end its match", what, seed);
        stats.matches++;
        if (m) model_stats.games++;
        if (!exhaustive) {
            tu_free(ref);
            free(record);
            continue;
        }

        /* mtref check on the same bytes */
        FILE *f = tmpfile();
        assert_non_null(f);
        fputs(record, f);
        fflush(f);
        rewind(f);
        struct luarules *bridge = luarules_new();
        struct rules_loader loader = luarules_loader(bridge);
        struct check_result *res = malloc(sizeof *res);
        assert_non_null(res);
        check_descriptor(fileno(f), &loader, c->files, ncli, res);
        fclose(f);
        if (res->status != 0) fail_msg("%s, seed %d: check: line %ld: %s", what, seed, res->line, res->verdict.message);
        assert_true(res->complete);
        assert_int_equal(res->matches, 1);
        for (int s = 0; s < ref->game.nplayers; s++) {
            if (res->last.totals[s] != ref->game.totals[s])
                fail_msg("%s, seed %d: totals differ for %s", what, seed, ref->game.names[s]);
        }
        free(res);
        luarules_free(bridge);
        tu_free(ref);
        free(record);
    }
    tu_free(rules);
}

static void every_house_rule_self_plays_to_legal_complete_records(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        struct stats before = stats;
        play_config(&configs[i], 1, 0, true);
        char what[200];
        print_message("%-70s %2ld matches, %3ld rounds, %6ld states\n", describe(&configs[i], what, sizeof what),
                      stats.matches - before.matches, stats.rounds - before.rounds, stats.states - before.states);
    }
    print_message("%ld matches, %ld rounds, %ld states, %ld moves tried\n", stats.matches, stats.rounds, stats.states,
                  stats.tries);
    assert_true(stats.matches >= 150);
}

/* The model of the per-move house rules against the engine's legal list, over many
 * more games than the exhaustive test plays (and other seeds). */
static void the_legal_list_is_the_models_under_the_per_move_house_rules(void **state)
{
    (void)state;
    struct model probe;
    long before = model_stats.games;
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        if (model_configure(&probe, &configs[i])) play_config(&configs[i], 1000, MODEL_SEEDS, false);
    print_message("the model: %ld games, %ld positions\n", model_stats.games - before, model_stats.positions);
    assert_true(model_stats.games - before >= 2000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_legal_list_is_the_models_under_the_per_move_house_rules),
        cmocka_unit_test(every_house_rule_self_plays_to_legal_complete_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
