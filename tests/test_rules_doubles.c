/* [R13]-[R18]: doubles, the cover they are owed, who owes it, draws for it, must-cover. */
#include "testutil.h"

#include <string.h>

static struct referee *start(const char *setup)
{
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, setup);
    return ref;
}

#define PIP TU_PIP

/* ---- [R13] a double is played like any tile ---- */

static void R13_a_double_needs_a_train_that_ends_in_its_pip(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5 3-5", "9-12 9-9 2-9"}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 play 5-5 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 5-5 mex"), ERR_NO_MATCH);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 mex");
    assert_int_equal(tu_line(ref, "p1 play 5-5 mex"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 5-5 p1"), ERR_NONE);
    tu_moves(ref, "p1 play 5-3 p1");
    assert_int_equal(tu_line(ref, "p2 play 9-9 mex"), ERR_NONE);        /* on the Mexican train, too */
    assert_int_equal(tu_line(ref, "p2 play 2-9 mex"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R14] one more play, which must cover the double ---- */

static void R14_the_player_who_laid_a_double_plays_again_and_must_cover_it(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5 3-5 8-12", "9-12 4-9"}, (const unsigned[]){0, 0}, NULL, NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 p2\np1 play 5-5 p1");
    assert_int_equal(tu_line(ref, "p2 play 4-9 p2"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p1 play 8-12 mex"), ERR_MUST_COVER);   /* fits mex, but is no cover */
    assert_string_equal(tu_last()->rule, "R14");
    /* settled: a tile without the double's pip on the double's own train is must-cover, not no-match */
    assert_int_equal(tu_line(ref, "p1 play 8-12 p1"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p1 play 5-9 p1"), ERR_NOT_IN_HAND);    /* not-in-hand first */
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 3-5 p1"), ERR_NONE);
    assert_int_equal(ref->game.trains[0].open_pip, 3);
    tu_free(ref);
}

static void R14_must_cover_beats_train_closed_and_no_match(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5 3-5 1-2", "9-12"}, (const unsigned[]){0, 0}, NULL, NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 p2\np1 play 5-5 p1");
    assert_int_equal(tu_line(ref, "p1 play 1-2 p2"), ERR_MUST_COVER);    /* closed, and no match either */
    assert_int_equal(tu_line(ref, "p1 play 3-5 p2"), ERR_MUST_COVER);    /* a cover tile, wrong train */
    assert_int_equal(tu_line(ref, "p1 play 1-2 mex"), ERR_MUST_COVER);
    tu_free(ref);
}

/* ---- [R15] while a double is uncovered, anyone's only play is the cover ---- */

/* Three players: p1 lays 5-5 on its own train, cannot cover, draws 1-2 and passes. p2 holds
 * p2_tiles and plays 2-12 first; p3 plays 3-12 on its own train. p2 is to cover. */
static struct referee *double_owed_by_p2(const char *p2_tiles)
{
    struct referee *ref = start("players 3");
    char fixed2[64];
    snprintf(fixed2, sizeof fixed2, "2-12 %s", p2_tiles);
    tu_deal(ref, (const char *const[]){"5-12 5-5", fixed2, "3-12"},
            (const unsigned[]){PIP(5), PIP(5) | PIP(12), PIP(3) | PIP(5) | PIP(6) | PIP(12)},
            "1-2 1-3 1-4 5-8 5-9", NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 2-12 p2\np3 play 3-12 p3\n"
                  "p1 play 5-5 p1\np1 draw 1-2\np1 pass");
    assert_true(ref->game.trains[0].marker);
    return ref;
}

static void R15_anyone_must_cover_the_double_before_playing_elsewhere(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("5-6 2-9");
    assert_int_equal(tu_line(ref, "p2 play 2-9 p2"), ERR_MUST_COVER);     /* fits p2's own train */
    assert_string_equal(tu_last()->rule, "R15");
    assert_int_equal(tu_line(ref, "p2 play 5-6 mex"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p2 draw 1-3"), ERR_MUST_PLAY);         /* holds a cover */
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p2 play 6-5 p1"), ERR_NONE);           /* on p1's train, where it lies */
    tu_free(ref);
}

static void R15_must_cover_beats_train_closed(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("5-6 2-9");
    assert_int_equal(tu_line(ref, "p2 play 5-6 p3"), ERR_MUST_COVER);     /* p3's train has no marker */
    assert_int_equal(tu_line(ref, "p2 play 2-9 p3"), ERR_MUST_COVER);     /* nor does 2-9 match it */
    assert_int_equal(tu_line(ref, "p2 play 1-4 p3"), ERR_NOT_IN_HAND);    /* but not-in-hand comes first */
    tu_free(ref);
}

static void R15_a_tile_that_fits_elsewhere_does_not_stop_a_draw_for_the_cover(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("2-9");
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_MUST_DRAW);
    assert_int_equal(tu_line(ref, "p2 draw 1-3"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p2 play 2-9 p2"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_NONE);
    assert_true(ref->game.trains[1].marker);
    tu_free(ref);
}

/* ---- [R16] who cannot cover draws once, then covers or passes, and the duty moves on ---- */

static void R16_the_duty_to_cover_goes_round_the_table(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("");
    assert_int_equal(tu_line(ref, "p1 draw 1-3"), ERR_NOT_YOUR_TURN);     /* p1's turn ended with the pass */
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_MUST_DRAW);
    assert_string_equal(tu_last()->rule, "R11");
    tu_moves(ref, "p2 draw 1-3\np2 pass");
    assert_true(ref->game.trains[1].marker);
    tu_moves(ref, "p3 draw 5-8");                                           /* p3 draws a cover */
    assert_int_equal(tu_line(ref, "p3 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p3 draw 1-4"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p3 play 8-5 mex"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p3 play 8-5 p3"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p3 play 8-5 p1"), ERR_NONE);
    assert_int_equal(ref->game.ndoubles, 0);
    assert_true(ref->game.trains[0].marker);        /* p3 played on it, not p1 [R12] */
    assert_int_equal(tu_line(ref, "p3 pass"), ERR_NOT_YOUR_TURN);
    tu_free(ref);
}

static void R16_R12_the_layer_covers_on_a_later_turn_and_loses_its_marker(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("2-9");
    tu_moves(ref, "p2 draw 1-3\np2 pass\np3 draw 1-4\np3 pass");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_DRAW);             /* a new play: a new draw */
    tu_moves(ref, "p1 draw 5-9\np1 play 9-5 p1");                           /* covers its own double */
    assert_false(ref->game.trains[0].marker);
    assert_int_equal(tu_line(ref, "p2 play 2-9 p1"), ERR_TRAIN_CLOSED);
    tu_free(ref);
}

static void R16_a_drawn_cover_goes_on_the_double_and_the_drawer_keeps_the_turn(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5", "9-12"}, (const unsigned[]){PIP(5), PIP(5)}, "5-7 1-2", NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 p2\np1 play 5-5 p1\np1 draw 7-5");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 draw 1-2"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 5-7 p1"), ERR_NONE);
    assert_int_equal(ref->game.trains[0].open_pip, 7);
    tu_free(ref);
}

/* Eight players empty the ten-tile boneyard (see test_rules_turn.c); p8 then lays 0-0 on its
 * own train with no 0 left in its hand, and the boneyard empty it passes without drawing. */
static void R16_with_the_boneyard_empty_who_cannot_cover_passes(void **state)
{
    (void)state;
    struct referee *ref = start("players 8");
    tu_deal(ref, (const char *const[]){"", "", "", "", "", "", "9-12 10-12 11-12",
                                       "0-12 0-0 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12"},
            (const unsigned[]){PIP(12), PIP(12), PIP(12), PIP(12), PIP(12), PIP(12), 0, 0},
            "1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 2-3", NULL);
    tu_moves(ref, "p1 draw 1-2\np1 pass\np2 draw 1-3\np2 pass\np3 draw 1-4\np3 pass\n"
                  "p4 draw 1-5\np4 pass\np5 draw 1-6\np5 pass\np6 draw 1-7\np6 pass\n"
                  "p7 play 10-12 p7\np8 play 0-12 p8\n"
                  "p1 draw 1-8\np1 pass\np2 draw 1-9\np2 pass\np3 draw 1-10\np3 pass\np4 draw 2-3\np4 pass\n"
                  "p5 pass\np6 pass\np7 play 11-12 mex\np8 play 0-0 p8");
    assert_int_equal(tu_line(ref, "p8 draw 0-1"), ERR_BONEYARD_EMPTY);
    assert_int_equal(tu_line(ref, "p8 pass"), ERR_NONE);
    assert_false(tu_last()->round_ended);          /* p1 holds 0s: not blocked */
    assert_true(ref->game.trains[7].marker);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 0-1 mex"), ERR_MUST_COVER);
    assert_int_equal(tu_line(ref, "p1 play 0-1 p8"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R17] the draw allowance is per play ---- */

/* p1 opens its train with 5-12, then holds nothing for 5 or 12 and draws 5-5. */
static struct referee *drawn_double(void)
{
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12", "9-12 9-8"}, (const unsigned[]){PIP(5) | PIP(12), PIP(5)},
            "5-5 5-6 1-2 1-3", NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 p2\np1 draw 5-5");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    tu_moves(ref, "p1 play 5-5 p1");
    return ref;
}

static void R17_who_drew_and_laid_a_double_may_draw_again_for_the_cover(void **state)
{
    (void)state;
    struct referee *ref = drawn_double();
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_DRAW);
    assert_int_equal(tu_line(ref, "p1 draw 1-2"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p1 draw 1-3"), ERR_ALREADY_DRAWN);       /* but only once */
    assert_string_equal(tu_last()->rule, "R9");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p2 draw 1-3"), ERR_NONE);                /* p2 owes the cover now */
    tu_free(ref);
}

static void R17_the_second_draw_may_be_the_cover(void **state)
{
    (void)state;
    struct referee *ref = drawn_double();
    tu_moves(ref, "p1 draw 5-6");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 5-6 p1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p2 play 9-8 p2"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R18] a cover ends the turn ---- */

static void R18_a_cover_ends_the_turn_of_the_layer(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5 3-5 3-4 4-12", "9-12 4-9"}, (const unsigned[]){0, 0}, NULL, NULL);
    tu_moves(ref, "p1 play 5-12 p1\np2 play 9-12 p2\np1 play 5-5 p1\np1 play 5-3 p1");
    assert_int_equal(tu_line(ref, "p1 play 3-4 p1"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p1 play 4-12 mex"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p2 play 9-4 p2"), ERR_NONE);
    tu_free(ref);
}

static void R18_a_cover_ends_the_turn_of_whoever_lays_it(void **state)
{
    (void)state;
    struct referee *ref = double_owed_by_p2("5-6 2-9");
    tu_moves(ref, "p2 play 5-6 p1");
    assert_int_equal(tu_line(ref, "p2 play 2-9 p2"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p3 draw 1-3"), ERR_NONE);              /* p3: nothing for 12 or 6 */
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R13_a_double_needs_a_train_that_ends_in_its_pip),
        cmocka_unit_test(R14_the_player_who_laid_a_double_plays_again_and_must_cover_it),
        cmocka_unit_test(R14_must_cover_beats_train_closed_and_no_match),
        cmocka_unit_test(R15_anyone_must_cover_the_double_before_playing_elsewhere),
        cmocka_unit_test(R15_must_cover_beats_train_closed),
        cmocka_unit_test(R15_a_tile_that_fits_elsewhere_does_not_stop_a_draw_for_the_cover),
        cmocka_unit_test(R16_the_duty_to_cover_goes_round_the_table),
        cmocka_unit_test(R16_R12_the_layer_covers_on_a_later_turn_and_loses_its_marker),
        cmocka_unit_test(R16_a_drawn_cover_goes_on_the_double_and_the_drawer_keeps_the_turn),
        cmocka_unit_test(R16_with_the_boneyard_empty_who_cannot_cover_passes),
        cmocka_unit_test(R17_who_drew_and_laid_a_double_may_draw_again_for_the_cover),
        cmocka_unit_test(R17_the_second_draw_may_be_the_cover),
        cmocka_unit_test(R18_a_cover_ends_the_turn_of_the_layer),
        cmocka_unit_test(R18_a_cover_ends_the_turn_of_whoever_lays_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
