/* An allocation failure anywhere in the Lua bridge is an error, never an abort: for
 * every n, the n-th allocation (and all after it) fails while a session loads a
 * rules file with a may_play rule and referees a record through it. Lua aborts the
 * process when an allocation fails outside a protected call, so a bridge call that
 * is not protected ends this test. */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "luarules.h"
#include "sandboxutil.h"

static const char rules_source[] =
    "local seen = {}\n"
    "return {\n"
    "  description = 'allocates in every hook',\n"
    "  tile_value = function(a, b) return a + b end,\n"
    "  may_play = function(m)\n"
    "    local keys = {}\n"
    "    for _, k in ipairs({'player', 'train', 'low', 'high', 'own', 'first_turn'}) do\n"
    "      keys[#keys + 1] = k .. '=' .. tostring(m[k])\n"
    "    end\n"
    "    table.sort(keys)\n"
    "    seen[table.concat(keys, ',')] = string.format('%p', keys)\n"
    "    return m.train ~= 'mex', 'not on the Mexican train'\n"
    "  end,\n"
    "  round_points = function(r)\n"
    "    local p = {}\n"
    "    for name, v in pairs(r.hands) do p[name] = v end\n"
    "    return p\n"
    "  end,\n"
    "}\n";

static const char *const lines[] = {
    "players ana bob", "seed 5", "legal", "show", "ana draw", "legal", "bob draw", "legal",
};

/* Runs the session; returns its trace (plain malloc: not counted) of verdicts. */
static char *run(const char *path)
{
    size_t size = 1 << 16, used = 0;
    char *trace = malloc(size);
    assert_non_null(trace);
    trace[0] = '\0';
    struct luarules *bridge = luarules_new();
    if (!bridge) {
        snprintf(trace, size, "no bridge\n");
        return trace;
    }
    struct rules_loader loader = luarules_loader(bridge);
    struct referee *ref = malloc(sizeof *ref);
    struct response *resp = malloc(sizeof *resp);
    assert_true(ref && resp);
    const char *files[] = {path};
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(ref, &loader, files, 1, err)) {
        used += (size_t)snprintf(trace + used, size - used, "init: %s\n", err);
    } else {
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
            referee_line(ref, lines[i], strlen(lines[i]), false, (long)i + 1, resp);
            if (resp->kind == RESPONSE_VERDICT)
                used += (size_t)snprintf(trace + used, size - used, "%s: %s\n", error_code_name(resp->verdict.code),
                                         resp->verdict.message);
            else
                used += (size_t)snprintf(trace + used, size - used, "ok %d\n", resp->kind == RESPONSE_LEGAL ? resp->nlegal : -1);
        }
    }
    referee_free(ref);
    free(ref);
    free(resp);
    luarules_free(bridge);
    return trace;
}

static void every_allocation_may_fail(void **state)
{
    (void)state;
    sbu_write(rules_source);
    char path[128];
    snprintf(path, sizeof path, "%s", sbu_path());
    char *baseline = run(path);
    if (strstr(baseline, "rules") || strstr(baseline, "init")) fail_msg("the baseline fails:\n%s", baseline);
    long n = 0, failed_runs = 0;
    for (;; n++) {
        alloc_fail_after(n);
        char *trace = run(path);
        alloc_fail_after(-1);
        bool same = strcmp(trace, baseline) == 0;
        free(trace);
        if (same) break;
        failed_runs++;
        if (n > 1000000) fail_msg("no end to the allocations");
    }
    /* the run allocates: many failures were tried, each one ended cleanly */
    if (failed_runs < 100) fail_msg("only %ld failing runs", failed_runs);
    print_message("%ld allocations failed in turn, each cleanly\n", failed_runs);
    free(baseline);
}

#define T(f) cmocka_unit_test_setup_teardown(f, sbu_setup, sbu_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(every_allocation_may_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
