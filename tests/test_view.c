/* The private view (view.h): it reveals nothing hidden and everything own.
 *
 * Noninterference on the pure function: at thousands of positions reached by self-play
 * (2 to 8 players, canonical and house rules), permuting the hidden tiles (the other
 * hands and the boneyard, each hand keeping its size, the seeded draw order permuted
 * with them) leaves every seat's view byte-identical, as a value and in both printed
 * forms; changing the seat's own hand changes it. test_view_leak builds this same file
 * against a view that leaks one tile, and must fail. */
#include "testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "rng.h"
#include "view.h"

struct printed {
    struct seat_view v;
    char lines[VIEW_TEXT_MAX];
    char json[VIEW_TEXT_MAX];
};

static void print_view(const struct game *g, int seat, struct printed *p)
{
    view_of(g, seat, &p->v);
    view_format_lines(&p->v, p->lines, sizeof p->lines);
    view_format_json(&p->v, p->json, sizeof p->json);
}

static bool same(const struct printed *a, const struct printed *b)
{
    return memcmp(&a->v, &b->v, sizeof a->v) == 0 && strcmp(a->lines, b->lines) == 0 &&
           strcmp(a->json, b->json) == 0;
}

/* A copy of g where every tile seat does not see is moved to another hidden place. */
static void permute_hidden(const struct game *g, int seat, uint64_t *rng, struct game *out)
{
    *out = *g;
    unsigned char hidden[TILE_COUNT];
    int n = 0;
    for (int s = 0; s < g->nplayers; s++) {
        if (s == seat) continue;
        tileset h = g->hands[s];
        for (tile_t t; (t = tileset_pop(&h)) != TILE_NONE;) hidden[n++] = (unsigned char)t;
    }
    tileset b = g->boneyard;
    for (tile_t t; (t = tileset_pop(&b)) != TILE_NONE;) hidden[n++] = (unsigned char)t;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_uniform(rng, (uint64_t)i + 1);
        unsigned char x = hidden[i];
        hidden[i] = hidden[j];
        hidden[j] = x;
    }
    int k = 0;
    for (int s = 0; s < g->nplayers; s++) {
        if (s == seat) continue;
        int size = tileset_count(g->hands[s]);
        out->hands[s] = tileset_empty();
        for (int i = 0; i < size; i++) tileset_add(&out->hands[s], hidden[k++]);
    }
    out->boneyard = tileset_empty();
    int left = n - k;
    for (int i = 0; i < left; i++) tileset_add(&out->boneyard, hidden[k + i]);
    if (g->seeded && g->phase == PHASE_PLAYING) {
        assert_int_equal(g->boneyard_order_len - g->boneyard_next, left);
        memcpy(out->boneyard_order + g->boneyard_next, hidden + k, (size_t)left);
    }
}

/* A copy of g where one tile of seat's hand trades places with a hidden one. */
static bool change_own_hand(const struct game *g, int seat, struct game *out)
{
    *out = *g;
    if (tileset_is_empty(g->hands[seat])) return false;
    tile_t mine = tileset_first(g->hands[seat]);
    for (int s = 0; s < g->nplayers; s++) {
        if (s == seat || tileset_is_empty(g->hands[s])) continue;
        tile_t theirs = tileset_first(g->hands[s]);
        tileset_remove(&out->hands[seat], mine);
        tileset_add(&out->hands[seat], theirs);
        tileset_remove(&out->hands[s], theirs);
        tileset_add(&out->hands[s], mine);
        return true;
    }
    return false;
}

static long checked_views, checked_changes;

static void check_position(const struct game *g, uint64_t *rng, struct printed *a, struct printed *b)
{
    struct game *other = malloc(sizeof *other);
    assert_non_null(other);
    for (int seat = 0; seat < g->nplayers; seat++) {
        print_view(g, seat, a);
        for (int k = 0; k < 2; k++) {
            permute_hidden(g, seat, rng, other);
            print_view(other, seat, b);
            if (!same(a, b)) fail_msg("seat %d's view changed with the hidden tiles:\n%s---\n%s", seat, a->lines, b->lines);
            checked_views++;
            if (seat == g->turn && g->phase == PHASE_PLAYING && !g->rules->hooks.may_play) {
                /* what the seat may do is part of what it may know */
                struct move m1[GAME_MAX_LEGAL], m2[GAME_MAX_LEGAL];
                int n1 = game_legal_moves(g, m1, GAME_MAX_LEGAL), n2 = game_legal_moves(other, m2, GAME_MAX_LEGAL);
                assert_int_equal(n1, n2);
                for (int i = 0; i < n1; i++) {
                    assert_int_equal(m1[i].kind, m2[i].kind);
                    assert_int_equal(m1[i].tile, m2[i].tile);
                    assert_int_equal(m1[i].train, m2[i].train);
                }
            }
        }
        if (change_own_hand(g, seat, other)) {
            print_view(other, seat, b);
            assert_true(strcmp(a->lines, b->lines) != 0);
            assert_true(strcmp(a->json, b->json) != 0);
            checked_changes++;
        }
    }
    free(other);
}

/* Plays a seeded match with built-in players, checking every position. */
static void play_and_check(const struct rules *rules, int players, int rounds, uint64_t seed)
{
    struct game *g = malloc(sizeof *g), *snap = malloc(sizeof *snap);
    struct printed *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(g);
    assert_non_null(snap);
    assert_non_null(a);
    assert_non_null(b);
    tu_seat_players(g, rules, players);
    struct verdict v;
    game_set_rounds(g, rounds, &v);
    assert_int_equal(v.code, ERR_NONE);
    game_set_seed(g, seed, &v);
    uint64_t rng = seed * 7 + 1, bots = seed ^ 0x55;
    int moves = 0;
    while (!game_is_over(g) && g->round <= 100) {
        game_snapshot(g, snap);
        *g = *snap;
        if (moves++ % 3 == 0) check_position(g, &rng, a, b);
        struct move m = bot_choose(seed & 1 ? BOT_GREEDY : BOT_RANDOM, g, &bots);
        game_move(g, &m, &v);
        if (v.code != ERR_NONE) fail_msg("%s: %s", error_code_name(v.code), v.message);
    }
    check_position(g, &rng, a, b);     /* the match is over: still nothing hidden shown */
    free(a);
    free(b);
    free(snap);
    free(g);
}

static void view_reveals_no_hidden_tile_canonical(void **state)
{
    (void)state;
    struct rules rules;
    rules_init_canonical(&rules);
    for (int players = 2; players <= 8; players++)
        for (uint64_t seed = 1; seed <= 6; seed++)
            play_and_check(&rules, players, players == 3 && seed == 1 ? 7 : 1, seed * 97 + (uint64_t)players);
    assert_true(checked_views > 1000);
    assert_true(checked_changes > 1000);
}

static void view_reveals_no_hidden_tile_house_rules(void **state)
{
    (void)state;
    static const char *const sets[][2] = {
        {"doubles-anywhere-lifo", 0}, {"doubles-anywhere-fifo", "draw-until-playable"},
        {"elimination-100", "double-blank-50"}, {"first-turn-own-train", "marker-after-cover"},
        {"positive-scoring", "ascending"},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        int n = sets[i][1] ? 2 : 1;
        struct referee *ref = tu_session(sets[i], n);
        for (uint64_t seed = 1; seed <= 3; seed++) play_and_check(ref->cli_rules, 2 + (int)seed, 7, seed + 11 * i);
        tu_free(ref);
    }
}

/* `show NAME` prints the view: the seat's own tiles, only the sizes of the others. */
static void show_name_prints_the_view_only(void **state)
{
    (void)state;
    char *out = NULL;
    int status = tu_run("players ana bob\nrounds 1\nseed 42\nshow ana\nshow bob\n", true, false, 0, 0, &out);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"player\":\"ana\""));
    assert_non_null(strstr(out, "\"hand_sizes\":{\"ana\":15,\"bob\":15}"));
    assert_null(strstr(out, "\"hands\""));
    free(out);
    status = tu_run("players ana bob\nrounds 1\nseed 42\nshow zed\n", true, false, 0, 0, &out);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "\"error\":\"unknown-player\""));
    free(out);
}

/* The decimal writer of the view and the bot messages says what printf says. */
static void view_decimal_writes_what_printf_writes(void **state)
{
    (void)state;
    const long long values[] = {0, 7, -7, 9, 10, -10, 99, 100, 123456789, -987654321, LLONG_MAX, LLONG_MIN};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char got[VIEW_DECIMAL_SIZE + 1], want[32];
        size_t n = view_decimal(values[i], got);
        got[n] = '\0';
        snprintf(want, sizeof want, "%lld", values[i]);
        assert_string_equal(got, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_reveals_no_hidden_tile_canonical),
        cmocka_unit_test(view_reveals_no_hidden_tile_house_rules),
        cmocka_unit_test(show_name_prints_the_view_only),
        cmocka_unit_test(view_decimal_writes_what_printf_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
