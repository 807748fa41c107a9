/* Property: under every house-rules file and the settled combinations, self-played
 * matches re-adjudicate as legal and complete with the same totals; the 91 tiles are
 * conserved after every move; and at every state the legal listing is exactly the set
 * of moves the engine accepts (every tile of the hand on every train, a draw, a pass,
 * each tried on a copy of the game). */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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
static struct referee *replay(const char *record, const char *what, const char *const cli[], int ncli)
{
    struct referee *ref = tu_session(cli, ncli);
    struct response resp;
    long number = 0;
    const char *text = record;
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        number++;
        if (ref->game.phase == PHASE_PLAYING && is_move(text, len)) check_legal_is_accepted(&ref->game, what, number);
        referee_line(ref, text, len, false, number, &resp);
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

static void play_config(const struct config *c)
{
    char what[200];
    describe(c, what, sizeof what);
    struct referee *rules = tu_session(c->files, c->nfiles);
    for (int seed = 1; seed <= c->seeds; seed++) {
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
        struct referee *ref = replay(record, what, c->files, ncli);
        if (!game_is_over(&ref->game)) fail_msg("%s, seed %d: the record does not end its match", what, seed);
        stats.matches++;

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
        play_config(&configs[i]);
        char what[200];
        print_message("%-70s %2ld matches, %3ld rounds, %6ld states\n", describe(&configs[i], what, sizeof what),
                      stats.matches - before.matches, stats.rounds - before.rounds, stats.states - before.states);
    }
    print_message("%ld matches, %ld rounds, %ld states, %ld moves tried\n", stats.matches, stats.rounds, stats.states,
                  stats.tries);
    assert_true(stats.matches >= 150);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_house_rule_self_plays_to_legal_complete_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
