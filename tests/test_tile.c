/* [R1] the double-twelve set: 91 tiles, indexing, parsing, pip sets; and the sets a
 * house rule may choose, double-six to double-fifteen. */
#include "testutil.h"

#include <string.h>

#include "seat.h"
#include "tile.h"

static void R1_set_has_91_distinct_tiles(void **state)
{
    (void)state;
    tileset all = tileset_empty();
    for (int a = 0; a <= 12; a++)
        for (int b = a; b <= 12; b++) {
            tile_t t = tile_from_pips(a, b);
            assert_false(tileset_has(all, t));
            tileset_add(&all, t);
            assert_int_equal(tile_low(t), a);
            assert_int_equal(tile_high(t), b);
            assert_int_equal(tile_from_pips(b, a), t);
        }
    assert_int_equal(tileset_count(all), TILE_CANONICAL_COUNT);
    assert_true(tileset_equal(all, tileset_all()));
    /* the frozen ids: 0-0 is 0, 0-12 is 12, 1-1 13, 12-12 90, in (low, high) order */
    assert_int_equal(tile_from_pips(0, 0), 0);
    assert_int_equal(tile_from_pips(0, 12), 12);
    assert_int_equal(tile_from_pips(1, 1), 13);
    assert_int_equal(tile_from_pips(11, 12), 89);
    assert_int_equal(tile_from_pips(12, 12), 90);
    for (tile_t t = 1; t < TILE_CANONICAL_COUNT; t++)
        assert_true(tile_low(t - 1) < tile_low(t) || (tile_low(t - 1) == tile_low(t) && tile_high(t - 1) < tile_high(t)));
}

/* Tiles with a pip above 12 come after the 91, by high pip then low: 0-13 is 91, 15-15 135. */
static void R1_larger_sets_give_their_tiles_ids_after_double_twelve(void **state)
{
    (void)state;
    tileset all = tileset_empty();
    for (int a = 0; a <= TILE_MAX_PIP; a++)
        for (int b = a; b <= TILE_MAX_PIP; b++) {
            tile_t t = tile_from_pips(a, b);
            assert_true(TILE_VALID(t));
            assert_false(tileset_has(all, t));
            tileset_add(&all, t);
            assert_int_equal(tile_low(t), a);
            assert_int_equal(tile_high(t), b);
            assert_int_equal(tile_from_pips(b, a), t);
            assert_int_equal(tile_is_double(t), a == b);
            if (b > 12) assert_true(t >= TILE_CANONICAL_COUNT);
        }
    assert_int_equal(tileset_count(all), TILE_COUNT);
    assert_int_equal(tile_from_pips(0, 13), 91);
    assert_int_equal(tile_from_pips(13, 13), 104);
    assert_int_equal(tile_from_pips(0, 14), 105);
    assert_int_equal(tile_from_pips(15, 15), 135);
    char buf[TILE_TEXT_SIZE];
    tile_format(tile_from_pips(15, 14), buf);
    assert_string_equal(buf, "14-15");
    assert_int_equal(tile_parse("15-15", 5), tile_from_pips(15, 15));
    assert_int_equal(tile_parse("16-1", 4), TILE_NONE);
}

/* Each set double-N: (N+1)(N+2)/2 tiles, both pips 0..N, listed 0-0, 0-1, ... N-N. */
static void R1_every_set_from_double_six_to_double_fifteen(void **state)
{
    (void)state;
    static const int sizes[] = {28, 36, 45, 55, 66, 78, 91, 105, 120, 136};
    for (int n = TILE_MIN_SET_PIP; n <= TILE_MAX_PIP; n++) {
        tileset set = tileset_of_set(n);
        assert_int_equal(tileset_count(set), sizes[n - TILE_MIN_SET_PIP]);
        assert_int_equal(tile_set_size(n), sizes[n - TILE_MIN_SET_PIP]);
        for (tile_t t = 0; t < TILE_COUNT; t++) assert_int_equal(tileset_has(set, t), tile_high(t) <= n);
        unsigned char order[TILE_COUNT];
        int k = tile_set_order(n, order);
        assert_int_equal(k, sizes[n - TILE_MIN_SET_PIP]);
        for (int i = 0; i < k; i++) {
            assert_true(tileset_has(set, order[i]));
            if (i > 0) {
                int a0 = tile_low(order[i - 1]), b0 = tile_high(order[i - 1]), a = tile_low(order[i]), b = tile_high(order[i]);
                assert_true(a0 < a || (a0 == a && b0 < b));
            }
        }
    }
    assert_true(tileset_equal(tileset_of_set(12), tileset_all()));
    unsigned char order[TILE_COUNT];
    tile_set_order(12, order);
    for (int i = 0; i < TILE_CANONICAL_COUNT; i++) assert_int_equal(order[i], i);   /* today's deck order */
    assert_string_equal(tile_set_name(9), "double-nine");
    assert_string_equal(tile_set_name(15), "double-fifteen");
}

/* The three words of a set: adding, removing, counting and popping reach tile 135. */
static void tilesets_hold_all_136_tiles(void **state)
{
    (void)state;
    tileset s = tileset_empty();
    tileset_add(&s, 135);
    tileset_add(&s, 128);
    tileset_add(&s, 127);
    tileset_add(&s, 3);
    assert_int_equal(tileset_count(s), 4);
    assert_false(tileset_at_most_one(s));
    assert_int_equal(tileset_first(s), 3);
    assert_int_equal(tileset_pop(&s), 3);
    assert_int_equal(tileset_pop(&s), 127);
    assert_int_equal(tileset_pop(&s), 128);
    assert_true(tileset_at_most_one(s));
    assert_true(tileset_has(s, 135));
    tileset_remove(&s, 135);
    assert_true(tileset_is_empty(s));
    tileset one = tileset_empty();
    tileset_add(&one, 130);
    assert_true(tileset_at_most_one(one));
    tileset_add(&one, 5);
    assert_false(tileset_at_most_one(one));
}

static void R1_pip_sets_match_the_tiles(void **state)
{
    (void)state;
    for (int p = 0; p <= TILE_MAX_PIP; p++) {
        tileset expect = tileset_empty();
        for (tile_t t = 0; t < TILE_COUNT; t++)
            if (tile_low(t) == p || tile_high(t) == p) tileset_add(&expect, t);
        assert_true(tileset_equal(expect, tileset_with_pip(p)));
        assert_int_equal(tileset_count(expect), 16);
        /* within double-twelve, each pip shows on 13 tiles */
        if (p <= 12) assert_int_equal(tileset_count(tileset_and(expect, tileset_all())), 13);
    }
}

static void R1_tiles_parse_in_either_order_with_leading_zeros(void **state)
{
    (void)state;
    assert_int_equal(tile_parse("5-12", 4), tile_parse("12-5", 4));
    assert_int_equal(tile_parse("05-012", 6), tile_from_pips(5, 12));
    assert_int_equal(tile_parse("13-1", 4), tile_from_pips(1, 13));   /* the set in force decides */
    assert_int_equal(tile_parse("1-", 2), TILE_NONE);
    assert_int_equal(tile_parse("-1", 2), TILE_NONE);
    assert_int_equal(tile_parse("1-2-3", 5), TILE_NONE);
    assert_int_equal(tile_parse("99999999999999999999-1", 22), TILE_NONE);
    char buf[TILE_TEXT_SIZE];
    tile_format(tile_from_pips(12, 5), buf);
    assert_string_equal(buf, "5-12");
}

/* tileset_count and tile_popcount count without the popcount instruction: against a
 * count bit by bit, on sets of every size and random words (all bits set included). */
static void tilesets_count_their_tiles_bit_by_bit(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ULL;
    for (int k = 0; k < 20000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t w[3] = {x, x * 0x9E3779B97F4A7C15ULL, (x >> 3) & 0xFF};
        if (k % 7 == 0) w[k % 3] = ~0ULL;
        if (k % 11 == 0) w[(k + 1) % 3] = 0;
        tileset s = {{w[0], w[1], w[2]}};
        int want = 0;
        for (int i = 0; i < 3; i++)
            for (int b = 0; b < 64; b++) want += (int)(w[i] >> b & 1);
        assert_int_equal(tileset_count(s), want);
        int first = 0;
        for (int b = 0; b < 64; b++) first += (int)(w[0] >> b & 1);
        assert_int_equal(tile_popcount(w[0]), first);
    }
    tileset all = {{~0ULL, ~0ULL, 0xFF}};
    assert_int_equal(tileset_count(all), TILE_COUNT);
}

/* A seat's bool flags gathered into bits (game_seat_flags): every pattern of the 16 seats. */
static void seat_flags_become_one_bit_a_seat(void **state)
{
    (void)state;
    for (uint32_t pattern = 0; pattern < 1u << RULES_MAX_PLAYERS; pattern++) {
        bool flags[RULES_MAX_PLAYERS];
        for (int s = 0; s < RULES_MAX_PLAYERS; s++) flags[s] = pattern >> s & 1;
        assert_int_equal(game_seat_flags(flags), pattern);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R1_set_has_91_distinct_tiles),
        cmocka_unit_test(R1_pip_sets_match_the_tiles),
        cmocka_unit_test(R1_tiles_parse_in_either_order_with_leading_zeros),
        cmocka_unit_test(R1_larger_sets_give_their_tiles_ids_after_double_twelve),
        cmocka_unit_test(R1_every_set_from_double_six_to_double_fifteen),
        cmocka_unit_test(tilesets_hold_all_136_tiles),
        cmocka_unit_test(tilesets_count_their_tiles_bit_by_bit),
        cmocka_unit_test(seat_flags_become_one_bit_a_seat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
