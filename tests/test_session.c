/* The referee session: rules lines during set-up, and regressions found in review. */
#include "testutil.h"

#include "luarules.h"
#include "luasandbox.h"
#include "selfplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* A second `rules` line swapped the rule set while the game still read the old one
 * (a use-after-free that AddressSanitizer reports). */
static void rules_second_line_keeps_both_files(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "rules ascending\nrules double-blank-50\nplayers 2\nrounds 1");
    assert_string_equal(ref->game.rules->names, "ascending, double-blank-50");
    assert_int_equal(ref->game.rules->tile_value[tile_from_pips(0, 0)], 50);
    assert_int_equal(tu_line(ref, "rules ascending.lua"), ERR_NONE);   /* named twice counts once */
    assert_string_equal(ref->game.rules->names, "ascending, double-blank-50");
    tu_free(ref);
}

static void R2_rules_line_that_unseats_the_table_is_a_rules_error(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "rules ten-players\nplayers 10");
    char path[] = "/tmp/mtref-fewer-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("return { players = { min = 2, max = 4 } }\n", f);
    fclose(f);
    char line[600];
    snprintf(line, sizeof line, "rules %s", path);
    assert_int_equal(tu_line(ref, line), ERR_RULES);
    remove(path);
    assert_int_equal(ref->game.nplayers, 10);
    assert_string_equal(ref->game.rules->names, "ten-players");
    assert_int_equal(tu_line(ref, "rules double-blank-50"), ERR_NONE);
    tu_free(ref);
}

static void R3_rounds_follow_the_rules_default_until_set(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    assert_int_equal(ref->game.rounds, 13);
    tu_feed(ref, "rounds 7\nrules double-blank-50");
    assert_int_equal(ref->game.rounds, 7);
    tu_free(ref);
}

static void collect(void *ctx, const char *data, size_t len) { fwrite(data, 1, len, (FILE *)ctx); }

/* A self-played record of 9 players under ten-players stands alone only if its
 * rules line comes before `players` (players 9 is syntax under the canonical rules). */
static void R2_selfplay_names_rules_before_a_larger_table(void **state)
{
    (void)state;
    const char *rules[] = {"ten-players"};
    struct referee *ref = tu_session(rules, 1);
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 9;
    o.rounds = 1;
    char *text = NULL, err[RULES_MESSAGE_SIZE];
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    struct selfplay_sink sink = {collect, mem};
    assert_int_equal(selfplay_match(&o, ref->cli_rules, rules, 1, 0, &sink, err), 0);
    fclose(mem);
    char *out = NULL;
    int status = tu_run(text, true, false, NULL, 0, &out);
    if (status != 0) fail_msg("the record is refused: %.300s", out);
    free(out);
    free(text);
    tu_free(ref);
}

/* Found by fuzzing: under elimination rules that never eliminate anyone, a match has
 * no end; self-play must give up with an error instead of playing for ever. */
static void selfplay_gives_up_on_a_match_without_end(void **state)
{
    (void)state;
    char path[] = "/tmp/mtref-endless-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("return { eliminated = function(p) return false end }\n", f);
    fclose(f);
    const char *rules[] = {path};
    struct referee *ref = tu_session(rules, 1);
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 2;
    char err[RULES_MESSAGE_SIZE];
    FILE *sink_file = fopen("/dev/null", "w");
    struct selfplay_sink sink = {collect, sink_file};
    assert_int_equal(selfplay_match(&o, ref->cli_rules, rules, 1, 0, &sink, err), 2);
    assert_non_null(strstr(err, "has not ended"));
    fclose(sink_file);
    remove(path);
    tu_free(ref);
}

/* The ownership rule of alloc.h: every *_free accepts NULL and a freed value. */
static void referee_free_of_null_or_twice_does_nothing(void **state)
{
    (void)state;
    referee_free(NULL);
    luarules_free(NULL);
    sandbox_free(NULL);
    struct referee *ref = tu_session((const char *const[]){"double-blank-50"}, 1);
    tu_feed(ref, "rules ascending\nplayers 2");
    referee_free(ref);
    referee_free(ref);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rules_second_line_keeps_both_files),
        cmocka_unit_test(R2_rules_line_that_unseats_the_table_is_a_rules_error),
        cmocka_unit_test(R3_rounds_follow_the_rules_default_until_set),
        cmocka_unit_test(R2_selfplay_names_rules_before_a_larger_table),
        cmocka_unit_test(selfplay_gives_up_on_a_match_without_end),
        cmocka_unit_test(referee_free_of_null_or_twice_does_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
