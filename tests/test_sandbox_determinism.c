/* Same record, same rules files, same options: same bytes out, always (mtref-rules(5),
 * SAFETY). Hostile but legal rules files that would toss a coin through Lua: the
 * order of pairs over strings, tables and functions (a hash seeded per state from an
 * address and the clock, or addresses themselves), tostring and %p of tables and
 * functions (addresses), math.randomseed() (the clock), and the bridge's own error
 * for a table with many bad keys. Each runs in a dozen processes of its own (seeds
 * and addresses differ per process), and every run must print the same bytes. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxutil.h"

#define RUNS 12

/* Each file ends in error(TEXT, 0): TEXT is what the run prints. */
static const char *const files[] = {
    /* the order of string keys */
    "local t = {}\nfor i = 1, 40 do t['key' .. i] = i end\nlocal s = ''\n"
    "for k in pairs(t) do s = s .. k .. ' ' end\nerror(s, 0)\n",
    /* next, by hand */
    "local t = {alpha = 1, beta = 2, gamma = 3, delta = 4, epsilon = 5, zeta = 6}\nlocal s, k = '', next(t)\n"
    "while k do s = s .. k; k = next(t, k) end\nerror(s, 0)\n",
    /* tables as keys: created in an order, visited in that order */
    "local t, names = {}, {}\nfor i = 1, 30 do local k = {}; names[k] = i; t[k] = true end\nlocal s = ''\n"
    "for k in pairs(t) do s = s .. names[k] .. ',' end\nerror(s, 0)\n",
    /* functions as keys */
    "local t, names = {}, {}\nfor i = 1, 30 do local f = function() return i end; names[f] = i; t[f] = i end\n"
    "local s = ''\nfor f in pairs(t) do s = s .. f() .. ',' end\nerror(s, 0)\n",
    /* library functions as keys */
    "local t = {}\nfor name, f in pairs(string) do t[f] = name end\nlocal s = ''\n"
    "for f, name in pairs(t) do s = s .. name .. ' ' end\nerror(s, 0)\n",
    /* keys of every kind */
    "local t = {[1.5] = 1, [true] = 2, [false] = 3, x = 4, [-7] = 5, [{}] = 6, [10] = 7, y = 8, [2^53] = 9}\n"
    "local s = ''\nfor k, v in pairs(t) do s = s .. v .. ' ' end\nerror(s, 0)\n",
    /* addresses in tostring and %p */
    "local s = tostring({}) .. ' ' .. tostring(function() end) .. ' ' .. tostring(string.len) .. ' '\n"
    "s = s .. string.format('%p %p %p %10p', {}, print or type, 'str', 1)\n"
    "s = s .. ' ' .. string.format('%s %s', {}, ipairs({}))\nerror(s, 0)\n",
    /* a coin tossed on an address */
    "local a, b = {}, {}\nlocal heads = tostring(a) < tostring(b)\nlocal t = {[a] = 1, [b] = 2}\n"
    "error(tostring(heads) .. ' ' .. tostring(next(t) == a), 0)\n",
    /* the clock through math.randomseed */
    "math.randomseed()\nlocal s = math.random(1, 1000000000) .. ' '\nmath.randomseed(7)\n"
    "s = s .. math.random(1, 1000000000)\nerror(s, 0)\n",
    /* the first state: random numbers from the start */
    "error(tostring(math.random(1, 1 << 40)) .. ' ' .. tostring(math.random()), 0)\n",
    /* a table with many unknown keys: the bridge names one, always the same */
    "local t = {}\nfor i = 1, 50 do t['unknown_' .. i] = i end\nreturn t\n",
    /* utf8.codes' iterator and gmatch's: no address either */
    "local f = utf8.codes('x')\nlocal g = string.gmatch('x', '.')\n"
    "error(tostring(f) .. ' ' .. tostring(g) .. ' ' .. tostring(f == utf8.codes('y')), 0)\n",
};

static void every_run_prints_the_same_bytes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sbu_write(files[i]);
        const char *args[] = {"rules", sbu_path(), NULL};
        char *first = NULL;
        for (int run = 0; run < RUNS; run++) {
            char *out = NULL;
            assert_int_equal(sbu_run_mtref(args, NULL, &out), 2);
            if (strstr(out, "0x")) fail_msg("file %zu shows an address: %s", i, out);
            if (!first) {
                first = out;
                continue;
            }
            if (strcmp(first, out) != 0) fail_msg("file %zu varies:\n%s\n%s", i, first, out);
            free(out);
        }
        free(first);
        sbu_cleanup();
    }
}

/* A may_play that decides by iteration order, addresses and random numbers: the
 * legal moves and verdicts of a match are the same bytes on every run. */
static void a_hook_deciding_by_order_gives_the_same_verdicts(void **state)
{
    (void)state;
    sbu_write("return {\n  may_play = function(m)\n    local s = ''\n    for k in pairs(m) do s = s .. k end\n"
              "    local t = {[{}] = 1, [{}] = 2, [{}] = 3}\n    local _, v = next(t)\n"
              "    local coin = (#s + v + #tostring({}) + math.random(1, 6)) % 3\n"
              "    return coin ~= 0 or m.train ~= 'mex', 'the coin says no'\n  end,\n}\n");
    const char *args[] = {"--json", "-k", "--rules", sbu_path(), NULL};
    const char *input = "players ana bob carl\nseed 11\nlegal\nana draw\nlegal\nbob draw\nlegal\nshow\n";
    char *first = NULL;
    for (int run = 0; run < RUNS; run++) {
        char *out = NULL;
        sbu_run_mtref(args, input, &out);
        if (!first) {
            first = out;
            continue;
        }
        if (strcmp(first, out) != 0) fail_msg("the verdicts vary:\n%s\n%s", first, out);
        free(out);
    }
    free(first);
}

/* What the orders are: fixed and documented, not merely repeatable. */
static void the_order_of_pairs_is_the_documented_one(void **state)
{
    (void)state;
    sbu_write("local t = {b = 1, a = 2, [3] = 3, [1] = 4, [true] = 5, [false] = 6, ab = 7, [-1.5] = 8}\n"
              "local s = ''\nfor k, v in pairs(t) do s = s .. tostring(k) .. '=' .. v .. ' ' end\nerror(s, 0)\n");
    const char *args[] = {"rules", sbu_path(), NULL};
    char *out = NULL;
    assert_int_equal(sbu_run_mtref(args, NULL, &out), 2);
    if (!strstr(out, ": -1.5=8 1=4 3=3 a=2 ab=7 b=1 false=6 true=5 \n")) fail_msg("order: %s", out);
    free(out);
    /* removing keys during a traversal, and nested traversals, work as in Lua */
    sbu_harmless("local t = {}\nfor i = 1, 20 do t['k' .. i] = i end\nlocal n = 0\n"
                 "for k, v in pairs(t) do t[k] = nil; n = n + 1; for k2 in pairs(t) do end end\n"
                 "assert(n == 20 and next(t) == nil)\n"
                 "local seen = 0\nfor k, v in pairs({x = 1, y = 2}) do seen = seen + v end\nassert(seen == 3)\n"
                 "local mt = {__pairs = function(t) return function(_, k) if not k then return 1, 'one' end end, t, nil end}\n"
                 "for k, v in pairs(setmetatable({}, mt)) do assert(k == 1 and v == 'one') end\n"
                 "for i, v in ipairs({'a', 'b'}) do assert(({'a', 'b'})[i] == v) end\nreturn {}\n");
}

/* The bridge names the least unknown key in byte order. */
static void the_bridge_names_the_least_unknown_key(void **state)
{
    (void)state;
    sbu_refused("return {\n  zzz = 1,\n  mmm = 2,\n  aaa = 3,\n  description = 'x',\n}\n", 4, "aaa");
    /* players: min is read before max, whatever the table's order */
    sbu_refused("return {\n  players = { max = 'many', min = 99 },\n}\n", 2, "out of range");
}

#define T(f) cmocka_unit_test_setup_teardown(f, sbu_setup, sbu_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(every_run_prints_the_same_bytes),
        T(a_hook_deciding_by_order_gives_the_same_verdicts),
        T(the_order_of_pairs_is_the_documented_one),
        T(the_bridge_names_the_least_unknown_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
