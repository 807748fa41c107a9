/* The sandbox's instruction budget, counted rather than timed: a Lua loop whose
 * instructions are known runs to its end below SANDBOX_INSTRUCTIONS and is stopped
 * above it, at load time and in a hook. Below the budget stays well inside the
 * sandbox's wall-clock deadline too (a fraction of a second of Lua), so a loaded
 * machine does not change the outcome. */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "luasandbox.h"

/* `for i = 1, n do x = x + i end` runs two instructions an iteration (ADD, FORLOOP;
 * the metamethod fallback after ADD is skipped when the add succeeds): n iterations
 * are 2n instructions, plus a handful around the loop. */
#define PER_ITERATION 2
#define UNDER (SANDBOX_INSTRUCTIONS / PER_ITERATION * 8 / 10)     /* 80% of the budget */
#define OVER (SANDBOX_INSTRUCTIONS / PER_ITERATION * 11 / 10)    /* 110% of it */

static char path[64];

static void write_rules(const char *source)
{
    strcpy(path, "/tmp/mtref-budget-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(source, f);
    assert_int_equal(fclose(f), 0);
}

/* Loads path as a --rules file: true when it loaded, else the message in err. */
static bool loads(char *err)
{
    struct luarules *bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    struct referee ref;
    const char *files[] = {path};
    bool ok = referee_init(&ref, &loader, files, 1, err);
    referee_free(&ref);
    luarules_free(bridge);
    unlink(path);
    return ok;
}

static void a_load_below_the_budget_runs_to_its_end_and_one_above_it_is_stopped(void **state)
{
    (void)state;
    char source[256], err[RULES_MESSAGE_SIZE] = "";
    snprintf(source, sizeof source, "local x = 0\nfor i = 1, %ld do x = x + i end\nreturn {}\n", (long)UNDER);
    write_rules(source);
    if (!loads(err)) fail_msg("%ld iterations were refused: %s", (long)UNDER, err);
    snprintf(source, sizeof source, "local x = 0\nfor i = 1, %ld do x = x + i end\nreturn {}\n", (long)OVER);
    write_rules(source);
    assert_false(loads(err));
    assert_non_null(strstr(err, ":2: budget of 10 million instructions"));
}

/* Each hook call has a budget of its own: calls below it never add up to a refusal. */
static void each_hook_call_gets_a_fresh_budget(void **state)
{
    (void)state;
    char source[512];
    snprintf(source, sizeof source,
             "local n = %ld\nreturn {\n  may_play = function(m)\n    local x = 0\n"
             "    for i = 1, n do x = x + i end\n    return true\n  end,\n}\n", (long)(UNDER / 8));
    write_rules(source);
    const char *files[] = {path};
    struct referee *ref = tu_session(files, 1);
    /* several calls: together above one budget */
    tu_feed(ref, "players ana bob\nseed 5\nlegal\nlegal\nlegal");
    tu_free(ref);
    snprintf(source, sizeof source,
             "return {\n  may_play = function(m)\n    local x = 0\n"
             "    for i = 1, %ld do x = x + i end\n    return true\n  end,\n}\n", (long)OVER);
    unlink(path);
    write_rules(source);
    ref = tu_session(files, 1);
    tu_feed(ref, "players ana bob\nseed 5");
    assert_int_equal(tu_line(ref, "legal"), ERR_RULES);
    assert_non_null(strstr(tu_last()->message, ":4: budget of 10 million instructions"));
    tu_free(ref);
    unlink(path);
}

/* A C function that takes a while without a Lua instruction: a hook's time spent
 * in the bridge or in library code. */
static int sleep_a_while(lua_State *L)
{
    (void)L;
    usleep(2000);
    return 0;
}

/* The match's deadline counts the time the hook calls take, also of calls too short
 * for the count hook ever to run in them (a match of a million short calls must meet
 * it: before, such calls were never timed). */
static void short_calls_count_toward_the_match_deadline(void **state)
{
    (void)state;
    struct sandbox *sb = sandbox_new();
    assert_non_null(sb);
    lua_State *L = sandbox_state(sb);
    sandbox_match_begin(sb);
    char err[SANDBOX_ERROR_SIZE];
    for (int i = 0; i < 5; i++) {
        lua_pushcfunction(L, sleep_a_while);
        assert_int_equal(sandbox_call(sb, 0, 0, "test", err), 0);
    }
    if (sb->match_seconds < 0.009) fail_msg("five calls of 2 ms counted %.4f s", sb->match_seconds);
    sandbox_free(sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_load_below_the_budget_runs_to_its_end_and_one_above_it_is_stopped),
        cmocka_unit_test(each_hook_call_gets_a_fresh_budget),
        cmocka_unit_test(short_calls_count_toward_the_match_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
