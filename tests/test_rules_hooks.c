/* Branches of the engine that only house rules reach: a may_play veto refusing a play
 * (and leaving it out of `legal`), the backstop that ends a round in which everybody
 * passed twice round the table with an empty boneyard (a veto can forbid plays R20
 * cannot see) or without a draw (a may_draw hook can refuse every draw), and a rules file whose match has another number of rounds. */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "selfplay.h"

#define PIP TU_PIP

static char path[64];

static const char *temp_rules(const char *source)
{
    strcpy(path, "/tmp/mtref-hooks-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(source, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

static const char *example(const char *name, char *buf, size_t size)
{
    const char *dir = getenv("MTREF_RULES_PATH");
    assert_non_null(dir);
    snprintf(buf, size, "%s/examples/%s.lua", dir, name);
    return buf;
}

/* no-mex-while-marked: p1 passed (marked) and may not play on the Mexican train; the
 * play is house-rule with the file's reason, `legal` leaves it out, and with no other
 * play p1 may draw. */
static void may_play_a_veto_refuses_the_play_and_legal_leaves_it_out(void **state)
{
    (void)state;
    char file[512];
    const char *files[] = {example("no-mex-while-marked", file, sizeof file)};
    struct referee *ref = tu_session(files, 1);
    tu_feed(ref, "players 2");
    tu_deal(ref, (const char *const[]){"1-6", "6-12"}, (const unsigned[]){PIP(12) | PIP(6) | PIP(1), 0},
            "3-4 2-3", NULL);
    tu_moves(ref, "p1 draw 3-4\np1 pass\np2 play 12-6 mex");
    assert_true(ref->game.trains[0].marker);
    assert_int_equal(tu_line(ref, "p1 play 6-1 mex"), ERR_HOUSE_RULE);
    assert_string_equal(tu_last()->message, "no-mex-while-marked: the p1 train is marked");
    assert_null(tu_last()->rule);
    struct move legal[GAME_MAX_LEGAL];
    int n = game_legal_moves(&ref->game, legal, GAME_MAX_LEGAL);
    assert_int_equal(n, 1);
    assert_int_equal(legal[0].kind, MOVE_DRAW);
    tu_moves(ref, "p1 draw 2-3");           /* not must-play: the only fitting play is vetoed */
    assert_int_equal(tu_line(ref, "p1 play 6-1 mex"), ERR_HOUSE_RULE);
    tu_moves(ref, "p1 pass");
    tu_free(ref);
    /* canonically the same play is accepted */
    ref = tu_session(NULL, 0);
    tu_feed(ref, "players 2");
    tu_deal(ref, (const char *const[]){"1-6", "6-12"}, (const unsigned[]){PIP(12) | PIP(6) | PIP(1), 0},
            "3-4 2-3", NULL);
    tu_moves(ref, "p1 draw 3-4\np1 pass\np2 play 12-6 mex\np1 play 6-1 mex");
    tu_free(ref);
}

/* A veto of every play: nothing R20 can see blocks the round, so the backstop ends it
 * once each player passed twice in a row with the boneyard empty. */
static void a_round_where_all_pass_twice_with_an_empty_boneyard_is_blocked(void **state)
{
    (void)state;
    const char *files[] = {temp_rules("return {\n  may_play = function(m) return false, 'no' end,\n}\n")};
    struct referee *ref = tu_session(files, 1);
    tu_feed(ref, "players 2\nrounds 1\nseed 3");
    for (int i = 0; i < 30; i++) tu_moves(ref, "p1 draw\np1 pass\np2 draw\np2 pass");
    assert_true(tileset_is_empty(ref->game.boneyard));
    /* p2's pass after the last draw was the first with an empty boneyard */
    tu_moves(ref, "p1 pass\np2 pass");               /* three in a row: the round goes on */
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, -1);         /* blocked */
    assert_true(v->match_ended);
    assert_int_equal(v->report.points[0], game_hand_value(&ref->game, ref->game.hands[0]));
    tu_free(ref);
    unlink(path);
}

/* No draw in round 1, and every play vetoed: the players pass by a boneyard that
 * still holds tiles. Nothing can change, so the backstop ends the round
 * once everyone passed twice round the table without a draw (found by the rules
 * fuzzer: before, such a round ran until the match's hook budget was spent). */
static void a_round_where_all_pass_twice_without_a_draw_is_blocked(void **state)
{
    (void)state;
    const char *files[] = {temp_rules("return {\n"
                                      "  may_play = function(m) return false, 'no' end,\n"
                                      "  may_draw = function(view) return view.round > 1 end,\n"
                                      "}\n")};
    struct referee *ref = tu_session(files, 1);
    tu_feed(ref, "players 2\nrounds 1\nseed 3");
    tu_moves(ref, "p1 pass\np2 pass\np1 pass");     /* three in a row: the round goes on */
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_NONE);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, -1);         /* blocked, by a boneyard of tiles */
    assert_false(tileset_is_empty(ref->game.boneyard));
    tu_free(ref);
    /* self-play under the same file ends at once, the round blocked */
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 3;
    o.rounds = 1;
    char *text = NULL;
    size_t size = 0;
    char err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, files, 1, &text, &size, err), 0);
    assert_true(size < 4096);
    free(text);
    unlink(path);
}

/* A file whose match lasts 3 rounds unless a rounds line says 1 or 5. */
static void R3_a_rules_file_with_another_round_count(void **state)
{
    (void)state;
    const char *files[] = {temp_rules("return {rounds = {1, 3, 5}, default_rounds = 3}\n")};
    struct referee *ref = tu_session(files, 1);
    tu_feed(ref, "players 2");
    assert_int_equal(ref->game.rounds, 3);
    assert_int_equal(tu_line(ref, "rounds 13"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "rounds 5"), ERR_NONE);
    assert_int_equal(ref->game.rounds, 5);
    tu_free(ref);
    /* self-play under it plays and writes three rounds, and check agrees */
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 2;
    char *text = NULL;
    size_t size = 0;
    char err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, files, 1, &text, &size, err), 0);
    assert_non_null(strstr(text, "\nrounds 3\nround 1\n"));
    assert_non_null(strstr(text, "\nround 3\n"));
    assert_null(strstr(text, "\nround 4\n"));
    char *out = NULL;
    assert_int_equal(tu_run(text, true, false, NULL, 0, &out), 0);
    assert_non_null(strstr(out, "\"event\":\"round_end\",\"round\":3,"));
    assert_non_null(strstr(out, "\"event\":\"match_end\""));
    free(out);
    free(text);
    unlink(path);
}

/* A verdict the caller left dirty (every byte 0xA5). */
static struct verdict *dirty(struct verdict *v)
{
    memset(v, 0xA5, sizeof *v);
    return v;
}

/* Every engine call that answers a line writes its verdict, whatever the caller left
 * there. game_deal did not: the first deal of a match starts round 1, and under a
 * lay_engine or opener hook the round's start asks it and then reads v->code, which
 * game_ask writes only on a failure. A caller that had not reset v saw a deal that
 * was fine refused with whatever code v held, and the game put back in set-up (the
 * session resets each line's verdict, so records never met it; a helper calling the
 * engine directly did). The hands are those a seeded twin deals. */
static void every_engine_call_writes_its_verdict_whatever_the_caller_left_there(void **state)
{
    (void)state;
    static const char *const sources[] = {
        "return { lay_engine = function() return 'hand' end }\n",
        "return { opener = function(view, name) return name end }\n",
        "return { lay_engine = function() return 'hand' end,\n"
        "         opener = function(view, name) return name end }\n",
    };
    struct luarules *lua = luarules_new();
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua);
    for (size_t k = 0; k < sizeof sources / sizeof sources[0]; k++) {
        const char *files[] = {temp_rules(sources[k])};
        const struct rules *rules = NULL;
        char err[RULES_MESSAGE_SIZE] = "";
        void *handle = loader.load(loader.ctx, files, 1, &rules, err);
        if (!handle) fail_msg("%s", err);
        unlink(path);
        struct game *g = malloc(sizeof *g), *u = malloc(sizeof *u);
        assert_true(g && u);
        const char *names[] = {"p1", "p2", "p3"};
        struct verdict v;
        game_init(g, rules);
        game_init(u, rules);
        game_set_players(g, 3, names, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        game_set_players(u, 3, names, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        game_set_rounds(u, rules->default_rounds, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        game_set_rules(u, rules, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        game_assert_round(u, 1, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        game_set_seed(g, 7 + k, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        assert_true(game_deal_seeded(g));
        for (int s = 0; s < 3; s++) {
            tile_t tiles[TILE_COUNT];
            int n = tu_dealt_tiles(g, s, tiles);
            game_deal(u, s, tiles, n, dirty(&v));
            assert_int_equal(v.code, ERR_NONE);
            assert_int_equal(u->phase, s < 2 ? PHASE_DEALING : PHASE_PLAYING);
        }
        /* the twins agree on the hands, the turn and the engine */
        assert_memory_equal(g->hands, u->hands, sizeof g->hands);
        assert_int_equal(g->turn, u->turn);
        assert_int_equal(g->engine_from, u->engine_from);
        struct move legal[GAME_MAX_LEGAL];
        int n = game_legal_moves_checked(u, legal, GAME_MAX_LEGAL, dirty(&v));
        assert_true(n > 0);
        assert_int_equal(v.code, ERR_NONE);
        struct move m = legal[0];
        if (m.kind == MOVE_DRAW) m.tile = tileset_first(u->boneyard);
        game_move(u, &m, dirty(&v));
        assert_int_equal(v.code, ERR_NONE);
        free(u);
        free(g);
        loader.release(loader.ctx, handle);
    }
    luarules_free(lua);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(may_play_a_veto_refuses_the_play_and_legal_leaves_it_out),
        cmocka_unit_test(a_round_where_all_pass_twice_with_an_empty_boneyard_is_blocked),
        cmocka_unit_test(a_round_where_all_pass_twice_without_a_draw_is_blocked),
        cmocka_unit_test(R3_a_rules_file_with_another_round_count),
        cmocka_unit_test(every_engine_call_writes_its_verdict_whatever_the_caller_left_there),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
