/* [R1]-[R6], the deal checks of [R23] and [R24]: the set, the table, the match, deals, turns. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "deal.h"

static struct referee *start(const char *setup)
{
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, setup);
    return ref;
}

/* "deal NAME" and count tiles of the set in tile order from index first, skipping 12-12. */
static const char *deal_line(char *buf, size_t size, const char *name, int first, int count)
{
    int len = snprintf(buf, size, "deal %s", name);
    for (tile_t t = 0; t < TILE_CANONICAL_COUNT && count > 0; t++) {
        if (t == tile_double(12)) continue;
        if (first > 0) { first--; continue; }
        char text[TILE_TEXT_SIZE];
        tile_format(t, text);
        len += snprintf(buf + len, size - (size_t)len, " %s", text);
        count--;
    }
    return buf;
}

/* Empty lists for tu_deal: no tile fixed, no pip avoided. */
static const char *const none8[8] = {"", "", "", "", "", "", "", ""};
static const unsigned free8[8] = {0};

/* ---- [R1] the set ---- */

static void R1_a_tile_is_worth_its_pips_and_0_0_nothing(void **state)
{
    (void)state;
    struct rules r;
    rules_init_canonical(&r);
    struct game g;
    game_init(&g, &r);
    assert_int_equal(game_hand_value(&g, tu_tiles("0-0")), 0);
    assert_int_equal(game_hand_value(&g, tu_tiles("12-11")), 23);
    assert_int_equal(game_hand_value(&g, tu_tiles("0-0 5-12 3-3 0-1")), 24);
    assert_int_equal(game_hand_value(&g, tu_tiles("12-12")), 24);
    assert_int_equal(game_hand_value(&g, tu_tiles("6-6 0-12 1-1")), 26);
    /* the whole set: each pip 0..12 shows 14 times on the 91 tiles, 14 * 78 */
    assert_int_equal(game_hand_value(&g, tileset_all()), 1092);
}

static void R1_pips_above_12_are_not_tiles(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "deal p1 0-13 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3"),
                     ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "p1 play 13-12 mex"), ERR_SYNTAX);
    tu_free(ref);
}

static void R1_R5_the_91_tiles_are_the_hands_the_boneyard_and_the_engine(void **state)
{
    (void)state;
    const int boneyard[9] = {0, 0, 60, 45, 30, 30, 18, 20, 10};
    for (int n = 2; n <= 8; n++) {
        char setup[32];
        snprintf(setup, sizeof setup, "players %d", n);
        struct referee *ref = start(setup);
        tu_deal(ref, none8, free8, NULL, NULL);
        assert_int_equal(tileset_count(ref->game.boneyard), boneyard[n]);
        assert_true(game_tiles_conserved(&ref->game));
        tu_free(ref);
    }
}

/* ---- [R2] the table ---- */

static void R2_two_to_eight_players_else_syntax(void **state)
{
    (void)state;
    struct referee *ref = start("");
    assert_int_equal(tu_line(ref, "players 1"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players x y x"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players ana"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players 9"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players a b c d e f g h i"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players 0"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players 2"), ERR_NONE);
    assert_int_equal(tu_line(ref, "players a b c d e f g h"), ERR_NONE);
    assert_int_equal(ref->game.nplayers, 8);
    assert_int_equal(tu_line(ref, "players 8"), ERR_NONE);
    tu_free(ref);
}

static void R2_seats_in_the_order_listed_and_play_wraps_around(void **state)
{
    (void)state;
    struct referee *ref = start("players cid ana bob");
    tu_deal(ref, (const char *const[]){"1-12 1-4", "2-12", "3-12"}, (const unsigned[]){0, 0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "ana play 2-12 ana"), ERR_NOT_YOUR_TURN);
    tu_moves(ref, "cid play 1-12 cid");
    assert_int_equal(tu_line(ref, "bob play 3-12 bob"), ERR_NOT_YOUR_TURN);
    tu_moves(ref, "ana play 2-12 ana\nbob play 3-12 bob");
    assert_int_equal(tu_line(ref, "ana pass"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "cid play 1-4 cid"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R3] the match ---- */

static void R3_a_match_is_13_7_or_1_rounds(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(ref->game.rounds, 13);
    const char *bad[] = {"rounds 0", "rounds 2", "rounds 5", "rounds 6", "rounds 8", "rounds 12",
                         "rounds 14", "rounds 26", "rounds 99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_int_equal(tu_line(ref, bad[i]), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_NONE);
    assert_int_equal(ref->game.rounds, 7);
    assert_int_equal(tu_line(ref, "rounds 1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "rounds 13"), ERR_NONE);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_NONE);   /* the last one stands */
    assert_int_equal(ref->game.rounds, 7);
    tu_free(ref);
}

static void R3_round_1_is_played_from_the_12_12_engine(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"11-11 5-11 5-12", ""}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 play 11-11 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 5-11 mex"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 5-12 mex"), ERR_NONE);
    tu_free(ref);
}

static void R3_round_mismatch_names_the_wrong_round(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "round 1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "round 2"), ERR_ROUND_MISMATCH);
    assert_int_equal(tu_line(ref, "round 0"), ERR_ROUND_MISMATCH);
    assert_int_equal(tu_line(ref, "round 0001"), ERR_NONE);
    /* round N keeps set-up open */
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_NONE);
    tu_deal(ref, none8, free8, NULL, NULL);
    assert_int_equal(tu_line(ref, "round 13"), ERR_ROUND_MISMATCH);
    assert_int_equal(tu_line(ref, "round 1"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R4] the first player ---- */

static void R4_round_1_opens_at_the_first_seat(void **state)
{
    (void)state;
    struct referee *ref = start("players 4");
    tu_deal(ref, (const char *const[]){"1-12", "2-12", "3-12", "4-12"}, (const unsigned[]){0, 0, 0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p2 play 2-12 p2"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p4 play 4-12 p4"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p1 play 1-12 p1"), ERR_NONE);
    tu_free(ref);
}

/* ---- [R5] the deal ---- */

static void R5_hand_size_is_15_12_or_10_by_table_size(void **state)
{
    (void)state;
    const int size[9] = {0, 0, 15, 15, 15, 12, 12, 10, 10};
    for (int n = 2; n <= 8; n++) {
        char setup[32], line[400];
        snprintf(setup, sizeof setup, "players %d", n);
        struct referee *ref = start(setup);
        assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 0, size[n] - 1)), ERR_BAD_DEAL);
        assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 0, size[n] + 1)), ERR_BAD_DEAL);
        for (int s = 0; s < n; s++) {
            char name[8];
            snprintf(name, sizeof name, "p%d", s + 1);
            assert_int_equal(tu_line(ref, deal_line(line, sizeof line, name, s * size[n], size[n])), ERR_NONE);
        }
        assert_int_equal(tileset_count(ref->game.boneyard), 90 - n * size[n]);
        tu_free(ref);
    }
}

static void R5_bad_deal_when_the_engine_is_dealt(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "deal p1 12-12 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-2"),
                     ERR_BAD_DEAL);
    assert_string_equal(tu_last()->rule, "R5");
    tu_free(ref);
}

static void R5_the_engine_is_not_in_the_boneyard(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, none8, (const unsigned[]){TU_PIP(12), TU_PIP(12)}, "3-4", NULL);
    assert_int_equal(tu_line(ref, "p1 draw 12-12"), ERR_NOT_IN_BONEYARD);
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_NONE);
    tu_free(ref);
}

static void R5_the_boneyard_is_what_the_hands_left(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    tileset hands[3];
    tu_deal(ref, (const char *const[]){"", "0-1", ""}, (const unsigned[]){TU_PIP(12), 0, 0}, NULL, hands);
    tileset rest = tileset_minus(tileset_all(), tu_tiles("12-12"));
    for (int s = 0; s < 3; s++) rest = tileset_minus(rest, hands[s]);
    assert_true(tileset_equal(ref->game.boneyard, rest));
    assert_int_equal(tu_line(ref, "p1 draw 0-1"), ERR_NOT_IN_BONEYARD);      /* in p2's hand */
    char line[32], text[TILE_TEXT_SIZE];
    tile_format(tileset_first(rest), text);
    snprintf(line, sizeof line, "p1 draw %s", text);
    assert_int_equal(tu_line(ref, line), ERR_NONE);
    tu_free(ref);
}

/* ---- [R6] the trains ---- */

static void R6_every_train_starts_at_the_engine_and_mex_belongs_to_all(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    tu_deal(ref, (const char *const[]){"5-12 4-12", "8-12 5-9", "7-12 3-12"}, (const unsigned[]){0, 0, 0},
            NULL, NULL);
    tu_moves(ref, "p1 play 5-12 mex");        /* mex: open end 5 now */
    assert_int_equal(tu_line(ref, "p2 play 8-12 mex"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p2 play 8-12 p3"), ERR_TRAIN_CLOSED);
    tu_moves(ref, "p2 play 5-9 mex");         /* everyone's */
    tu_moves(ref, "p3 play 7-12 p3");         /* own train: still at the engine */
    assert_int_equal(tu_line(ref, "p1 play 4-12 p2"), ERR_TRAIN_CLOSED);
    assert_int_equal(tu_line(ref, "p1 play 4-12 p1"), ERR_NONE);
    assert_int_equal(ref->game.trains[TRAIN_MEX].open_pip, 9);
    assert_int_equal(ref->game.trains[0].open_pip, 4);
    assert_int_equal(ref->game.trains[1].open_pip, 12);
    assert_int_equal(ref->game.trains[2].open_pip, 7);
    tu_free(ref);
}

static void R6_an_empty_train_is_open_at_the_engine_pip(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"0-5", "0-12"}, (const unsigned[]){TU_PIP(12), 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 play 0-5 p1"), ERR_NO_MATCH);
    assert_int_equal(tu_line(ref, "p1 play 0-5 mex"), ERR_NO_MATCH);
    tu_free(ref);
}

/* ---- [R23] deals and where tiles are ---- */

static void R23_bad_deal_for_a_tile_twice_in_a_hand(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "deal p1 0-1 1-0 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-2"),
                     ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "deal p1 0-1 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1"),
                     ERR_BAD_DEAL);
    tu_free(ref);
}

static void R23_bad_deal_for_a_tile_dealt_to_two_players(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    char line[400];
    tu_feed(ref, deal_line(line, sizeof line, "p2", 0, 15));
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 14, 15)), ERR_BAD_DEAL);
    assert_string_equal(tu_last()->rule, "R23");
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 15, 15)), ERR_NONE);
    tu_free(ref);
}

static void R23_bad_deal_for_a_second_deal_or_an_empty_one(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    char line[400];
    assert_int_equal(tu_line(ref, "deal p1"), ERR_BAD_DEAL);
    tu_feed(ref, deal_line(line, sizeof line, "p1", 0, 15));
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 30, 15)), ERR_BAD_DEAL);
    tu_feed(ref, deal_line(line, sizeof line, "p2", 15, 15));
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p2", 45, 15)), ERR_BAD_DEAL);
    tu_free(ref);
}

static void R23_bad_deal_for_a_deal_line_in_a_seeded_match(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nseed 7");
    char line[400];
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 0, 15)), ERR_BAD_DEAL);
    tu_free(ref);
}

static void R23_bad_deal_for_a_move_before_every_hand_is_dealt(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    char line[400];
    assert_int_equal(tu_line(ref, "p1 play 0-12 mex"), ERR_BAD_DEAL);
    tu_feed(ref, deal_line(line, sizeof line, "p3", 0, 15));    /* any order */
    tu_feed(ref, deal_line(line, sizeof line, "p1", 15, 15));
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "p1 draw 9-9"), ERR_BAD_DEAL);
    tu_feed(ref, deal_line(line, sizeof line, "p2", 30, 15));
    assert_int_equal(tu_line(ref, "p1 draw 9-9"), ERR_MUST_PLAY);     /* p1 holds 1-12 */
    tu_free(ref);
}

static void R23_a_rejected_deal_changes_nothing(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    char line[400];
    tu_feed(ref, deal_line(line, sizeof line, "p1", 0, 15));
    /* p2's hand holds a tile of p1's (the last one): rejected, and p2 is still to deal */
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p2", 14, 15)), ERR_BAD_DEAL);
    assert_false(ref->game.dealt[1]);
    assert_int_equal(tileset_count(ref->game.hands[1]), 0);
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p2", 15, 15)), ERR_NONE);
    tu_free(ref);
    /* a rejected first deal does not close set-up either */
    ref = start("players 2");
    assert_int_equal(tu_line(ref, deal_line(line, sizeof line, "p1", 0, 14)), ERR_BAD_DEAL);
    assert_true(game_setup_open(&ref->game));
    assert_int_equal(tu_line(ref, "rounds 1"), ERR_NONE);
    tu_free(ref);
}

static void R23_not_in_boneyard_for_a_tile_in_a_hand_or_on_a_train(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12", "3-4"}, (const unsigned[]){0, TU_PIP(12) | TU_PIP(5)}, "6-7",
            NULL);
    tu_moves(ref, "p1 play 5-12 p1");
    assert_int_equal(tu_line(ref, "p2 draw 3-4"), ERR_NOT_IN_BONEYARD);    /* own hand */
    assert_int_equal(tu_line(ref, "p2 draw 12-5"), ERR_NOT_IN_BONEYARD);   /* on p1's train */
    assert_int_equal(tu_line(ref, "p2 draw 12-12"), ERR_NOT_IN_BONEYARD);  /* the engine */
    assert_string_equal(tu_last()->rule, "R23");
    assert_int_equal(tu_line(ref, "p2 draw 7-6"), ERR_NONE);
    assert_true(game_tiles_conserved(&ref->game));
    tu_free(ref);
}

static void R23_not_in_hand_for_a_tile_held_elsewhere(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"5-12", "4-12"}, (const unsigned[]){0, 0}, "6-12", NULL);
    assert_int_equal(tu_line(ref, "p1 play 4-12 p1"), ERR_NOT_IN_HAND);    /* p2's */
    assert_int_equal(tu_line(ref, "p1 play 6-12 p1"), ERR_NOT_IN_HAND);    /* boneyard */
    assert_int_equal(tu_line(ref, "p1 play 12-12 p1"), ERR_NOT_IN_HAND);   /* engine */
    tu_moves(ref, "p1 play 5-12 p1");
    assert_int_equal(tu_line(ref, "p2 play 5-12 mex"), ERR_NOT_IN_HAND);   /* on a train */
    tu_free(ref);
}

/* ---- [R24] who may act, and when ---- */

static void R24_not_your_turn_for_any_move_by_another_player(void **state)
{
    (void)state;
    struct referee *ref = start("players 3");
    tu_deal(ref, (const char *const[]){"1-12", "2-12", "3-12"}, (const unsigned[]){0, 0, 0}, "4-5", NULL);
    assert_int_equal(tu_line(ref, "p2 play 2-12 p2"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p3 draw 4-5"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_NOT_YOUR_TURN);
    assert_string_equal(tu_last()->rule, "R24");
    tu_free(ref);
}

/* p1 goes out in a one-round match: 12-0, then double and cover six times, 6-7 and 7-7.
 * p2 holds no 12 and draws and passes meanwhile. */
static void play_out_one_round(struct referee *ref, bool last_round)
{
    tu_deal(ref, (const char *const[]){"0-12 0-0 0-1 1-1 1-2 2-2 2-3 3-3 3-4 4-4 4-5 5-5 5-6 6-7 7-7", ""},
            (const unsigned[]){0, TU_PIP(12)}, "8-9 8-10 8-11 9-10 9-11 10-11 10-10 11-11", NULL);
    tu_moves(ref, "p1 play 0-12 p1\np2 draw 8-9\np2 pass\n"
                  "p1 play 0-0 p1\np1 play 0-1 p1\np2 draw 8-10\np2 pass\n"
                  "p1 play 1-1 p1\np1 play 1-2 p1\np2 draw 8-11\np2 pass\n"
                  "p1 play 2-2 p1\np1 play 2-3 p1\np2 draw 9-10\np2 pass\n"
                  "p1 play 3-3 p1\np1 play 3-4 p1\np2 draw 9-11\np2 pass\n"
                  "p1 play 4-4 p1\np1 play 4-5 p1\np2 draw 10-11\np2 pass\n"
                  "p1 play 5-5 p1\np1 play 5-6 p1\np2 draw 10-10\np2 pass\n"
                  "p1 play 6-7 p1\np2 draw 11-11\np2 pass");
    assert_int_equal(tu_line(ref, "p1 play 7-7 p1"), ERR_NONE);
    assert_true(tu_last()->round_ended);
    assert_true(tu_last()->match_ended == last_round);
}

static void R24_game_over_for_anything_but_queries_and_players_after_the_match(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    play_out_one_round(ref, true);
    const char *lines[] = {"p2 pass", "p2 draw 9-9", "p1 play 9-9 mex", "deal p1 0-1", "round 1", "round 2",
                           "rounds 7", "seed 3"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_equal(tu_line(ref, lines[i]), ERR_GAME_OVER);
        assert_false(tu_last()->round_ended);
    }
    assert_int_equal(tu_line(ref, "show"), ERR_NONE);
    assert_int_equal(tu_line(ref, "legal"), ERR_NONE);
    /* precedence: syntax before game-over; game-over before unknown-player and setup-closed */
    assert_int_equal(tu_line(ref, "p2 play 9-99 mex"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "zed pass"), ERR_GAME_OVER);
    assert_int_equal(tu_line(ref, "deal zed 0-1"), ERR_GAME_OVER);
    assert_int_equal(tu_line(ref, "players 1"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "players x y x"), ERR_SYNTAX);
    /* a players line starts the next match, with nothing carried over */
    assert_int_equal(tu_line(ref, "players x y z"), ERR_NONE);
    assert_int_equal(ref->game.nplayers, 3);
    assert_int_equal(ref->game.rounds, 13);
    assert_int_equal(ref->game.totals[1], 0);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_NONE);
    tu_free(ref);
}

/* protocol.md: after a match, a rules line starts the next one too, under those
 * rules (so a ten-player match can follow another); one that fails changes nothing. */
static void R24_a_rules_line_after_the_match_starts_the_next_under_its_rules(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    play_out_one_round(ref, true);
    assert_true(game_is_over(&ref->game));
    assert_int_equal(tu_line(ref, "rules no-such-file"), ERR_RULES);
    assert_true(game_is_over(&ref->game));
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_GAME_OVER);
    assert_int_equal(tu_line(ref, "rules ten-players"), ERR_NONE);
    assert_false(game_is_over(&ref->game));
    assert_true(game_setup_open(&ref->game));
    assert_int_equal(ref->game.nplayers, 0);
    assert_int_equal(ref->game.rules->max_players, 10);
    assert_int_equal(tu_line(ref, "players 10"), ERR_NONE);
    assert_int_equal(ref->game.totals[1], 0);
    assert_int_equal(tu_line(ref, "rules double-blank-50"), ERR_NONE);
    assert_int_equal(ref->game.rules->tile_value[0], 50);
    assert_int_equal(ref->game.rules->max_players, 10);
    tu_free(ref);
}

static void R24_nothing_is_played_between_rounds_until_the_next_deal(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 7");
    play_out_one_round(ref, false);
    assert_false(game_is_over(&ref->game));
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "p1 play 3-11 mex"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "round 1"), ERR_ROUND_MISMATCH);
    assert_int_equal(tu_line(ref, "round 2"), ERR_NONE);
    tu_free(ref);
}

/* ---- set-up, and the precedence of the checks before the move itself ---- */

static void R24_setup_closed_once_a_deal_or_move_was_accepted(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 7\nplayers ana bob\nseed 5\nseed 6");
    /* the last seed stands: the table is the one seed 6 deals, not seed 5's */
    struct referee *six = start("players ana bob\nrounds 7\nseed 6"), *five = start("players ana bob\nrounds 7\nseed 5");
    struct game table, want, other;
    game_snapshot(&ref->game, &table);
    game_snapshot(&six->game, &want);
    game_snapshot(&five->game, &other);
    assert_true(tileset_equal(table.hands[0], want.hands[0]) && tileset_equal(table.hands[1], want.hands[1]));
    assert_false(tileset_equal(table.hands[0], other.hands[0]));
    tu_free(six);
    tu_free(five);
    assert_int_equal(tu_line(ref, "show"), ERR_NONE);
    assert_int_equal(tu_line(ref, "round 1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "rounds 1"), ERR_NONE);     /* queries and round N keep it open */
    assert_int_equal(tu_line(ref, "bob pass"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_NONE);     /* a rejected move keeps it open */
    struct referee *dealt = start("players 2");
    tu_deal(dealt, none8, free8, NULL, NULL);
    assert_int_equal(tu_line(dealt, "players 3"), ERR_SETUP_CLOSED);
    assert_int_equal(tu_line(dealt, "rounds 7"), ERR_SETUP_CLOSED);
    assert_int_equal(tu_line(dealt, "seed 1"), ERR_SETUP_CLOSED);
    assert_int_equal(tu_line(dealt, "rules double-blank-50"), ERR_SETUP_CLOSED);
    assert_int_equal(tu_line(dealt, "rounds 5"), ERR_SYNTAX);     /* syntax comes first */
    assert_int_equal(tu_line(dealt, "players 9"), ERR_SYNTAX);
    assert_int_equal(tu_line(dealt, "players ana ana"), ERR_SYNTAX);   /* a name twice is syntax too */
    assert_string_equal(tu_last()->message, "ana is named twice");
    /* one accepted deal line is enough to close it */
    struct referee *half = start("players 2");
    char line[400];
    tu_feed(half, deal_line(line, sizeof line, "p1", 0, 15));
    assert_int_equal(tu_line(half, "rounds 1"), ERR_SETUP_CLOSED);
    /* and one accepted seeded move */
    struct move m[GAME_MAX_LEGAL];
    struct game snap;
    game_snapshot(&ref->game, &snap);
    assert_true(game_legal_moves(&snap, m, GAME_MAX_LEGAL) > 0);
    char text[OUTPUT_MOVE_SIZE];
    output_format_move(&snap, &m[0], text);
    assert_int_equal(tu_line(ref, text), ERR_NONE);
    assert_int_equal(tu_line(ref, "rounds 7"), ERR_SETUP_CLOSED);
    tu_free(half);
    tu_free(dealt);
    tu_free(ref);
}

static void R2_unknown_player_for_a_name_not_at_the_table(void **state)
{
    (void)state;
    struct referee *ref = start("");
    assert_int_equal(tu_line(ref, "deal ana 0-1"), ERR_UNKNOWN_PLAYER);   /* before any players line */
    assert_int_equal(tu_line(ref, "ana pass"), ERR_UNKNOWN_PLAYER);
    tu_feed(ref, "players ana bob");
    assert_int_equal(tu_line(ref, "deal cid 0-1"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "Ana pass"), ERR_UNKNOWN_PLAYER);        /* names are case-sensitive */
    tu_deal(ref, (const char *const[]){"1-12", ""}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "ana play 1-12 cid"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "cid draw 0-0"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "ana play 1-12 ana"), ERR_NONE);
    tu_free(ref);
}

static void R2_unknown_player_the_actor_before_the_train(void **state)
{
    (void)state;
    struct referee *ref = start("players ana bob");
    tu_deal(ref, none8, free8, NULL, NULL);
    assert_int_equal(tu_line(ref, "zed play 1-12 zoe"), ERR_UNKNOWN_PLAYER);
    assert_non_null(strstr(tu_last()->message, "zed"));
    assert_null(strstr(tu_last()->message, "zoe"));
    tu_free(ref);
}

static void R24_precedence_round_mismatch_unknown_player_bad_deal_not_your_turn(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    /* unknown-player before bad-deal: a move by a stranger before the hands are in */
    assert_int_equal(tu_line(ref, "zed pass"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "p1 play 1-12 zed"), ERR_UNKNOWN_PLAYER);
    /* bad-deal before not-your-turn */
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "p2 play 9-9 p1"), ERR_BAD_DEAL);
    tu_deal(ref, (const char *const[]){"", "9-9 1-12"}, (const unsigned[]){0, 0}, "2-3", NULL);
    /* not-your-turn before everything about the move itself */
    assert_int_equal(tu_line(ref, "p2 play 5-5 p1"), ERR_NOT_YOUR_TURN);     /* not held, closed, no match */
    assert_int_equal(tu_line(ref, "p2 draw 2-3"), ERR_NOT_YOUR_TURN);        /* p2 could play, too */
    assert_int_equal(tu_line(ref, "p2 draw 9-9"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p2 play 1-12 zed"), ERR_UNKNOWN_PLAYER);  /* the train before the turn */
    /* bad-deal on a second deal is still bad-deal, a stranger's deal unknown-player */
    assert_int_equal(tu_line(ref, "deal p2 0-0"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "deal zed 0-0"), ERR_UNKNOWN_PLAYER);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R1_a_tile_is_worth_its_pips_and_0_0_nothing),
        cmocka_unit_test(R1_pips_above_12_are_not_tiles),
        cmocka_unit_test(R1_R5_the_91_tiles_are_the_hands_the_boneyard_and_the_engine),
        cmocka_unit_test(R2_two_to_eight_players_else_syntax),
        cmocka_unit_test(R2_seats_in_the_order_listed_and_play_wraps_around),
        cmocka_unit_test(R2_unknown_player_for_a_name_not_at_the_table),
        cmocka_unit_test(R2_unknown_player_the_actor_before_the_train),
        cmocka_unit_test(R3_a_match_is_13_7_or_1_rounds),
        cmocka_unit_test(R3_round_1_is_played_from_the_12_12_engine),
        cmocka_unit_test(R3_round_mismatch_names_the_wrong_round),
        cmocka_unit_test(R4_round_1_opens_at_the_first_seat),
        cmocka_unit_test(R5_hand_size_is_15_12_or_10_by_table_size),
        cmocka_unit_test(R5_bad_deal_when_the_engine_is_dealt),
        cmocka_unit_test(R5_the_engine_is_not_in_the_boneyard),
        cmocka_unit_test(R5_the_boneyard_is_what_the_hands_left),
        cmocka_unit_test(R6_every_train_starts_at_the_engine_and_mex_belongs_to_all),
        cmocka_unit_test(R6_an_empty_train_is_open_at_the_engine_pip),
        cmocka_unit_test(R23_bad_deal_for_a_tile_twice_in_a_hand),
        cmocka_unit_test(R23_bad_deal_for_a_tile_dealt_to_two_players),
        cmocka_unit_test(R23_bad_deal_for_a_second_deal_or_an_empty_one),
        cmocka_unit_test(R23_bad_deal_for_a_deal_line_in_a_seeded_match),
        cmocka_unit_test(R23_bad_deal_for_a_move_before_every_hand_is_dealt),
        cmocka_unit_test(R23_a_rejected_deal_changes_nothing),
        cmocka_unit_test(R23_not_in_boneyard_for_a_tile_in_a_hand_or_on_a_train),
        cmocka_unit_test(R23_not_in_hand_for_a_tile_held_elsewhere),
        cmocka_unit_test(R24_not_your_turn_for_any_move_by_another_player),
        cmocka_unit_test(R24_game_over_for_anything_but_queries_and_players_after_the_match),
        cmocka_unit_test(R24_a_rules_line_after_the_match_starts_the_next_under_its_rules),
        cmocka_unit_test(R24_nothing_is_played_between_rounds_until_the_next_deal),
        cmocka_unit_test(R24_setup_closed_once_a_deal_or_move_was_accepted),
        cmocka_unit_test(R24_precedence_round_mismatch_unknown_player_bad_deal_not_your_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
