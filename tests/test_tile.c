/* [R1] the double-twelve set: 91 tiles, indexing, parsing, pip sets. */
#include "testutil.h"

#include <string.h>

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
    assert_int_equal(tileset_count(all), TILE_COUNT);
    assert_true(tileset_equal(all, tileset_all()));
}

static void R1_pip_sets_match_the_tiles(void **state)
{
    (void)state;
    for (int p = 0; p <= 12; p++) {
        tileset expect = tileset_empty();
        for (tile_t t = 0; t < TILE_COUNT; t++)
            if (tile_low(t) == p || tile_high(t) == p) tileset_add(&expect, t);
        assert_true(tileset_equal(expect, tileset_with_pip(p)));
        assert_int_equal(tileset_count(expect), 13);
    }
}

static void R1_tiles_parse_in_either_order_with_leading_zeros(void **state)
{
    (void)state;
    assert_int_equal(tile_parse("5-12", 4), tile_parse("12-5", 4));
    assert_int_equal(tile_parse("05-012", 6), tile_from_pips(5, 12));
    assert_int_equal(tile_parse("13-1", 4), TILE_NONE);
    assert_int_equal(tile_parse("1-", 2), TILE_NONE);
    assert_int_equal(tile_parse("-1", 2), TILE_NONE);
    assert_int_equal(tile_parse("1-2-3", 5), TILE_NONE);
    assert_int_equal(tile_parse("99999999999999999999-1", 22), TILE_NONE);
    char buf[TILE_TEXT_SIZE];
    tile_format(tile_from_pips(12, 5), buf);
    assert_string_equal(buf, "5-12");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R1_set_has_91_distinct_tiles),
        cmocka_unit_test(R1_pip_sets_match_the_tiles),
        cmocka_unit_test(R1_tiles_parse_in_either_order_with_leading_zeros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
