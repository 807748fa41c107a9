/* mtref diff: a record under two rule sets. A verdict that differs at a known line
 * (first-turn-own-train), results that differ with the same verdicts
 * (double-blank-50), no difference, rule lists, trouble. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runbin.h"

static int diff(const char *record, const char *a, const char *b, bool json, char **out, char **err)
{
    char path[4096];
    rb_test_path(record, path, sizeof path);
    const char *args[10];
    int n = 0;
    args[n++] = "diff";
    if (a) { args[n++] = "--rules"; args[n++] = a; }
    if (b) { args[n++] = "--rules"; args[n++] = b; }
    if (json) args[n++] = "--json";
    args[n++] = path;
    args[n] = NULL;
    return rb_run(args, out, err);
}

/* [R7] under first-turn-own-train p1's opening play on mex is a house-rule error at
 * line 8; canonically it is accepted. Both verdicts, both tables. */
static void test_first_turn_own_train_differs_at_line_8(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(diff("diff/first-turn-on-mex.mtr", "canonical", "first-turn-own-train", false, &out, NULL), 1);
    assert_non_null(strstr(out, "A: canonical\nB: first-turn-own-train\nline 8: the verdicts differ\n"));
    const char *a = strstr(out, "== A (canonical)\nline 8: p1 play 5-12 mex\nok\n");
    const char *b = strstr(out, "== B (first-turn-own-train)\nline 8: p1 play 5-12 mex\nerror line 8: house-rule: ");
    assert_non_null(a);
    assert_non_null(b);
    /* each side's table: the play lies on mex in A, still in p1's hand in B */
    assert_non_null(strstr(a, "train mex              open  5        | 12-5"));
    assert_non_null(strstr(b, "train mex              open 12        |\n"));
    assert_null(strstr(out, "the results differ"));
    free(out);

    assert_int_equal(diff("diff/first-turn-on-mex.mtr", NULL, "first-turn-own-train", true, &out, NULL), 1);
    assert_non_null(strstr(out, "{\"a\":[],\"b\":[\"first-turn-own-train\"],\"results\":[],\"verdicts\":{\"line\":8,"
                                "\"a\":[{\"line\":8,\"ok\":true},{\"line\":8,\"ok\":true,\"show\":{"));
    assert_non_null(strstr(out, "\"b\":[{\"line\":8,\"ok\":false,\"error\":\"house-rule\","));
    assert_non_null(strstr(out, "\"differ\":true}\n"));
    free(out);
}

/* [R21] double-blank-50 changes no verdict, only the score: p1 is left with 0-0 when
 * the round ends at line 67, 7 points canonically, 57 with the house rule. */
static void test_double_blank_50_changes_scores_only(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(diff("diff/zero-zero-left.mtr", "canonical", "double-blank-50", false, &out, NULL), 1);
    assert_non_null(strstr(out, "line 67: the results differ\n"
                                "  A: round 1 out; points p1 7, p2 0; totals p1 7, p2 0; match over, p2 wins\n"
                                "  B: round 1 out; points p1 57, p2 0; totals p1 57, p2 0; match over, p2 wins\n"
                                "every line has the same verdict under both (66 lines answered)\n"
                                "the match has the same winners: p2\n"));
    assert_null(strstr(out, "verdicts differ"));
    free(out);
    assert_int_equal(diff("diff/zero-zero-left.mtr", "double-blank-50", NULL, true, &out, NULL), 1);
    assert_non_null(strstr(out, "\"results\":[{\"line\":67,\"a\":{\"round\":1,\"reason\":\"out\",\"points\":{\"p1\":7,"));
    assert_non_null(strstr(out, "\"b\":{\"round\":1,\"reason\":\"out\",\"points\":{\"p1\":57,\"p2\":0},"));
    assert_non_null(strstr(out, "\"verdicts\":null,\"same_winners\":true,\"lines\":66,\"differ\":true}"));
    free(out);
}

/* The same verdicts and results: exit 0. A rule that changes nothing in this record
 * (first-turn-own-train: greedy opened on its own train) counts as no difference. */
static void test_no_difference(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(diff("diff/zero-zero-left.mtr", "canonical", "first-turn-own-train", false, &out, NULL), 0);
    assert_non_null(strstr(out, "and the same round and match results\n"));
    free(out);
    /* several files on one side, separated by commas */
    assert_int_equal(diff("diff/zero-zero-left.mtr", "first-turn-own-train,double-blank-50", "double-blank-50",
                          true, &out, NULL), 0);
    assert_non_null(strstr(out, "{\"a\":[\"first-turn-own-train\",\"double-blank-50\"],\"b\":[\"double-blank-50\"],"
                                "\"results\":[],\"verdicts\":null"));
    free(out);
}

static void test_trouble(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(diff("diff/zero-zero-left.mtr", "canonical", "no-such-rules", false, &out, &err), 2);
    assert_non_null(strstr(err, "side B"));
    free(out);
    free(err);
    assert_int_equal(diff("diff/zero-zero-left.mtr", "a,,b", NULL, false, &out, &err), 2);
    free(out);
    free(err);
    assert_int_equal(diff("diff/zero-zero-left.mtr", NULL, NULL, false, &out, &err), 2);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_turn_own_train_differs_at_line_8),
        cmocka_unit_test(test_double_blank_50_changes_scores_only),
        cmocka_unit_test(test_no_difference),
        cmocka_unit_test(test_trouble),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
