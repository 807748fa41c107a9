/* What a rules file or a record says reaches a terminal escaped, and whole: a reason,
 * a description, an unknown key or a record line holding a newline or an escape
 * sequence cannot forge a verdict line or steer the terminal (mtref(1), mtref-rules(5));
 * a NUL cannot hide an unknown key or junk after a valid value. Runs the binary. */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandboxutil.h"

/* No byte below 0x20 but newlines, none 0x7f, and exactly lines newlines. */
static void assert_clean(const char *out, int lines)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)out; *p; p++) {
        if (*p == '\n') { n++; continue; }
        if (*p < 0x20 || *p == 0x7f) fail_msg("a raw control byte 0x%02x in:\n%s", *p, out);
    }
    if (n != lines) fail_msg("%d lines, expected %d:\n%s", n, lines, out);
}

static char record_path[64];

/* A record in which ana can play at once (a may_play hook is asked). */
static const char *write_record(const char *text)
{
    strcpy(record_path, "/tmp/mtref-sandbox-rec-XXXXXX");
    int fd = mkstemp(record_path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return record_path;
}

#define FORGED "\\nrecord.mtr: ok, ana wins 0-10\\27[2K\\r\\27]0;owned\\7"

static void a_may_play_reason_cannot_forge_a_verdict_line(void **state)
{
    (void)state;
    sbu_write("return {\n  hand_size = function(n) return 1 end,\n  may_play = function(m) return false, '" FORGED "' end,\n}\n");
    write_record("players ana bob\nrounds 1\ndeal ana 12-1\ndeal bob 0-1\nana play 12-1 ana\n");
    const char *check[] = {"check", "--rules", sbu_path(), record_path, NULL};
    char *out = NULL;
    assert_int_equal(sbu_run_mtref(check, NULL, &out), 1);
    assert_clean(out, 1);
    assert_non_null(strstr(out, "\\nrecord.mtr: ok, ana wins 0-10\\x1b[2K\\r\\x1b]0;owned\\x07"));
    free(out);
    /* the referee's own text mode */
    const char *referee[] = {"--rules", sbu_path(), record_path, NULL};
    assert_int_equal(sbu_run_mtref(referee, NULL, &out), 1);
    assert_clean(out, 6);          /* four ok, the rejection, its legal moves */
    free(out);
    unlink(record_path);
}

static void a_record_line_cannot_set_the_terminal_title(void **state)
{
    (void)state;
    write_record("players ana bob\n\033]0;owned\007 play\n");
    const char *check[] = {"check", record_path, NULL};
    char *out = NULL;
    assert_int_equal(sbu_run_mtref(check, NULL, &out), 2);
    assert_clean(out, 1);
    free(out);
    const char *referee[] = {record_path, NULL};
    assert_int_equal(sbu_run_mtref(referee, NULL, &out), 2);
    assert_clean(out, 2);
    free(out);
    unlink(record_path);
}

static void descriptions_keys_and_reasons_print_escaped(void **state)
{
    (void)state;
    /* mtref rules: the description */
    sbu_write("return {\n  description = 'x" FORGED "\\0after',\n}\n");
    const char *rules[] = {"rules", sbu_path(), NULL};
    char *out = NULL;
    assert_int_equal(sbu_run_mtref(rules, NULL, &out), 0);
    assert_clean(out, 3);
    assert_non_null(strstr(out, "\\0after"));
    free(out);
    /* an unknown key holding a newline: a start-up error on stderr */
    sbu_write("return {\n  ['tile_valu\\n" "x.mtr: ok'] = 1,\n}\n");
    assert_int_equal(sbu_run_mtref(rules, NULL, &out), 2);
    assert_clean(out, 1);
    free(out);
    /* an incompatible reason */
    char first[128];
    sbu_write("return { description = 'first' }\n");
    snprintf(first, sizeof first, "%s", sbu_path());
    char name[128];
    snprintf(name, sizeof name, "%s", strrchr(first, '/') + 1);
    name[strlen(name) - 4] = '\0';
    char source[400];
    snprintf(source, sizeof source, "return {\n  incompatible = { ['%s'] = 'no" FORGED "' },\n}\n", name);
    char second[128];
    snprintf(second, sizeof second, "%s", first);
    strcpy(second + strlen(second) - 4, "-b.lua");
    FILE *f = fopen(second, "w");
    fputs(source, f);
    fclose(f);
    const char *both[] = {"rules", first, second, NULL};
    assert_int_equal(sbu_run_mtref(both, NULL, &out), 2);
    assert_clean(out, 1);
    assert_non_null(strstr(out, "cannot be combined"));
    free(out);
    unlink(first);
    unlink(second);
}

static void a_nul_hides_nothing(void **state)
{
    (void)state;
    sbu_refused("return {\n  ['may_play\\0junk'] = function(m) return true end,\n}\n", 2, "may_play\\0junk");
    sbu_refused("return {\n  doubles = 'anywhere-lifo\\0junk',\n}\n", 2, "doubles");
    sbu_refused("return {\n  draw = 'once\\0',\n}\n", 2, "draw");
    sbu_refused("return {\n  players = { ['min\\0'] = 2 },\n}\n", 2, "players");
    sbu_harmless("return {\n  doubles = 'anywhere-lifo',\n  players = { min = 2 },\n}\n");
}

/* check loads a rule set once for the whole run: a hook's state carries on. */
static void check_keeps_hook_state_across_files(void **state)
{
    (void)state;
    sbu_write("local deals = 0\nreturn {\n  engine = function(round)\n    deals = deals + 1\n"
              "    if deals > 1 then error('dealt ' .. deals .. ' times in this run') end\n    return 12\n  end,\n}\n");
    write_record("players ana bob\nrounds 1\ndeal ana 12-1\ndeal bob 0-1\n");
    const char *check[] = {"check", "--rules", sbu_path(), record_path, record_path, NULL};
    char *out = NULL;
    assert_int_equal(sbu_run_mtref(check, NULL, &out), 2);
    char *second = strchr(out, '\n');
    assert_non_null(second);
    if (strstr(out, "dealt") > second || !strstr(second, "dealt 2 times in this run"))
        fail_msg("the second file did not see the first's state:\n%s", out);
    free(out);
    unlink(record_path);
}

#define T(f) cmocka_unit_test_setup_teardown(f, sbu_setup, sbu_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_may_play_reason_cannot_forge_a_verdict_line),
        T(a_record_line_cannot_set_the_terminal_title),
        T(descriptions_keys_and_reasons_print_escaped),
        T(a_nul_hides_nothing),
        T(check_keeps_hook_state_across_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
