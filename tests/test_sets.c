/* [R1][R3][R5] the sets a rules file may choose (double-nine, double-fifteen): whole
 * seeded matches played by the greedy bot, checking the round schedule, the deal
 * sizes and that every tile of the set, and none other, is in play; the seeded
 * shuffle of each set; and the hostile values of the max_pip setting. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "bots.h"
#include "deal.h"
#include "luarules.h"
#include "sandboxutil.h"

#define RULES(...) ((const char *const[]){__VA_ARGS__}), \
    (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* Plays a seeded match of n players under ref's rules with the greedy bot; writes each
 * round's engine pip into engines[] and returns the rounds played. */
static int play_seeded(struct referee *ref, int n, int rounds, int hand_size[], int engines[])
{
    char line[64];
    snprintf(line, sizeof line, "players %d", n);
    tu_feed(ref, line);
    if (rounds) {
        snprintf(line, sizeof line, "rounds %d", rounds);
        tu_feed(ref, line);
    }
    tu_feed(ref, "seed 11");
    struct game *g = &ref->game;
    const struct rules *r = g->rules;
    struct game snap;
    game_snapshot(g, &snap);                 /* the seeded deal of round 1, as a bot sees it */
    *g = snap;
    uint64_t rng = 5;
    int played = 0, last_round = 0;
    for (int moves = 0; g->phase == PHASE_PLAYING && moves < 200000; moves++) {
        if (g->round != last_round) {
            last_round = g->round;
            engines[played] = g->engine_pip;
            hand_size[played] = tileset_count(g->hands[0]);
            played++;
            assert_true(game_tiles_conserved(g));
            tileset all = g->boneyard;
            for (int s = 0; s < g->nplayers; s++) all = tileset_or(all, g->hands[s]);
            tileset_add(&all, tile_double(g->engine_pip));
            assert_true(tileset_equal(all, r->set_tiles));
        }
        struct move m = bot_choose(BOT_GREEDY, g, &rng);
        struct verdict v;
        game_move(g, &m, &v);
        assert_int_equal(v.code, ERR_NONE);
        if (g->phase == PHASE_DEALING) {      /* the next round: deal it as the referee would */
            game_snapshot(g, &snap);
            *g = snap;
        }
    }
    assert_int_equal(g->phase, PHASE_OVER);
    return played;
}

static void R3_double_nine_runs_9_9_down_to_0_0(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("double-nine"));
    int sizes[20], engines[20];
    assert_int_equal(ref->game.rules->set_size, 55);
    assert_int_equal(play_seeded(ref, 3, 0, sizes, engines), 10);
    for (int k = 0; k < 10; k++) {
        assert_int_equal(engines[k], 9 - k);
        assert_int_equal(sizes[k], 10);
    }
    tu_free(ref);
}

static void R3_double_nine_half_and_one_round(void **state)
{
    (void)state;
    int sizes[20], engines[20];
    struct referee *ref = tu_session(RULES("double-nine"));
    assert_int_equal(play_seeded(ref, 6, 5, sizes, engines), 5);
    for (int k = 0; k < 5; k++) {
        assert_int_equal(engines[k], 9 - k);
        assert_int_equal(sizes[k], 8);            /* 5-6 players: 8 tiles */
    }
    tu_free(ref);
    ref = tu_session(RULES("double-nine"));
    assert_int_equal(play_seeded(ref, 5, 1, sizes, engines), 1);
    assert_int_equal(engines[0], 9);
    tu_free(ref);
}

static void R3_double_fifteen_runs_15_15_down_to_0_0(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("double-fifteen"));
    int sizes[20], engines[20];
    assert_int_equal(ref->game.rules->set_size, 136);
    assert_int_equal(play_seeded(ref, 2, 0, sizes, engines), 16);
    for (int k = 0; k < 16; k++) {
        assert_int_equal(engines[k], 15 - k);
        assert_int_equal(sizes[k], 15);
    }
    tu_free(ref);
}

static void R5_double_fifteen_deals_by_table_size_up_to_twelve(void **state)
{
    (void)state;
    static const int want[13] = {0, 0, 15, 15, 15, 14, 14, 12, 12, 11, 11, 10, 10};
    for (int n = 2; n <= 12; n++) {
        struct referee *ref = tu_session(RULES("double-fifteen"));
        int sizes[20], engines[20];
        int rounds = n % 2 ? 1 : 8;
        assert_int_equal(play_seeded(ref, n, rounds, sizes, engines), rounds);
        assert_int_equal(sizes[0], want[n]);
        for (int k = 0; k < rounds; k++) assert_int_equal(engines[k], 15 - k);
        tu_free(ref);
    }
    struct referee *ref = tu_session(RULES("double-fifteen"));
    assert_int_equal(tu_line(ref, "players 13"), ERR_SYNTAX);
    tu_free(ref);
    /* ten-players before double-fifteen: the later file's table stands, 12 seats */
    ref = tu_session(RULES("ten-players", "double-fifteen"));
    assert_int_equal(tu_line(ref, "players 12"), ERR_NONE);
    tu_free(ref);
    /* and after it, ten seats at most again (hand sizes of ten-players fit 136 tiles) */
    ref = tu_session(RULES("double-fifteen", "ten-players"));
    assert_int_equal(tu_line(ref, "players 11"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players 10"), ERR_NONE);
    tu_free(ref);
}

/* mtref(1), SEEDED DEALS: a set's deck is its tiles in the order 0-0, 0-1, ... N-N
 * without the engine, shuffled as the canonical deck is; for double-twelve it is the
 * canonical deck itself. */
static void R5_the_seeded_shuffle_of_each_set(void **state)
{
    (void)state;
    for (int engine = 0; engine <= 12; engine++) {
        uint64_t a = 77 + (uint64_t)engine, b = a;
        unsigned char canon[DEAL_DECK_SIZE], any[TILE_COUNT];
        deal_shuffle(&a, engine, canon);
        assert_int_equal(deal_shuffle_set(&b, 12, engine, false, any), DEAL_DECK_SIZE);
        assert_memory_equal(canon, any, DEAL_DECK_SIZE);
        assert_int_equal(a, b);
    }
    for (int n = TILE_MIN_SET_PIP; n <= TILE_MAX_PIP; n++) {
        unsigned char order[TILE_COUNT], deck[TILE_COUNT], want[TILE_COUNT];
        int size = tile_set_order(n, order), k = 0;
        for (int i = 0; i < size; i++)
            if (order[i] != tile_double(n)) want[k++] = order[i];
        uint64_t s = 3, ref = 3;
        for (int i = k - 1; i >= 1; i--) {           /* Fisher-Yates as mtref(1) writes it */
            int j = (int)rng_uniform(&ref, (uint64_t)i + 1);
            unsigned char t = want[i]; want[i] = want[j]; want[j] = t;
        }
        assert_int_equal(deal_shuffle_set(&s, n, n, false, deck), size - 1);
        assert_memory_equal(deck, want, (size_t)k);
        assert_int_equal(deal_shuffle_set(&s, n, n, true, deck), size);
    }
}

/* A hostile max_pip: a rules error naming the file and the setting, never a crash. */
static void max_pip_refuses_what_is_not_a_set(void **state)
{
    (void)state;
    static const char *const values[] = {
        "5", "16", "-1", "0/0", "1/0", "9.5", "2^63", "math.maxinteger", "\"9\"", "true", "{}",
        "setmetatable({}, {__index = function() return 9 end})", "function() return 9 end",
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char source[200];
        snprintf(source, sizeof source, "return {\n  description = \"hostile\",\n  max_pip = %s,\n}\n", values[i]);
        const char *path = sbu_write(source);
        struct sbu_outcome o = sbu_load();
        assert_false(o.loaded);
        assert_non_null(strstr(o.err, path));
        assert_non_null(strstr(o.err, ":3: max_pip: "));
    }
    sbu_cleanup();
}

/* A tile_value of an earlier file is asked for the tiles a later set adds. */
static void tile_values_reach_the_tiles_of_a_later_set(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("double-blank-50", "double-fifteen"));
    const struct rules *r = ref->game.rules;
    assert_int_equal(r->tile_value[tile_from_pips(0, 0)], 50);
    assert_int_equal(r->tile_value[tile_from_pips(15, 15)], 30);
    assert_int_equal(r->tile_value[tile_from_pips(3, 14)], 17);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R3_double_nine_runs_9_9_down_to_0_0),
        cmocka_unit_test(R3_double_nine_half_and_one_round),
        cmocka_unit_test(R3_double_fifteen_runs_15_15_down_to_0_0),
        cmocka_unit_test(R5_double_fifteen_deals_by_table_size_up_to_twelve),
        cmocka_unit_test(R5_the_seeded_shuffle_of_each_set),
        cmocka_unit_test(max_pip_refuses_what_is_not_a_set),
        cmocka_unit_test(tile_values_reach_the_tiles_of_a_later_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
