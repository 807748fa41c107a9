/* game_apply_known, the short way for a move already known legal, is game_move: every
 * legal move of every position of many matches gives the same game and verdict both
 * ways, and self-play writes the same records with and without the full checks, at
 * 2 to 8 players, under canonical rules, the shipped files and house rules with hooks
 * (where the short way must hand the move to game_move). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "luarules.h"
#include "selfplay_run.h"

/* NULL-terminated; a name with a '/' is a file under rules/examples. */
static const char *const rule_sets[][4] = {
    {NULL},
    {"doubles-anywhere-lifo", NULL},
    {"doubles-anywhere-fifo", "marker-after-cover", NULL},
    {"draw-until-playable", NULL},
    {"first-turn-own-train", NULL},
    {"elimination-100", "double-blank-50", NULL},
    {"positive-scoring", "double-out-doubles", NULL},
    {"ascending", "ten-players", NULL},
    {"engine-from-hand", NULL},
    {"first-turn-chain", NULL},
    {"doubles-anywhere-lifo", "first-turn-own-train", "draw-until-playable", NULL},
    {"examples/double-nine", NULL},
    {"examples/double-fifteen", NULL},
    {"examples/first-turn-no-doubles", NULL},
    {"examples/blocked-after-passes", NULL},
    {"examples/boneyard-reserve", NULL},
    {"examples/drawn-tile-optional", NULL},
    {"examples/target-score", NULL},
};
#define NSETS (sizeof rule_sets / sizeof rule_sets[0])

/* The files of set r as the loader takes them: names, or paths under rules/examples. */
static int set_files(size_t r, char paths[][4096], const char *files[])
{
    return tu_rule_files(rule_sets[r], paths, files);
}

static long positions, moves_compared;

/* One match: in each position every legal move both ways, then the seat's bot's move
 * (greedy and random seats by turns, for varied positions: markers, owed doubles). */
static void play_and_compare(const struct rules *rules, int players, uint64_t seed)
{
    struct game *g = malloc(sizeof *g), *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_true(g && a && b);
    tu_seat_players(g, rules, players);
    struct verdict v, va, vb;
    game_set_seed(g, seed, &v);
    uint64_t rng[RULES_MAX_PLAYERS];
    for (int s = 0; s < players; s++) rng[s] = seed * 37 + (uint64_t)s;
    struct move legal[GAME_MAX_LEGAL];
    for (int n = 0; !game_is_over(g) && n < 20000; n++) {
        if (game_needs_deal(g)) assert_true(game_deal_seeded(g));
        int nlegal = game_legal_moves(g, legal, GAME_MAX_LEGAL);
        positions++;
        for (int i = 0; i < nlegal; i++) {
            *a = *g;
            *b = *g;
            game_move(a, &legal[i], &va);
            game_apply_known(b, &legal[i], &vb);
            moves_compared++;
            if (!tu_same_verdict(&va, &vb, players) || memcmp(a, b, sizeof *a) != 0)
                fail_msg("%s, %d players, seed %llu, round %d, seat %d, move %d (kind %d tile %d train %d): "
                         "applied as known, not as game_move (%s / %s)",
                         rules->names ? rules->names : "canonical", players, (unsigned long long)seed, g->round,
                         g->turn, i, legal[i].kind, legal[i].tile, legal[i].train,
                         error_code_name(va.code), error_code_name(vb.code));
        }
        int seat = g->turn;
        struct move m = bot_choose(seat % 2 ? BOT_RANDOM : BOT_GREEDY, g, &rng[seat]);
        game_move(g, &m, &v);
        assert_int_equal(v.code, ERR_NONE);
    }
    free(b);
    free(a);
    free(g);
}

static void every_legal_move_applied_as_known_is_the_checked_move(void **state)
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
        int n = set_files(r, paths, files);
        void *handle;
        const struct rules *rules = tu_load_rules(&loader, files, n, &canonical, &handle);
        int top = rules->max_players < 8 ? rules->max_players : 8;
        for (int players = rules->min_players; players <= top; players++)
            for (uint64_t seed = 1; seed <= 2; seed++) play_and_compare(rules, players, seed * 977 + r);
        if (handle) loader.release(loader.ctx, handle);
    }
    luarules_free(lua);
    print_message("%ld positions, %ld moves both ways\n", positions, moves_compared);
    assert_true(positions > 100000);
    assert_true(moves_compared > positions);
}

/* The records of o, every move through game_move or through game_apply_known. */
static void selfplay_both_ways(struct selfplay_options *o, const char *const files[], int n, long *matches)
{
    char *fast, *checked, err[RULES_MESSAGE_SIZE];
    size_t fast_len, checked_len;
    o->check_moves = false;
    if (tu_selfplay(o, files, n, &fast, &fast_len, err) != 0) fail_msg("selfplay: %s", err);
    o->check_moves = true;
    if (tu_selfplay(o, files, n, &checked, &checked_len, err) != 0) fail_msg("selfplay, checked: %s", err);
    if (fast_len != checked_len || memcmp(fast, checked, fast_len) != 0) {
        size_t at = 0;
        while (at < fast_len && at < checked_len && fast[at] == checked[at]) at++;
        fail_msg("%s, %d players, seed %llu: the records part at byte %zu", n ? files[0] : "canonical",
                 o->players, (unsigned long long)o->seed, at);
    }
    free(fast);
    free(checked);
    *matches += o->games;
}

static void selfplay_records_are_the_same_with_and_without_the_checks(void **state)
{
    (void)state;
    static const char *const bots[] = {"greedy", "random", "greedy,random", "random,greedy,greedy"};
    long matches = 0;
    struct luarules *lua = luarules_new();
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua);
    for (size_t r = 0; r < NSETS; r++) {
        char paths[3][4096];
        const char *files[3];
        int n = set_files(r, paths, files);
        struct rules canonical;
        rules_init_canonical(&canonical);
        void *handle;
        const struct rules *rules = tu_load_rules(&loader, files, n, &canonical, &handle);
        int low = rules->min_players;           /* the table sizes of the set */
        int high = rules->max_players < 8 ? rules->max_players : 8;
        bool one_round = rules->rounds_allowed >> 1 & 1;
        if (handle) loader.release(loader.ctx, handle);
        for (int players = low; players <= high; players++) {
            /* whole matches, and many one-round ones where the rules allow them */
            for (int rounds = 0; rounds <= (one_round ? 1 : 0); rounds++) {
                struct selfplay_options o;
                selfplay_defaults(&o);
                o.players = players;
                o.seed = 1000 + r * 10 + (uint64_t)players + 100000 * (uint64_t)rounds;
                o.rounds = rounds;
                o.games = rounds ? 30 : r == 0 ? 30 : 6;
                assert_true(selfplay_parse_bots(bots[(r + (size_t)players) % 4], &o));
                selfplay_both_ways(&o, files, n, &matches);
            }
        }
    }
    luarules_free(lua);
    print_message("%ld matches both ways\n", matches);
    assert_true(matches >= 3000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_legal_move_applied_as_known_is_the_checked_move),
        cmocka_unit_test(selfplay_records_are_the_same_with_and_without_the_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
