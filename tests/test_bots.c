/* The built-in players: greedy's choice from the tile masks is the choice of scoring
 * the engine's legal list, move for move and draw for draw of its random stream, in
 * every position of many matches under each shipped rules file. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "luarules.h"
#include "rng.h"

static const char *const rule_sets[][3] = {
    {NULL},
    {"doubles-anywhere-lifo", NULL},
    {"doubles-anywhere-fifo", NULL},
    {"draw-until-playable", NULL},
    {"first-turn-own-train", NULL},
    {"marker-after-cover", NULL},
    {"elimination-100", "double-blank-50", NULL},
    {"positive-scoring", "double-out-doubles", NULL},
    {"ascending", NULL},
    {"ten-players", NULL},
    {"doubles-anywhere-lifo", "first-turn-own-train", "draw-until-playable"},
};

static long positions;

/* Plays one match; in each position compares greedy both ways, then plays the move of
 * the seat's own bot (random seats make the positions varied: markers, owed doubles). */
static void play_and_compare(const struct rules *rules, int players, uint64_t seed)
{
    struct game *g = malloc(sizeof *g), *snap = malloc(sizeof *snap);
    assert_non_null(g);
    assert_non_null(snap);
    tu_seat_players(g, rules, players);
    struct verdict v;
    game_set_seed(g, seed, &v);
    uint64_t rng[RULES_MAX_PLAYERS];
    for (int s = 0; s < players; s++) rng[s] = seed * 31 + (uint64_t)s;
    for (int moves = 0; !game_is_over(g) && moves < 20000; moves++) {
        if (game_needs_deal(g)) {
            game_snapshot(g, snap);
            assert_false(game_needs_deal(snap));
            *g = *snap;
        }
        int seat = g->turn;
        uint64_t a = rng[seat], b = rng[seat];
        struct move fast = bot_choose(BOT_GREEDY, g, &a);
        struct move slow = bot_choose_from_list(BOT_GREEDY, g, &b);
        positions++;
        if (fast.kind != slow.kind || fast.seat != slow.seat || fast.tile != slow.tile ||
            (fast.kind == MOVE_PLAY && fast.train != slow.train) || a != b)
            fail_msg("round %d, seat %d: masks chose kind %d tile %d train %d, the list kind %d tile %d train %d%s",
                     g->round, seat, fast.kind, fast.tile, fast.train, slow.kind, slow.tile, slow.train,
                     a != b ? "; the random streams differ" : "");
        struct move m = seat % 2 ? bot_choose_from_list(BOT_RANDOM, g, &rng[seat]) : slow;
        if (seat % 2 == 0) rng[seat] = b;
        game_move(g, &m, &v);
        assert_int_equal(v.code, ERR_NONE);
    }
    free(snap);
    free(g);
}

static void greedy_from_masks_chooses_as_scoring_the_legal_list_does(void **state)
{
    (void)state;
    struct luarules *lua = luarules_new();
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua);
    struct rules canonical;
    rules_init_canonical(&canonical);
    for (size_t r = 0; r < sizeof rule_sets / sizeof rule_sets[0]; r++) {
        int n = 0;
        while (n < 3 && rule_sets[r][n]) n++;
        void *handle;
        const struct rules *rules = tu_load_rules(&loader, rule_sets[r], n, &canonical, &handle);
        for (int players = rules->min_players; players <= rules->max_players; players++)
            for (uint64_t seed = 1; seed <= 6; seed++) play_and_compare(rules, players, seed * 1000 + r);
        if (handle) loader.release(loader.ctx, handle);
    }
    luarules_free(lua);
    assert_true(positions > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(greedy_from_masks_chooses_as_scoring_the_legal_list_does),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
