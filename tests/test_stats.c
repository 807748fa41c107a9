/* Statistics of journals (stats.h) on small journals computed by hand. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "stats.h"

#define PLAN "{\"event\":\"run\",\"version\":1,\"first_deal\":0,\"deals\":2,\"plan\":{\"seed\":\"0x1\",\"scoring\":\"penalty\"}}"
#define MATCH(key, deal, b0, b1, t0, t1, r0, r1, faults)                                                          \
    "{\"event\":\"match\",\"key\":\"" key "\",\"deal\":" #deal ",\"status\":\"ended\",\"players\":[\"x\",\"y\"],"  \
    "\"bots\":[\"" b0 "\",\"" b1 "\"],\"totals\":{\"x\":" #t0 ",\"y\":" #t1 "},\"adjudicated\":{\"x\":" #t0        \
    ",\"y\":" #t1 "},\"ranks\":{\"x\":" #r0 ",\"y\":" #r1 "},\"faults\":[" faults "]}"

/* Two deals, each in both seatings:
 *   deal 0: A 10 B 30 | B 20 A 40     datum seat 0 = 15, seat 1 = 35: margins A 0, B 0
 *   deal 1: A 0 B 50 | B 30 A 20      datum seat 0 = 15, seat 1 = 35: margins A -15, B +15
 * Matchpoints, each hand against its other holder: deal 0 A beats B with seat 0's
 * hand and loses with seat 1's (A 1/2, B 1/2); deal 1 A beats B with both (A 1, B 0). */
static const char *const lines[] = {
    PLAN,
    MATCH("d0s0", 0, "A", "B", 10, 30, 1, 2, ""),
    MATCH("d0s1", 0, "B", "A", 20, 40, 1, 2, ""),
    MATCH("d1s0", 1, "A", "B", 0, 50, 1, 2, ""),
    MATCH("d1s1", 1, "B", "A", 30, 20, 2, 1, "{\"seat\":\"x\",\"bot\":\"B\",\"kind\":\"timeout\"}"),
};

static struct stats *load(int from, int to)
{
    struct stats *st = stats_new();
    char err[200];
    for (int i = from; i < to; i++)
        if (!stats_add_line(st, lines[i], strlen(lines[i]), err, sizeof err)) fail_msg("line %d: %s", i, err);
    return st;
}

static void duplicate_margin_is_over_deals(void **state)
{
    (void)state;
    struct stats *st = load(0, 5);
    assert_int_equal(stats_nbots(st), 2);
    struct stats_bot a, b;
    assert_true(stats_bot(st, 0, &a));
    assert_true(stats_bot(st, 1, &b));
    assert_string_equal(a.name, "A");
    assert_int_equal(a.matches, 4);
    assert_int_equal(a.deals, 2);
    assert_float_equal(a.margin, -7.5, 1e-9);                /* mean of 0 and -15 */
    assert_float_equal(a.margin_ci, 12.706 * sqrt(112.5) / sqrt(2.0), 1e-6);
    assert_float_equal(b.margin, 7.5, 1e-9);
    assert_float_equal(a.mp, 75.0, 1e-9);                    /* mean of 50% and 100% */
    assert_float_equal(a.mp_ci, 12.706 * sqrt(1250.0) / sqrt(2.0), 1e-6);
    assert_float_equal(b.mp, 25.0, 1e-9);
    assert_float_equal(a.win_share, 0.75, 1e-9);
    assert_float_equal(a.placement, 1.25, 1e-9);
    assert_float_equal(a.total, 17.5, 1e-9);                 /* 10 40 0 20 */
    assert_float_equal(b.total, 32.5, 1e-9);
    assert_int_equal(b.faults[2], 1);                        /* timeout */
    assert_int_equal(a.faults[2], 0);
    double diff, ci, beat;
    long deals;
    assert_true(stats_pair(st, 0, 1, &diff, &ci, &beat, &deals));
    assert_int_equal(deals, 2);
    assert_float_equal(diff, 15.0, 1e-9);                    /* deal 0: (20-20)/2, deal 1: (50+10)/2 */
    assert_float_equal(ci, 12.706 * sqrt(450.0) / sqrt(2.0), 1e-6);
    assert_float_equal(beat, 0.75, 1e-9);
    stats_free(st);
}

/* A forfeit loses every comparison, even with the better total; a tie is half. */
static void matchpoints_forfeit_loses_tie_halves(void **state)
{
    (void)state;
    static const char *const mp_lines[] = {
        PLAN,
        MATCH("d0s0", 0, "A", "B", 5, 30, 1, 2, "{\"seat\":\"x\",\"bot\":\"A\",\"kind\":\"crash\"}"),
        MATCH("d0s1", 0, "B", "A", 20, 30, 1, 2, ""),
        MATCH("d1s0", 1, "A", "B", 10, 10, 1, 1, ""),
        MATCH("d1s1", 1, "B", "A", 10, 10, 1, 1, ""),
    };
    struct stats *st = stats_new();
    char err[200];
    for (int i = 0; i < 5; i++) assert_true(stats_add_line(st, mp_lines[i], strlen(mp_lines[i]), err, sizeof err));
    struct stats_bot a, b;
    assert_true(stats_bot(st, 0, &a));
    assert_true(stats_bot(st, 1, &b));
    /* deal 0: seat 0's hand A 5 (forfeited) against B 20: A 0; seat 1's B 30 against A 30: 1/2
     * each; A (0 + 1/2) / 2 = 25%, B (1 + 1/2) / 2 = 75%; deal 1: ties, 50% each */
    assert_float_equal(a.mp, (25.0 + 50.0) / 2, 1e-9);
    assert_float_equal(b.mp, (75.0 + 50.0) / 2, 1e-9);
    stats_free(st);
}

static void shards_merge_and_count_each_match_once(void **state)
{
    (void)state;
    struct stats *st = load(0, 3);
    char err[200];
    for (int i = 0; i < 5; i++)      /* the other shard, its run line and a repeated match included */
        assert_true(stats_add_line(st, lines[i], strlen(lines[i]), err, sizeof err));
    struct stats_bot a;
    assert_true(stats_bot(st, 0, &a));
    assert_int_equal(a.matches, 4);
    assert_float_equal(a.margin, -7.5, 1e-9);
    const char *other = "{\"event\":\"run\",\"plan\":{\"seed\":\"0x2\"}}";
    assert_false(stats_add_line(st, other, strlen(other), err, sizeof err));
    assert_non_null(strstr(err, "different plans"));
    stats_free(st);
}

static void malformed_lines_are_refused(void **state)
{
    (void)state;
    struct stats *st = stats_new();
    char err[200];
    const char *bad[] = {"{", "[1,2]", "{\"event\":\"match\"}", "{\"event\":\"match\",\"key\":\"k\",\"deal\":0,"
                         "\"status\":\"ended\",\"players\":[\"x\",\"y\"],\"bots\":[\"\\u001b[31m\",\"B\"]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(stats_add_line(st, bad[i], strlen(bad[i]), err, sizeof err));
    stats_free(st);
}

static void t_quantiles(void **state)
{
    (void)state;
    assert_float_equal(stats_t975(1), 12.706, 1e-9);
    assert_float_equal(stats_t975(30), 2.042, 1e-9);
    assert_float_equal(stats_t975(60), 2.0003, 1e-3);
    assert_float_equal(stats_t975(100000), 1.96, 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duplicate_margin_is_over_deals),
        cmocka_unit_test(matchpoints_forfeit_loses_tie_halves),
        cmocka_unit_test(shards_merge_and_count_each_match_once),
        cmocka_unit_test(malformed_lines_are_refused),
        cmocka_unit_test(t_quantiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
