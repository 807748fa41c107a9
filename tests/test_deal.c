/* The frozen seeded shuffle (SplitMix64 + Fisher-Yates, mtref(1) SEEDED DEALS): golden values, the deals it makes, draw-mismatch. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deal.h"

/* These values pin the shuffle forever: a change breaks every seeded record ever written.
 * They were computed once from src/engine/deal.c and rng.c and are checked against published SplitMix64
 * outputs and an independent implementation of the documented algorithm below. */

static const uint64_t golden_random_seed0[5] = {
    16294208416658607535ULL, 7960286522194355700ULL, 487617019471545679ULL,
    17909611376780542444ULL, 1961750202426094747ULL,
};
static const uint64_t golden_random_seed1234[5] = {
    13478418381427711195ULL, 10936887474700444964ULL, 3728693401281897946ULL,
    5648149391703318579ULL, 13335972132106093989ULL,
};
/* The reference values of SplitMix64 (Vigna's splitmix64.c) for seed 1234567. */
static const uint64_t reference_seed1234567[5] = {
    6457827717110365317ULL, 3203168211198807973ULL, 9817491932198370423ULL,
    4593380528125082431ULL, 16408922859458223821ULL,
};

/* seed 1, round 1 (engine 12-12) */
static const char *const golden_deck_seed1 =
    "4-12 10-11 9-11 0-4 0-11 5-12 10-10 5-8 8-9 8-8 4-6 11-11 0-6 2-8 0-10 4-4 4-7 0-1 0-9 2-10 "
    "10-12 6-9 7-12 3-12 0-7 0-2 5-10 9-12 1-11 0-0 2-6 1-6 0-8 3-3 6-6 2-12 3-9 3-10 6-10 0-12 "
    "7-10 3-8 1-1 2-7 3-4 4-10 9-9 8-10 4-9 2-9 2-5 5-9 6-8 4-5 3-7 1-3 1-8 0-3 9-10 1-4 7-8 "
    "8-12 6-12 4-11 7-11 5-7 5-5 8-11 7-7 5-6 1-12 3-5 11-12 2-2 1-2 7-9 2-11 4-8 5-11 1-5 1-7 "
    "6-7 2-4 1-9 6-11 3-6 3-11 1-10 2-3 0-5";
static const uint64_t golden_state_after_seed1 = 92694865739326286ULL;
/* seed 1, round 2 (engine 11-11): the same generator, carried on */
static const char *const golden_deck_seed1_round2 =
    "7-10 9-11 0-7 6-11 3-9 9-12 4-8 0-4 6-7 6-6 6-8 1-9 1-11 6-10 0-11 5-9 4-10 2-2 8-12 1-8 "
    "1-4 7-8 4-7 5-11 3-12 1-10 7-11 3-6 5-8 0-0 9-10 2-8 4-11 1-2 4-5 8-9 3-3 2-12 3-4 2-11 "
    "0-8 8-11 2-3 10-10 2-4 6-12 0-3 9-9 3-11 0-6 1-7 1-12 3-7 0-5 7-9 5-6 4-6 7-7 10-12 10-11 "
    "3-8 12-12 0-2 8-10 11-12 0-12 2-7 6-9 1-5 4-9 0-10 4-4 3-10 2-6 2-5 8-8 5-12 1-1 1-6 2-10 "
    "5-7 3-5 0-1 2-9 5-5 7-12 1-3 4-12 0-9 5-10";

/* The deck as tiles, from its text. */
static void deck_of(const char *text, unsigned char deck[DEAL_DECK_SIZE])
{
    int n = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, " ");
        tile_t t = tile_parse(p, len);
        assert_int_not_equal(t, TILE_NONE);
        assert_true(n < DEAL_DECK_SIZE);
        deck[n++] = (unsigned char)t;
        p += len;
        while (*p == ' ') p++;
    }
    assert_int_equal(n, DEAL_DECK_SIZE);
}

/* The algorithm as mtref(1) documents it, written again from the text. */
static uint64_t ref_next(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t ref_below(uint64_t *s, uint64_t b)
{
    uint64_t t = (0 - b) % b;
    for (;;) {
        uint64_t x = ref_next(s);
        if (x >= t) return x % b;
    }
}

static void ref_shuffle(uint64_t *s, int engine, unsigned char deck[DEAL_DECK_SIZE])
{
    int n = 0;
    for (int a = 0; a <= 12; a++)
        for (int b = a; b <= 12; b++)
            if (!(a == engine && b == engine)) deck[n++] = (unsigned char)tile_from_pips(a, b);
    for (int i = 89; i >= 1; i--) {
        int j = (int)ref_below(s, (uint64_t)i + 1);
        unsigned char t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

static void rng_next_matches_the_splitmix64_reference(void **state)
{
    (void)state;
    uint64_t s = 1234567;
    for (int i = 0; i < 5; i++) assert_true(rng_next(&s) == reference_seed1234567[i]);
    assert_true(s == 1234567 + 5 * 0x9E3779B97F4A7C15ULL);
    s = 0;
    for (int i = 0; i < 5; i++) assert_true(rng_next(&s) == golden_random_seed0[i]);
    s = 1234;
    for (int i = 0; i < 5; i++) assert_true(rng_next(&s) == golden_random_seed1234[i]);
    /* and the independent rewrite agrees */
    uint64_t a = 99, b = 99;
    for (int i = 0; i < 1000; i++) assert_true(rng_next(&a) == ref_next(&b));
}

static void rng_uniform_rejects_below_2_64_mod_bound(void **state)
{
    (void)state;
    for (uint64_t bound = 1; bound <= 90; bound++) {
        uint64_t a = bound * 7919, b = a;
        for (int i = 0; i < 50; i++) {
            uint64_t x = rng_uniform(&a, bound);
            assert_true(x < bound);
            assert_true(x == ref_below(&b, bound));
            assert_true(a == b);
        }
    }
    /* a bound where rejection happens often: 2^63 + 1 rejects all x < 2^63 - 1 */
    uint64_t big = ((uint64_t)1 << 63) + 1, a = 5, b = 5;
    for (int i = 0; i < 20; i++) assert_true(rng_uniform(&a, big) == ref_below(&b, big));
    assert_true(a == b);
}

static void deal_shuffle_of_seed_1_is_frozen(void **state)
{
    (void)state;
    unsigned char expect[DEAL_DECK_SIZE], got[DEAL_DECK_SIZE], again[DEAL_DECK_SIZE];
    deck_of(golden_deck_seed1, expect);
    uint64_t s = 1;
    deal_shuffle(&s, 12, got);
    assert_memory_equal(got, expect, DEAL_DECK_SIZE);
    assert_true(s == golden_state_after_seed1);
    uint64_t r = 1;
    ref_shuffle(&r, 12, again);
    assert_memory_equal(again, expect, DEAL_DECK_SIZE);
    /* round 2 carries the generator on */
    deck_of(golden_deck_seed1_round2, expect);
    deal_shuffle(&s, 11, got);
    assert_memory_equal(got, expect, DEAL_DECK_SIZE);
}

static void deal_shuffle_is_a_permutation_without_the_engine(void **state)
{
    (void)state;
    for (int engine = 0; engine <= 12; engine++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            unsigned char got[DEAL_DECK_SIZE], ref[DEAL_DECK_SIZE];
            uint64_t s = seed * 1000003 + (uint64_t)engine, r = s;
            deal_shuffle(&s, engine, got);
            ref_shuffle(&r, engine, ref);
            assert_memory_equal(got, ref, DEAL_DECK_SIZE);
            assert_true(s == r);
            tileset seen = tileset_empty();
            for (int i = 0; i < DEAL_DECK_SIZE; i++) {
                assert_false(tileset_has(seen, got[i]));
                tileset_add(&seen, got[i]);
            }
            assert_false(tileset_has(seen, tile_double(engine)));
        }
}

/* ---- the seeded deal in a match [R5] ---- */

static void a_seeded_match_deals_the_deck_in_seat_order(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players 3\nseed 1");
    unsigned char deck[DEAL_DECK_SIZE];
    deck_of(golden_deck_seed1, deck);
    struct game snap;
    game_snapshot(&ref->game, &snap);
    for (int s = 0; s < 3; s++) {
        tileset hand = tileset_empty();
        for (int i = 0; i < 15; i++) tileset_add(&hand, deck[15 * s + i]);
        assert_true(tileset_equal(snap.hands[s], hand));
    }
    assert_int_equal(snap.boneyard_order_len, 45);
    assert_memory_equal(snap.boneyard_order, deck + 45, 45);
    tu_free(ref);
}

/* seed 17 gives p1 of two no 12: it draws first, and the boneyard starts at deck[30]. */
static const char *const deck_seed17 =
    "11-11 5-8 0-10 6-7 9-11 8-8 1-5 1-4 2-9 1-2 0-7 3-8 0-5 0-1 1-3 4-4 7-7 8-10 5-11 10-11 "
    "2-10 1-8 2-7 7-10 2-3 0-12 9-9 9-10 3-6 0-8 5-12 0-4 6-6 5-9 3-5 2-11 9-12 6-11 10-10 2-12 "
    "8-11 4-5 3-10 1-6 6-12 10-12 0-6 7-12 3-3 0-3 6-10 4-8 1-10 4-12 4-10 1-12 8-9 7-9 5-6 4-7 "
    "6-8 5-5 3-11 1-7 5-10 11-12 2-4 1-9 2-2 5-7 2-8 3-9 3-12 3-4 7-11 1-1 2-6 7-8 4-11 0-0 0-11 "
    "0-2 4-6 8-12 1-11 6-9 4-9 2-5 3-7 0-9";

static void R23_draw_mismatch_for_a_named_draw_that_is_not_the_next_tile(void **state)
{
    (void)state;
    unsigned char deck[DEAL_DECK_SIZE], check[DEAL_DECK_SIZE];
    deck_of(deck_seed17, deck);
    uint64_t s = 17;
    deal_shuffle(&s, 12, check);
    assert_memory_equal(deck, check, DEAL_DECK_SIZE);
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players 2\nseed 17");
    /* a rejected first move deals nothing for good */
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_NOT_YOUR_TURN);
    assert_true(ref->game.rng == 17);
    assert_true(game_setup_open(&ref->game));
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_DRAW);
    assert_true(ref->game.rng == 17);
    assert_int_equal(tu_line(ref, "p1 draw 0-4"), ERR_DRAW_MISMATCH);      /* deck[31], in the boneyard */
    assert_string_equal(tu_last()->rule, "R23");
    assert_int_equal(tu_line(ref, "p1 draw 11-11"), ERR_NOT_IN_BONEYARD);  /* p1's: before draw-mismatch */
    assert_int_equal(tu_line(ref, "p1 draw 4-4"), ERR_NOT_IN_BONEYARD);    /* p2's */
    assert_int_equal(tu_line(ref, "p1 draw 12-12"), ERR_NOT_IN_BONEYARD);
    assert_int_equal(tu_line(ref, "p1 draw 12-5"), ERR_NONE);              /* deck[30] */
    assert_int_equal(tu_last()->drew, tile_from_pips(5, 12));
    assert_int_equal(tu_line(ref, "p1 draw 0-4"), ERR_MUST_PLAY);          /* 5-12 fits */
    assert_int_equal(tu_line(ref, "p1 play 5-12 p1"), ERR_NONE);
    tu_free(ref);
}

static void a_bare_draw_takes_the_next_tile(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players 2\nseed 17");
    assert_int_equal(tu_line(ref, "p1 draw"), ERR_NONE);
    assert_int_equal(tu_last()->drew, tile_from_pips(5, 12));
    char *out = NULL;
    int status = tu_run("players 2\nseed 17\np1 draw\n", true, false, NULL, 0, &out);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "{\"line\":3,\"ok\":true,\"drew\":\"5-12\"}"));
    free(out);
    tu_free(ref);
}

/* Round 2 of a seeded match is dealt from the generator carried on from round 1, and
 * draws in round 1 do not touch it. */
static void round_2_of_a_seeded_match_carries_the_generator_on(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players 2\nseed 1\nrounds 7");
    for (int steps = 0; ref->game.round == 1 && steps < 10000; steps++) {
        struct game snap;
        game_snapshot(&ref->game, &snap);
        struct move m[GAME_MAX_LEGAL];
        assert_true(game_legal_moves(&snap, m, GAME_MAX_LEGAL) > 0);
        char line[OUTPUT_MOVE_SIZE];
        output_format_move(&snap, &m[0], line);
        assert_int_equal(tu_line(ref, line), ERR_NONE);
    }
    assert_int_equal(ref->game.round, 2);
    unsigned char deck[DEAL_DECK_SIZE];
    deck_of(golden_deck_seed1_round2, deck);
    struct game snap;
    game_snapshot(&ref->game, &snap);
    /* p2 opens round 2, but the deal still starts at seat 0 */
    for (int s = 0; s < 2; s++) {
        tileset hand = tileset_empty();
        for (int i = 0; i < 15; i++) tileset_add(&hand, deck[15 * s + i]);
        assert_true(tileset_equal(snap.hands[s], hand));
    }
    assert_int_equal(snap.turn, 1);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_next_matches_the_splitmix64_reference),
        cmocka_unit_test(rng_uniform_rejects_below_2_64_mod_bound),
        cmocka_unit_test(deal_shuffle_of_seed_1_is_frozen),
        cmocka_unit_test(deal_shuffle_is_a_permutation_without_the_engine),
        cmocka_unit_test(a_seeded_match_deals_the_deck_in_seat_order),
        cmocka_unit_test(R23_draw_mismatch_for_a_named_draw_that_is_not_the_next_tile),
        cmocka_unit_test(a_bare_draw_takes_the_next_tile),
        cmocka_unit_test(round_2_of_a_seeded_match_carries_the_generator_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
