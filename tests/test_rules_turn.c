/* [R7]-[R12]: a turn, drawing, passing and markers, with their error codes and precedence. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct referee *start(const char *setup)
{
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, setup);
    return ref;
}

#define PIP TU_PIP

/* ---- [R7] one tile, onto an open train, matching its open end ---- */

static void R7_no_match_when_the_tile_lacks_the_open_end_pip(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"3-5 5-12", ""}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 play 3-5 p1"), ERR_NO_MATCH);
    assert_string_equal(tu_last()->rule, "R7");
    assert_int_equal(tu_line(ref, "p1 play 3-5 mex"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 12-5 p1"), ERR_NONE);
    tu_free(ref);
}

static void R7_the_other_pip_becomes_the_open_end(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 3-5 5-7 3-8 8-8", "9-12 4-9 4-6"}, (const unsigned[]){0, 0}, NULL, NULL);
    tu_moves(ref, "p1 play 5-12 p1\n"      /* written low pip first: the 12 side goes against the engine */
                  "p2 play 12-9 p2\n"
                  "p1 play 5-3 p1\n"       /* open end 3 */
                  "p2 play 9-4 p2");
    assert_int_equal(tu_line(ref, "p1 play 5-7 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 8-8 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 3-8 p1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p2 play 6-4 p2"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p1 play 8-8 p1"), ERR_NONE);      /* the 8 from 3-8 is open */
    tu_free(ref);
}

static void R7_exactly_one_tile_a_turn(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12 1-2 3-12", "4-12"}, (const unsigned[]){0, 0}, NULL, NULL);
    tu_moves(ref, "p1 play 1-12 p1");
    assert_int_equal(tu_line(ref, "p1 play 1-2 p1"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p1 play 3-12 mex"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p2 play 4-12 p2"), ERR_NONE);
    tu_free(ref);
}

static void R7_the_first_turn_of_a_round_is_a_play_too(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12", ""}, (const unsigned[]){PIP(12), 0}, "5-6", NULL);
    assert_int_equal(tu_line(ref, "p1 draw 5-6"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 12-1 mex"), ERR_NONE);
    tu_free(ref);
}

static void R7_train_closed_for_another_players_unmarked_train(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12 2-12", ""}, (const unsigned[]){0, PIP(12)}, "5-6", NULL);
    assert_int_equal(tu_line(ref, "p1 play 2-12 p2"), ERR_TRAIN_CLOSED);
    assert_string_equal(tu_last()->rule, "R7");
    tu_moves(ref, "p1 play 1-12 p1\np2 draw 5-6\np2 pass");
    assert_int_equal(tu_line(ref, "p1 play 2-12 p2"), ERR_NONE);    /* marked now */
    tu_free(ref);
}

static void R7_not_in_hand_beats_train_closed_beats_no_match(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12 3-4", "5-6"}, (const unsigned[]){0, 0}, "7-8", NULL);
    assert_int_equal(tu_line(ref, "p1 play 7-8 p2"), ERR_NOT_IN_HAND);     /* closed, no match, not held */
    assert_int_equal(tu_line(ref, "p1 play 5-6 mex"), ERR_NOT_IN_HAND);    /* no match, not held */
    assert_int_equal(tu_line(ref, "p1 play 3-4 p2"), ERR_TRAIN_CLOSED);    /* closed, no match */
    assert_int_equal(tu_line(ref, "p1 play 3-4 p1"), ERR_NO_MATCH);
    tu_free(ref);
}

/* ---- [R8] no draw while a tile can be played ---- */

static void R8_must_play_when_drawing_with_a_tile_for_the_own_train(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12", ""}, (const unsigned[]){PIP(12), 0}, "5-6", NULL);
    assert_int_equal(tu_line(ref, "p1 draw 5-6"), ERR_MUST_PLAY);
    assert_string_equal(tu_last()->rule, "R8");
    tu_free(ref);
}

static void R8_must_play_when_drawing_with_a_tile_for_mex_only(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12 7-12", "2-12"}, (const unsigned[]){PIP(1), 0}, "5-6", NULL);
    tu_moves(ref, "p1 play 1-12 p1\np2 play 2-12 p2");
    assert_int_equal(tu_line(ref, "p1 draw 5-6"), ERR_MUST_PLAY);    /* 7-12 fits mex, not p1's 1 */
    assert_int_equal(tu_line(ref, "p1 play 7-12 mex"), ERR_NONE);
    tu_free(ref);
}

/* Three players; after six moves p2's train is marked at 2, p3's unmarked at 12, mex at 5
 * and p1's own train at 4. p1 then holds extra and otherwise nothing that fits. */
static struct referee *r8_table(const char *extra)
{
    struct referee *ref = start("players 3");
    char fixed1[64];
    snprintf(fixed1, sizeof fixed1, "1-12 1-4 %s", extra);
    tu_deal(ref, (const char *const[]){fixed1, "2-12", "3-12 3-5"},
            (const unsigned[]){PIP(2) | PIP(4) | PIP(5) | PIP(12), PIP(2) | PIP(3), 0}, "6-7 9-10", NULL);
    tu_moves(ref, "p1 play 1-12 p1\np2 play 2-12 p2\np3 play 3-12 mex\n"
                  "p1 play 1-4 p1\np2 draw 6-7\np2 pass\np3 play 3-5 mex");
    return ref;
}

static void R8_must_play_when_drawing_with_a_tile_for_a_marked_train_only(void **state)
{
    (void)state;
    struct referee *ref = r8_table("2-6");
    assert_int_equal(tu_line(ref, "p1 draw 9-10"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 play 2-6 p2"), ERR_NONE);
    tu_free(ref);
}

static void R8_a_tile_that_fits_only_a_closed_train_does_not_stop_a_draw(void **state)
{
    (void)state;
    struct referee *ref = r8_table("9-12");     /* fits p3's train, which has no marker */
    assert_int_equal(tu_line(ref, "p1 play 9-12 p3"), ERR_TRAIN_CLOSED);
    assert_int_equal(tu_line(ref, "p1 draw 9-10"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    tu_free(ref);
}

static void R8_must_play_beats_not_in_boneyard(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12", "3-4"}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_MUST_PLAY);     /* in p2's hand */
    assert_int_equal(tu_line(ref, "p1 draw 1-12"), ERR_MUST_PLAY);    /* in p1's own */
    assert_int_equal(tu_line(ref, "p1 draw 12-12"), ERR_MUST_PLAY);   /* the engine */
    tu_free(ref);
}

/* ---- [R9] one draw, and a drawn tile that fits is played ---- */

static void R9_a_drawn_tile_that_fits_must_be_played(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", ""}, (const unsigned[]){PIP(12), 0}, "7-12 3-4", NULL);
    assert_int_equal(tu_line(ref, "p1 draw 12-7"), ERR_NONE);
    assert_int_equal(tu_last()->drew, tile_from_pips(7, 12));
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_MUST_PLAY);     /* must-play before already-drawn */
    assert_int_equal(tu_line(ref, "p1 play 7-12 p1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NOT_YOUR_TURN);
    tu_free(ref);
}

static void R9_a_drawn_tile_that_does_not_fit_is_followed_by_a_pass(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", "1-12"}, (const unsigned[]){PIP(12), 0}, "3-4", NULL);
    tu_moves(ref, "p1 draw 3-4");
    assert_int_equal(tu_line(ref, "p1 play 3-4 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p2 play 1-12 p1"), ERR_NONE);     /* the pass marked p1's train */
    tu_free(ref);
}

static void R9_already_drawn_for_a_second_draw(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", "5-5"}, (const unsigned[]){PIP(12), 0}, "3-4 6-7 8-9", NULL);
    tu_moves(ref, "p1 draw 3-4");
    assert_int_equal(tu_line(ref, "p1 draw 6-7"), ERR_ALREADY_DRAWN);
    assert_string_equal(tu_last()->rule, "R9");
    assert_int_equal(tu_line(ref, "p1 draw 5-5"), ERR_ALREADY_DRAWN);   /* before not-in-boneyard */
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_ALREADY_DRAWN);
    tu_free(ref);
}

static void R9_each_play_has_its_own_draw(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", ""}, (const unsigned[]){PIP(12), PIP(12)}, "3-4 6-7 8-9", NULL);
    tu_moves(ref, "p1 draw 3-4\np1 pass\np2 draw 6-7\np2 pass\np1 draw 8-9\np1 pass");
    tu_free(ref);
}

/* ---- [R10] nothing to play, nothing to draw: pass ---- */

/* Eight players, ten tiles in the boneyard. p1..p6 hold no 12 and draw and pass; p7 and p8
 * hold the 12s and open their own trains; p1..p4 draw four more. The tenth and last tile,
 * `last`, is drawn by p4, who is still to play or pass: the boneyard is empty. */
static struct referee *empty_boneyard_table(const char *last)
{
    struct referee *ref = start("players 8");
    char keep[80];
    snprintf(keep, sizeof keep, "1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 1-10 %s", last);
    bool last_is_a_12 = strstr(last, "12") != NULL;
    const char *p8 = last_is_a_12 ? "0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12"
                                  : "0-12 1-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12 9-12";
    tu_deal(ref, (const char *const[]){"", "", "", "", "", "", "10-12 11-12", p8},
            (const unsigned[]){PIP(12), PIP(12), PIP(12), PIP(12), PIP(12), PIP(12), 0, 0}, keep, NULL);
    tu_moves(ref, "p1 draw 1-2\np1 pass\np2 draw 1-3\np2 pass\np3 draw 1-4\np3 pass\n"
                  "p4 draw 1-5\np4 pass\np5 draw 1-6\np5 pass\np6 draw 1-7\np6 pass\n"
                  "p7 play 10-12 p7\np8 play 0-12 p8\n"
                  "p1 draw 1-8\np1 pass\np2 draw 1-9\np2 pass\np3 draw 1-10\np3 pass");
    char draw[32];
    snprintf(draw, sizeof draw, "p4 draw %s", last);
    tu_moves(ref, draw);
    assert_true(tileset_is_empty(ref->game.boneyard));
    return ref;
}

static void R10_boneyard_empty_for_a_draw_and_a_pass_without_one(void **state)
{
    (void)state;
    struct referee *ref = empty_boneyard_table("2-3");
    tu_moves(ref, "p4 pass");
    assert_int_equal(tu_line(ref, "p5 draw 2-3"), ERR_BONEYARD_EMPTY);   /* before not-in-boneyard */
    assert_string_equal(tu_last()->rule, "R10");
    assert_int_equal(tu_line(ref, "p5 draw 12-12"), ERR_BONEYARD_EMPTY);
    assert_int_equal(tu_line(ref, "p5 pass"), ERR_NONE);
    assert_false(tu_last()->round_ended);
    assert_int_equal(tu_line(ref, "p6 pass"), ERR_NONE);
    assert_true(ref->game.trains[5].marker);
    assert_int_equal(tu_line(ref, "p7 pass"), ERR_MUST_PLAY);          /* p7 holds 11-12 */
    tu_free(ref);
}

static void R10_already_drawn_beats_boneyard_empty(void **state)
{
    (void)state;
    struct referee *ref = empty_boneyard_table("2-3");
    assert_int_equal(tu_line(ref, "p4 draw 2-4"), ERR_ALREADY_DRAWN);
    assert_int_equal(tu_line(ref, "p4 draw 2-3"), ERR_ALREADY_DRAWN);
    tu_free(ref);
}

static void R10_must_play_beats_already_drawn_and_boneyard_empty(void **state)
{
    (void)state;
    struct referee *ref = empty_boneyard_table("9-12");
    assert_int_equal(tu_line(ref, "p4 draw 2-3"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p4 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p4 play 9-12 p4"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p5 pass"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R11] passing and the marker ---- */

static void R11_a_pass_marks_the_train_and_opens_it_to_all(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    tu_deal(ref, (const char *const[]){"", "3-12", "4-12"}, (const unsigned[]){PIP(12), 0, 0}, "5-6", NULL);
    assert_false(ref->game.trains[0].marker);
    tu_moves(ref, "p1 draw 5-6\np1 pass");
    assert_true(ref->game.trains[0].marker);
    assert_int_equal(tu_line(ref, "p2 play 3-12 p3"), ERR_TRAIN_CLOSED);
    assert_int_equal(tu_line(ref, "p2 play 3-12 p1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "p3 play 4-3 p1"), ERR_NONE);
    tu_free(ref);
}

static void R11_must_play_for_a_pass_with_a_playable_tile(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"1-12", ""}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);    /* before must-draw: nothing drawn yet */
    assert_string_equal(tu_last()->rule, "R11");
    tu_free(ref);
}

static void R11_must_draw_for_a_pass_before_the_draw(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", ""}, (const unsigned[]){PIP(12), 0}, "3-4", NULL);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_DRAW);
    assert_string_equal(tu_last()->rule, "R11");
    assert_false(ref->game.trains[0].marker);
    tu_moves(ref, "p1 draw 3-4");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R12] a marker stays until its owner plays on their own train ---- */

static void R12_a_marker_stays_until_its_owner_plays_on_their_own_train(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    tu_deal(ref, (const char *const[]){"3-5 4-9", "5-12 7-8 4-10", "7-12 8-9"},
            (const unsigned[]){PIP(12), 0, 0}, "1-2", NULL);
    tu_moves(ref, "p1 draw 1-2\np1 pass\n"          /* p1's train: marked, at 12 */
                  "p2 play 5-12 mex\n"
                  "p3 play 7-12 p1\n"                /* on p1's marked train: the marker stays */
                  "p1 play 5-3 mex\n"                /* p1 plays elsewhere: it stays */
                  "p2 play 7-8 p1\n"
                  "p3 play 8-9 p1\n"
                  "p1 play 9-4 p1");                 /* on its own train: gone */
    assert_false(ref->game.trains[0].marker);
    assert_int_equal(tu_line(ref, "p2 play 4-10 p1"), ERR_TRAIN_CLOSED);
    tu_free(ref);
}

/* A double on the Mexican train that its layer cannot cover: the pass marks their own
 * train [R16], never the Mexican train where the double lies [R12]. */
static void R12_no_marker_on_the_mexican_train(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5", "1-12"}, (const unsigned[]){PIP(5) | PIP(12), 0}, "3-4", NULL);
    tu_moves(ref, "p1 play 12-5 mex\np2 play 12-1 p2\np1 play 5-5 mex\np1 draw 3-4\np1 pass");
    assert_true(ref->game.trains[0].marker);
    assert_false(ref->game.trains[TRAIN_MEX].marker);
    char *out = NULL;
    /* what a player sees: p1's train marked, the Mexican train not */
    struct response resp;
    referee_line(ref, "show", 4, false, 99, &resp);
    FILE *mem = open_memstream(&out, &(size_t){0});
    output_response(mem, OUTPUT_TEXT, &ref->game, &resp);
    fclose(mem);
    assert_non_null(strstr(out, "  train p1               open 12 marked |\n"));
    assert_non_null(strstr(out, "  train mex              open  5        | 12-5 5-5\n"));
    free(out);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R7_no_match_when_the_tile_lacks_the_open_end_pip),
        cmocka_unit_test(R7_the_other_pip_becomes_the_open_end),
        cmocka_unit_test(R7_exactly_one_tile_a_turn),
        cmocka_unit_test(R7_the_first_turn_of_a_round_is_a_play_too),
        cmocka_unit_test(R7_train_closed_for_another_players_unmarked_train),
        cmocka_unit_test(R7_not_in_hand_beats_train_closed_beats_no_match),
        cmocka_unit_test(R8_must_play_when_drawing_with_a_tile_for_the_own_train),
        cmocka_unit_test(R8_must_play_when_drawing_with_a_tile_for_mex_only),
        cmocka_unit_test(R8_must_play_when_drawing_with_a_tile_for_a_marked_train_only),
        cmocka_unit_test(R8_a_tile_that_fits_only_a_closed_train_does_not_stop_a_draw),
        cmocka_unit_test(R8_must_play_beats_not_in_boneyard),
        cmocka_unit_test(R9_a_drawn_tile_that_fits_must_be_played),
        cmocka_unit_test(R9_a_drawn_tile_that_does_not_fit_is_followed_by_a_pass),
        cmocka_unit_test(R9_already_drawn_for_a_second_draw),
        cmocka_unit_test(R9_each_play_has_its_own_draw),
        cmocka_unit_test(R10_boneyard_empty_for_a_draw_and_a_pass_without_one),
        cmocka_unit_test(R10_already_drawn_beats_boneyard_empty),
        cmocka_unit_test(R10_must_play_beats_already_drawn_and_boneyard_empty),
        cmocka_unit_test(R11_a_pass_marks_the_train_and_opens_it_to_all),
        cmocka_unit_test(R11_must_play_for_a_pass_with_a_playable_tile),
        cmocka_unit_test(R11_must_draw_for_a_pass_before_the_draw),
        cmocka_unit_test(R12_a_marker_stays_until_its_owner_plays_on_their_own_train),
        cmocka_unit_test(R12_no_marker_on_the_mexican_train),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
