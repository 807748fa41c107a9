/* mtref compare: golden figures on a fixed seed, what the tally counts, the intervals. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "luarules.h"
#include "runbin.h"

/* The whole table for 20 three-player matches of 7 rounds on seed 7, byte for byte. */
static void test_golden_figures(void **state)
{
    (void)state;
    const char *args[] = {"compare", "--rules", "canonical", "--rules", "double-blank-50", "--games", "20",
                          "--seed", "7", "--players", "3", "--rounds", "7", NULL};
    char *out;
    assert_int_equal(rb_run(args, &out, NULL), 0);
    char *want = tu_read_test_file("compare/double-blank-50.expected", NULL);
    assert_non_null(want);
    assert_string_equal(out, want);
    free(out);
    free(want);
}

static void tally(const char *const files[], int n, struct compare_tally *t)
{
    struct luarules *lua = luarules_new();
    struct rules_loader loader = luarules_loader(lua);
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.games = 6;
    o.players = 3;
    o.rounds = 7;
    o.seed = 11;
    char err[RULES_MESSAGE_SIZE] = "";
    if (compare_tally_run(&o, &loader, files, n, t, err) != 0) fail_msg("%s", err);
    luarules_free(lua);
}

/* [R3][R21] every match has its 7 rounds, every player a total; [R14] some doubles are
 * played and some left for the next player; the shares lie in their intervals. */
static void test_tally_counts_what_the_referee_saw(void **state)
{
    (void)state;
    struct compare_tally t;
    tally(NULL, 0, &t);
    assert_int_equal(t.matches, 6);
    assert_int_equal(t.rounds, 42);
    assert_int_equal(t.totals, 18);
    assert_true(t.moves > 42 * 20);
    assert_true(t.doubles > 0 && t.doubles_left > 0 && t.doubles_left < t.doubles);
    assert_true(t.blocked >= 0 && t.blocked <= t.rounds);
    for (int row = 0; row < COMPARE_ROWS; row++) {
        struct compare_figure f = compare_figure_of(&t, (enum compare_row)row);
        assert_true(f.low <= f.value && f.value <= f.high);
        if (compare_row_is_share((enum compare_row)row)) assert_true(f.low >= 0 && f.high <= 1);
    }
    /* the same rules on both sides: no difference at all */
    for (int row = 0; row < COMPARE_ROWS; row++)
        assert_true(compare_difference(&t, &t, (enum compare_row)row).value == 0);
    /* elimination-100 ends matches on totals: fewer or more rounds, lower totals */
    const char *elimination[] = {"elimination-100"};
    struct compare_tally e;
    tally(elimination, 1, &e);
    assert_int_equal(e.matches, 6);
    assert_true(compare_figure_of(&e, COMPARE_MEAN_TOTAL).value < compare_figure_of(&t, COMPARE_MEAN_TOTAL).value);
}

/* Wilson's interval for 5 of 10: [0.2366, 0.7634]; for 0 of 10 it starts at 0. */
static void test_wilson_interval(void **state)
{
    (void)state;
    struct compare_tally t;
    memset(&t, 0, sizeof t);
    t.rounds = 10;
    t.blocked = 5;
    struct compare_figure f = compare_figure_of(&t, COMPARE_BLOCKED);
    assert_true(fabs(f.value - 0.5) < 1e-12);
    assert_true(fabs(f.low - 0.236593) < 1e-5);
    assert_true(fabs(f.high - 0.763407) < 1e-5);
    t.blocked = 0;
    f = compare_figure_of(&t, COMPARE_BLOCKED);
    assert_true(f.low == 0 && f.high > 0.25 && f.high < 0.31);
}

static void test_usage(void **state)
{
    (void)state;
    const char *none[] = {"compare", NULL};
    const char *three[] = {"compare", "--rules", "a", "--rules", "b", "--rules", "c", NULL};
    const char *file[] = {"compare", "--rules", "double-blank-50", "game.mtr", NULL};
    const char *bad[] = {"compare", "--rules", "no-such-rules", "--games", "1", NULL};
    const char *const *cases[] = {none, three, file, bad};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        assert_int_equal(rb_run(cases[i], &out, &err), 2);
        assert_true(strlen(err) > 0);
        free(out);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_figures),
        cmocka_unit_test(test_tally_counts_what_the_referee_saw),
        cmocka_unit_test(test_wilson_interval),
        cmocka_unit_test(test_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
