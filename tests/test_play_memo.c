/* The answer memo of may_play (src/lua/luamemo.c): a hook that reads only scalar
 * fields of the play and the view is asked once per set of values it read; what the
 * referee answers is the same as when every play is asked; a hook that is not a
 * function of what it read turns the memo off; an answer from the memo still costs
 * the match's budget what the call cost. */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selfplay.h"

static char paths[2][64];

static const char *temp_rules(int slot, const char *source)
{
    strcpy(paths[slot], "/tmp/mtref-memo-XXXXXX.lua");
    int fd = mkstemps(paths[slot], 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(source, f);
    assert_int_equal(fclose(f), 0);
    return paths[slot];
}

/* Self-played canonical matches: a record the hooks below judge (malloc'd). */
static char *canonical_games(int games, unsigned long seed)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.games = games;
    o.seed = seed;
    char *text, err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, NULL, 0, &text, NULL, err), 0);
    return text;
}

/* The body of a rule: no double in a first turn, no 5 on the Mexican train while a
 * double is open, and a reason naming the pips. */
#define RULE_BODY                                                                          \
    "    if m.first_turn and m.low == m.high then return false, 'no double ' .. m.low end\n" \
    "    if m.train == 'mex' and m.double_open and (m.low == 5 or m.high == 5) then\n"    \
    "      return false, 'no five on mex while ' .. v.boneyard .. ' are left'\n"            \
    "    end\n"                                                                          \
    "    return true\n"

/* The same rule remembered and asked every time (reading the tile keeps a call out of
 * the memo): the referee's verdicts are the same, byte for byte. */
static void a_remembered_answer_is_the_answer_of_a_call(void **state)
{
    (void)state;
    char *record = canonical_games(40, 7);
    const char *memo[] = {temp_rules(0, "return { may_play = function(m, v)\n" RULE_BODY "  end }\n")};
    const char *asked[] = {temp_rules(1, "return { may_play = function(m, v)\n    local _ = m.tile\n" RULE_BODY
                                         "  end }\n")};
    char *with_memo = NULL, *without = NULL;
    int a = tu_run(record, true, true, memo, 1, &with_memo);
    int b = tu_run(record, true, true, asked, 1, &without);
    assert_int_equal(a, b);
    /* messages name the file: the two names (of one length) made one */
    char name[2][64];
    for (int i = 0; i < 2; i++) {
        snprintf(name[i], sizeof name[i], "%s", strrchr(paths[i], '/') + 1);
        *strrchr(name[i], '.') = '\0';
    }
    for (char *at = without; (at = strstr(at, name[1])) != NULL; at += strlen(name[1]))
        memcpy(at, name[0], strlen(name[0]));
    assert_string_equal(with_memo, without);
    /* and the rule refused plays, and the legal moves listed after each refusal were
     * filtered by it: the comparison saw answers of both kinds */
    int refused = 0;
    for (const char *at = with_memo; (at = strstr(at, "\"error\":\"house-rule\"")) != NULL; at++) refused++;
    assert_true(refused >= 3);
    free(with_memo);
    free(without);
    free(record);
    unlink(paths[0]);
    unlink(paths[1]);
}

/* A hook that reads first_turn, low and high has at most 1 + 13 * 13 answers in a
 * match: a whole match of plays asks it a few hundred times at most. */
static void a_hook_is_asked_once_per_set_of_values_it_read(void **state)
{
    (void)state;
    char *record = canonical_games(3, 11);
    const char *files[] = {temp_rules(0, "local calls = 0\n"
                                         "return { may_play = function(m)\n"
                                         "    calls = calls + 1\n"
                                         "    if calls > 200 then error('asked again about a play it answered') end\n"
                                         "    return not (m.first_turn and m.low == m.high)\n"
                                         "  end }\n")};
    char *out = NULL;
    int status = tu_run(record, true, true, files, 1, &out);
    if (strstr(out, "asked again")) fail_msg("the memo did not answer: %.300s", strstr(out, "asked again"));
    assert_true(status == 0 || status == 1);
    assert_non_null(strstr(out, "\"event\":\"match_end\""));
    free(out);
    free(record);
    unlink(paths[0]);
}

/* A hook that reads low on one call and high on the next is no function of its
 * reads: the memo turns off and every play is asked (so its 300th call happens). */
static void a_hook_that_reads_differently_turns_the_memo_off(void **state)
{
    (void)state;
    char *record = canonical_games(3, 11);
    const char *files[] = {temp_rules(0, "local calls = 0\n"
                                         "return { may_play = function(m)\n"
                                         "    calls = calls + 1\n"
                                         "    if calls == 300 then error('the 300th call') end\n"
                                         "    local _ = calls % 2 == 0 and m.low or m.high\n"
                                         "    return true\n"
                                         "  end }\n")};
    char *out = NULL;
    tu_run(record, true, true, files, 1, &out);
    assert_non_null(strstr(out, "the 300th call"));
    free(out);
    free(record);
    unlink(paths[0]);
}

/* A slow pure hook: answered from the memo, each play still costs the match's budget
 * the call's instructions, so self-play meets the budget as if it were called. */
static void a_remembered_answer_costs_the_match_budget(void **state)
{
    (void)state;
    const char *files[] = {temp_rules(0, "return { may_play = function(m)\n"
                                         "    for i = 1, 400000 do end\n"
                                         "    return true\n"
                                         "  end }\n")};
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 4;
    char *text, err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, files, 1, &text, NULL, err), 2);
    if (!strstr(err, "match's hook budget")) fail_msg("expected the match's budget: %s", err);
    /* the error names the line the budget ran out on: the hook was really called */
    assert_non_null(strstr(err, ":2: "));
    free(text);
    unlink(paths[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_remembered_answer_is_the_answer_of_a_call),
        cmocka_unit_test(a_hook_is_asked_once_per_set_of_values_it_read),
        cmocka_unit_test(a_hook_that_reads_differently_turns_the_memo_off),
        cmocka_unit_test(a_remembered_answer_costs_the_match_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
