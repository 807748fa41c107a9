/* The sandbox's limits, second wave (mtref-rules(5), SAFETY): a spent budget that
 * nothing can swallow, C library calls bounded by the budget, sources of bounded
 * size and compile cost, rules files that are not regular files, one memory cap for
 * the process, a budget per match. Each shape must end in a clean `rules` error
 * within seconds; the alarm of sbu_setup fails a test that hangs. */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "luarules.h"
#include "sandboxutil.h"
#include "selfplay.h"

/* ---- 1. a spent budget cannot be swallowed ---------------------------------- */

static void a_budget_spent_in_a_load_reader_is_not_caught(void **state)
{
    (void)state;
    /* load() runs its reader in a protected call: it must not catch the budget */
    sbu_refused("while true do load(function() while true do end end) end\n", SBU_ANY_LINE, "budget");
    /* ... and a file whose budget ran out inside the reader must not load */
    sbu_refused("local f = load(function() while true do end end)\nreturn {}\n", SBU_ANY_LINE, "budget");
    sbu_refused("local ok = pcall(load, function() while true do end end)\nreturn {}\n", SBU_ANY_LINE, "budget");
    /* a reader that sorts with a looping comparator, one that gsubs with a looping function */
    sbu_refused("load(function() table.sort({3, 2, 1, 4, 5, 6}, function(a, b) while true do end end) end)\n"
                "return {}\n", SBU_ANY_LINE, "budget");
    sbu_refused("load(function() string.gsub('abc', '.', function() while true do end end) end)\nreturn {}\n",
                SBU_ANY_LINE, "budget");
}

static void nothing_runs_after_the_budget_is_spent(void **state)
{
    (void)state;
    /* a __close that would loop runs after the budget is spent: it must not */
    sbu_refused("do\n  local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                "  while true do end\nend\n", SBU_ANY_LINE, "budget");
    /* an __index met after the budget is spent, from a C function's loop */
    sbu_refused("local t = setmetatable({}, {__index = function(t, k) while true do end end})\n"
                "while true do pcall(table.concat, t, '', 1, 3) end\n", SBU_ANY_LINE, "budget");
    /* an xpcall handler called for the budget error */
    sbu_refused("xpcall(function() while true do end end, function(e) while true do end end)\nreturn {}\n",
                SBU_ANY_LINE, "budget");
}

static void a_hook_cannot_swallow_its_budget_with_goto_and_load(void **state)
{
    (void)state;
    sbu_write("return {\n  may_play = function(m)\n    ::again::\n    load(function() while true do end end)\n"
              "    goto again\n  end,\n}\n");
    const char *files[] = {sbu_path()};
    struct referee *ref = tu_session(files, 1);
    tu_feed(ref, "players ana bob\nseed 5");
    assert_int_equal(tu_line(ref, "ana draw"), ERR_RULES);
    sbu_assert_message(tu_last()->message, SBU_ANY_LINE, "budget");
    tu_free(ref);
}

/* ---- 2. C library calls bounded by the budget ------------------------------- */

/* A proxy that claims math.maxinteger elements, read and written by C functions:
 * no instruction and no allocation per element. */
#define HUGE_PROXY "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end,\n" \
                   "  __index = type, __newindex = rawequal})\n"

static void table_functions_driven_by_metamethods_end(void **state)
{
    (void)state;
    sbu_refused(HUGE_PROXY "table.insert(t, 1, 0)\nreturn {}\n", SBU_ANY_LINE, "budget");
    sbu_refused(HUGE_PROXY "table.remove(t, 1)\nreturn {}\n", SBU_ANY_LINE, "budget");
    sbu_refused(HUGE_PROXY "table.move(t, 1, math.maxinteger - 1, 2)\nreturn {}\n", SBU_ANY_LINE, "budget");
    sbu_refused(HUGE_PROXY "while true do table.unpack(t, 1, 100000) end\n", SBU_ANY_LINE, "budget");
    sbu_refused(HUGE_PROXY "local s = table.concat(t)\nreturn {}\n", SBU_MAYBE_LINE, NULL);
    sbu_refused("local t = setmetatable({}, {__len = function() return 2147483646 end,\n"
                "  __index = type, __newindex = rawequal})\ntable.sort(t)\nreturn {}\n", SBU_ANY_LINE, "budget");
    sbu_refused("local t = setmetatable({}, {__len = function() return 2147483646 end,\n"
                "  __index = type, __newindex = rawequal})\ntable.sort(t, rawequal)\nreturn {}\n", SBU_ANY_LINE,
                "budget");
}

static void table_functions_still_do_their_job(void **state)
{
    (void)state;
    sbu_harmless("local t = {5, 3, 9, 1, 7, 2, 8}\ntable.sort(t)\n"
                 "assert(table.concat(t, ',') == '1,2,3,5,7,8,9')\n"
                 "table.sort(t, function(a, b) return a > b end)\nassert(table.concat(t, ',') == '9,8,7,5,3,2,1')\n"
                 "table.insert(t, 1, 0)\ntable.insert(t, 10)\nassert(table.concat(t, ' ', 1, 3) == '0 9 8')\n"
                 "assert(table.remove(t) == 10 and table.remove(t, 1) == 0 and #t == 7)\n"
                 "local a, b, c = table.unpack(t, 2, 4)\nassert(a == 8 and b == 7 and c == 5)\n"
                 "local m = table.move({1, 2, 3}, 1, 3, 2)\nassert(table.concat(m, '') == '1123')\n"
                 "local w = {'pear', 'apple', 'fig'}\ntable.sort(w)\nassert(table.concat(w, ' ') == 'apple fig pear')\n"
                 "assert(not pcall(table.insert, {}, 5, 1))\nassert(select('#', table.unpack({}, 1, 0)) == 0)\n"
                 "return {}\n");
}

static void gsub_and_balance_patterns_are_costed(void **state)
{
    (void)state;
    /* "%0" of an empty match adds nothing: a million of them per match, 10^5 matches */
    sbu_refused("local s = string.rep('x', 100000)\nlocal r = string.rep('%0', 1000000)\n"
                "local out = s:gsub('', r)\nreturn {}\n", 3, "pattern");
    /* %b scans to the balance from every start */
    sbu_refused("local s = string.rep('(', 2000000)\nlocal i = s:find('%b()')\nreturn {}\n", 2, "pattern");
    /* a back-reference compares a capture at every try */
    sbu_refused("local s = string.rep('a', 200000)\nlocal i = s:find('(a*)%1b')\nreturn {}\n", 2, "pattern");
    /* cheap calls add up against the budget, not only the deadline */
    sbu_refused("local s = string.rep('a', 1000000)\nwhile true do s:find('b', 1, true) end\n", SBU_ANY_LINE, "budget");
    sbu_harmless("local n = select(2, ('a b c'):gsub('%a', '%0%0'))\nassert(n == 3)\n"
                 "assert(('(x(y))z'):match('%b()') == '(x(y))')\nreturn {}\n");
}

/* A source made of the words Lua's compiler chains in quadratic time. */
static char *chain(const char *head, const char *link, const char *tail, size_t size)
{
    char *s = malloc(size + 100);
    assert_non_null(s);
    size_t n = (size_t)sprintf(s, "%s", head);
    while (n + strlen(link) + strlen(tail) < size) n += (size_t)sprintf(s + n, "%s", link);
    sprintf(s + n, "%s", tail);
    return s;
}

static void sources_have_a_size_limit_and_a_compile_cost(void **state)
{
    (void)state;
    /* a rules file of 250 KB of `or`: seconds in Lua's compiler, refused at once */
    char *src = chain("local x = 1\nlocal y = x", " or x", "\nreturn {}\n", 250000);
    sbu_refused(src, 0, "budget");
    free(src);
    src = chain("local x = 1\nif x then", " elseif x then", " end\nreturn {}\n", 250000);
    sbu_refused(src, 0, "budget");
    free(src);
    /* the same through load, built in the file */
    sbu_harmless("local f, why = load('local x = 1 if x then ' .. string.rep('elseif x then ', 300000) .. 'end')\n"
                 "assert(f == nil and why:find('larger'))\nreturn {}\n");
    sbu_refused("local src = 'local x = 1 local y = x' .. string.rep(' or x', 40000)\nlocal f = load(src)\n"
                "return {}\n", 2, "budget");
    /* past the size limit, load says so */
    sbu_harmless("local f, why = load(string.rep(' ', 300000))\nassert(f == nil and why:find('larger'))\n"
                 "local n = 0\nf, why = load(function() n = n + 1; if n < 100 then return string.rep(' ', 4000) end end)\n"
                 "assert(f == nil and why:find('larger'))\nreturn {}\n");
    /* an ordinary load still works, with a reader, a name and an environment */
    sbu_harmless("local parts = {'return ', 'x + ', '1'}\nlocal i = 0\n"
                 "local f = load(function() i = i + 1; return parts[i] end, '=parts', 't', {x = 41})\n"
                 "assert(f() == 42)\nassert(load('return ...')(7) == 7)\nreturn {}\n");
}

/* ---- 3. rules files that are not regular files ------------------------------- */

static void a_fifo_is_refused_at_once(void **state)
{
    (void)state;
    char fifo[64];
    strcpy(fifo, "/tmp/mtref-sandbox-fifo-XXXXXX");
    assert_non_null(mkdtemp(fifo));
    char file[96];
    snprintf(file, sizeof file, "%s/x.lua", fifo);
    assert_int_equal(mkfifo(file, 0600), 0);
    /* from --rules */
    struct luarules *bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    struct referee *ref = malloc(sizeof *ref);
    const char *files[] = {file};
    char err[RULES_MESSAGE_SIZE] = "";
    assert_false(referee_init(ref, &loader, files, 1, err));
    referee_free(ref);
    free(ref);
    luarules_free(bridge);
    assert_non_null(strstr(err, "not a regular file"));
    /* from a record's rules line */
    char record[200], *out = NULL;
    snprintf(record, sizeof record, "players ana bob\nrules %s\nshow\n", file);
    assert_int_equal(tu_run(record, true, false, NULL, 0, &out), 2);
    assert_non_null(strstr(out, "{\"line\":2,\"ok\":false,\"error\":\"rules\""));
    assert_non_null(strstr(out, "not a regular file"));
    free(out);
    unlink(file);
    rmdir(fifo);
}

static void devices_are_refused(void **state)
{
    (void)state;
    static const char *const devices[] = {"/dev/zero", "/dev/urandom"};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        struct stat st;
        if (stat(devices[i], &st) != 0 || !S_ISCHR(st.st_mode)) continue;     /* not here, or not a device */
        struct luarules *bridge = luarules_new();
        struct rules_loader loader = luarules_loader(bridge);
        struct referee *ref = malloc(sizeof *ref);
        const char *files[] = {devices[i]};
        char err[RULES_MESSAGE_SIZE] = "";
        assert_false(referee_init(ref, &loader, files, 1, err));
        referee_free(ref);
        free(ref);
        luarules_free(bridge);
        if (!strstr(err, "not a regular file")) fail_msg("%s: %s", devices[i], err);
    }
}

/* ---- 7. one memory cap for all rules code in the process ---------------------- */

/* 6 MB kept; building it takes 12 MB for a moment */
#define HOLD_6_MB "keep = string.rep('x', 6 << 20)\nreturn {}\n"

static void two_live_rule_sets_share_one_cap(void **state)
{
    (void)state;
    struct luarules *bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    char first[128], err[RULES_MESSAGE_SIZE] = "";
    sbu_write(HOLD_6_MB);
    snprintf(first, sizeof first, "%s", sbu_path());
    struct referee *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    const char *files_a[] = {first};
    assert_true(referee_init(a, &loader, files_a, 1, err));
    /* a second file (another path) that holds as much, while the first is in use */
    char second[128];
    snprintf(second, sizeof second, "%s", first);
    second[strlen(second) - 4] = '\0';
    strcat(second, "-2.lua");
    FILE *f = fopen(second, "w");
    fputs(HOLD_6_MB, f);
    fclose(f);
    const char *files_b[] = {second};
    assert_false(referee_init(b, &loader, files_b, 1, err));
    if (!strstr(err, "memory cap")) fail_msg("expected the memory cap: %s", err);
    referee_free(b);
    /* once the first is no longer used, the second loads: what no session uses goes */
    referee_free(a);
    assert_true(referee_init(b, &loader, files_b, 1, err));
    referee_free(b);
    free(a);
    free(b);
    unlink(second);
    luarules_free(bridge);
}

/* ---- 8. a budget per match ------------------------------------------------- */

static void collect(void *ctx, const char *data, size_t len) { fwrite(data, 1, len, ctx); }

static void slow_hooks_meet_the_match_budget(void **state)
{
    (void)state;
    /* 400 000 instructions a call: far below the call's budget, but a match makes
     * hundreds of calls */
    sbu_write("return {\n  may_play = function(m)\n    for i = 1, 400000 do end\n    return true\n  end,\n}\n");
    const char *files[] = {sbu_path()};
    struct referee *ref = tu_session(files, 1);
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 4;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    struct selfplay_sink sink = {collect, mem};
    char err[RULES_MESSAGE_SIZE] = "";
    assert_int_equal(selfplay_match(&o, ref->cli_rules, files, 1, 0, &sink, err), 2);
    fclose(mem);
    free(text);
    if (!strstr(err, "match's hook budget")) fail_msg("expected the match's budget: %s", err);
    /* a new match has a budget of its own: its first moves pass */
    tu_free(ref);
    ref = tu_session(files, 1);
    tu_feed(ref, "players ana bob\nseed 5\nlegal");
    tu_free(ref);
}

#define T(f) cmocka_unit_test_setup_teardown(f, sbu_setup, sbu_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_budget_spent_in_a_load_reader_is_not_caught),
        T(nothing_runs_after_the_budget_is_spent),
        T(a_hook_cannot_swallow_its_budget_with_goto_and_load),
        T(table_functions_driven_by_metamethods_end),
        T(table_functions_still_do_their_job),
        T(gsub_and_balance_patterns_are_costed),
        T(sources_have_a_size_limit_and_a_compile_cost),
        T(a_fifo_is_refused_at_once),
        T(devices_are_refused),
        T(two_live_rule_sets_share_one_cap),
        T(slow_hooks_meet_the_match_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
