/* [R19]-[R22] with [R3][R4]: going out, blocked rounds, penalties, rounds and engines, openers, winners. */
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

#define PIP TU_PIP

static tileset minus(tileset a, const char *list) { return tileset_minus(a, tu_tiles(list)); }
static tileset plus(tileset a, const char *list) { return tileset_or(a, tu_tiles(list)); }

/* ---- [R19] going out ---- */

/* Two players: p1 goes out in eight turns (12-0, then double and cover seven times) or,
 * with on_double, in nine, the last tile being 7-7. p2 holds no 12 and draws and passes
 * meanwhile. Returns p2's hand at the end; leaves the verdict of p1's last play in
 * tu_last(). */
static tileset p1_goes_out(struct referee *ref, bool on_double)
{
    tileset hands[2];
    const char *p1 = on_double ? "0-12 0-0 0-1 1-1 1-2 2-2 2-3 3-3 3-4 4-4 4-5 5-5 5-6 6-7 7-7"
                               : "0-12 0-0 0-1 1-1 1-2 2-2 2-3 3-3 3-4 4-4 4-5 5-5 5-6 6-6 6-7";
    tu_deal(ref, (const char *const[]){p1, ""}, (const unsigned[]){0, PIP(12)},
            "8-9 8-10 8-11 9-10 9-11 10-11 10-10 11-11", hands);
    tu_moves(ref, "p1 play 0-12 p1\np2 draw 8-9\np2 pass\n"
                  "p1 play 0-0 p1\np1 play 0-1 p1\np2 draw 8-10\np2 pass\n"
                  "p1 play 1-1 p1\np1 play 1-2 p1\np2 draw 8-11\np2 pass\n"
                  "p1 play 2-2 p1\np1 play 2-3 p1\np2 draw 9-10\np2 pass\n"
                  "p1 play 3-3 p1\np1 play 3-4 p1\np2 draw 9-11\np2 pass\n"
                  "p1 play 4-4 p1\np1 play 4-5 p1\np2 draw 10-11\np2 pass\n"
                  "p1 play 5-5 p1\np1 play 5-6 p1\np2 draw 10-10\np2 pass");
    tileset p2 = plus(hands[1], "8-9 8-10 8-11 9-10 9-11 10-11 10-10");
    if (on_double) {
        tu_moves(ref, "p1 play 6-7 p1\np2 draw 11-11\np2 pass");
        assert_int_equal(tu_line(ref, "p1 play 7-7 p1"), ERR_NONE);
        return plus(p2, "11-11");
    }
    tu_moves(ref, "p1 play 6-6 p1");
    assert_int_equal(tu_line(ref, "p1 play 6-7 p1"), ERR_NONE);
    return p2;
}

static void R19_R21_R22_going_out_ends_the_round_and_scores_the_hands(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    tileset p2 = p1_goes_out(ref, false);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.round, 1);
    assert_int_equal(v->report.engine_pip, 12);
    assert_int_equal(v->report.out_seat, 0);
    assert_int_equal(v->report.points[0], 0);
    assert_int_equal(v->report.points[1], tu_pips(p2));
    assert_int_equal(ref->game.totals[1], tu_pips(p2));
    assert_true(v->match_ended);
    assert_int_equal(v->nwinners, 1);
    assert_true(v->winners[0]);
    assert_false(v->winners[1]);
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_GAME_OVER);
    tu_free(ref);
}

static void R19_going_out_on_a_double_owes_no_cover(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 7");
    tileset p2 = p1_goes_out(ref, true);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, 0);
    assert_int_equal(v->report.points[1], tu_pips(p2));
    assert_false(v->match_ended);
    /* round 2 waits for its deal: the 11-11 engine, p2 opens [R3][R4] */
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_BAD_DEAL);
    assert_int_equal(tu_line(ref, "round 2"), ERR_NONE);
    assert_int_equal(tu_line(ref, "deal p1 11-11 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-2"),
                     ERR_BAD_DEAL);
    tu_deal(ref, (const char *const[]){"11-12 12-12", "10-11"}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "p1 play 11-12 p1"), ERR_NOT_YOUR_TURN);
    assert_int_equal(tu_line(ref, "p2 play 11-10 p2"), ERR_NONE);
    assert_int_equal(ref->game.totals[1], tu_pips(p2));
    tu_free(ref);
}

/* ---- [R20] blocked rounds ---- */

/* Two players put all thirteen 0s on the trains, the last being 0-0 on p2's train (p1
 * draws 1-1 and passes just before); then nobody can cover it. Returns the hands as
 * dealt. */
static const char *const dd_p1 = "1-12 0-12 9-10 0-11 0-1 0-2 2-3 0-3 0-4";
static const char *const dd_p2 = "5-12 0-9 0-10 8-11 0-8 0-5 0-6 6-7 0-7 0-0";

static void dd_deal(struct referee *ref, tileset hands[2])
{
    tu_deal(ref, (const char *const[]){dd_p1, dd_p2}, (const unsigned[]){PIP(0) | PIP(4), PIP(0)}, "1-1", hands);
    tu_moves(ref, "p1 play 1-12 p1\np2 play 5-12 p2\n"
                  "p1 play 12-0 mex\np2 play 0-9 mex\np1 play 9-10 mex\np2 play 10-0 mex\n"
                  "p1 play 0-11 mex\np2 play 11-8 mex\np1 play 1-0 p1\np2 play 8-0 mex\n"
                  "p1 play 0-2 p1\np2 play 5-0 p2\np1 play 2-3 p1\np2 play 0-6 p2\n"
                  "p1 play 3-0 p1\np2 play 6-7 p2\np1 play 0-4 p1\np2 play 7-0 p2\n"
                  "p1 draw 1-1\np1 pass\n"
                  "p2 play 0-0 p2");
}

/* The drain: p2 draws to[1]'s tiles and p1 to[0]'s, alternately, p2 first, each then
 * passing, until the boneyard is empty; p2's last pass is left in tu_last(). */
static void dd_drain(struct referee *ref, tileset to[2])
{
    tileset left[2] = {to[0], to[1]};
    assert_int_equal(tileset_count(left[0]) + tileset_count(left[1]), tileset_count(ref->game.boneyard));
    for (int seat = 1; !tileset_is_empty(left[0]) || !tileset_is_empty(left[1]); seat = 1 - seat) {
        tile_t t = tileset_pop(&left[seat]);
        assert_int_not_equal(t, TILE_NONE);
        char line[40], text[TILE_TEXT_SIZE];
        tile_format(t, text);
        snprintf(line, sizeof line, "p%d draw %s", seat + 1, text);
        tu_moves(ref, line);
        snprintf(line, sizeof line, "p%d pass", seat + 1);
        if (tileset_is_empty(left[0]) && tileset_is_empty(left[1])) {
            assert_int_equal(tu_line(ref, line), ERR_NONE);
            return;
        }
        tu_moves(ref, line);
    }
}

static void R20_R21_blocked_at_the_pass_that_ends_a_turn_with_a_double_nobody_can_cover(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    tileset hands[2];
    dd_deal(ref, hands);
    assert_int_equal(tu_line(ref, "p2 play 0-7 p1"), ERR_NOT_IN_HAND);
    /* the boneyard in tile order: its first 30 to p2, the rest to p1 */
    tileset rest = ref->game.boneyard, to[2] = {tileset_empty(), tileset_empty()};
    for (int i = 0; !tileset_is_empty(rest); i++) tileset_add(&to[i < 30 ? 1 : 0], tileset_pop(&rest));
    assert_int_equal(tileset_count(to[0]), 29);
    dd_drain(ref, to);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, -1);
    tileset end1 = tileset_or(minus(hands[0], dd_p1), plus(to[0], "1-1"));
    tileset end2 = tileset_or(minus(hands[1], dd_p2), to[1]);
    assert_int_equal(v->report.points[0], tu_pips(end1));
    assert_int_equal(v->report.points[1], tu_pips(end2));
    assert_true(v->match_ended);
    bool p1_lower = tu_pips(end1) < tu_pips(end2);
    assert_int_not_equal(tu_pips(end1), tu_pips(end2));
    assert_int_equal(v->nwinners, 1);
    assert_true(v->winners[0] == p1_lower);
    assert_true(v->winners[1] == !p1_lower);
    tu_free(ref);
}

/* Splits the boneyard into 29 tiles for p1 and 30 for p2 so that both end with base[i]
 * plus their draws equal. */
static void split_evenly(tileset boneyard, const int64_t base[2], tileset to[2])
{
    tile_t tiles[TILE_COUNT];
    int n = 0;
    for (tile_t t; (t = tileset_pop(&boneyard)) != TILE_NONE;) tiles[n++] = t;
    assert_int_equal(n, 59);
    int64_t sum = 0, s1 = 0;
    for (int i = 0; i < n; i++) sum += tile_low(tiles[i]) + tile_high(tiles[i]);
    int64_t target = sum + base[1] - base[0];
    assert_int_equal(target % 2, 0);
    target /= 2;                                       /* what p1's 29 draws must add up to */
    for (int i = 0; i < 29; i++) s1 += tile_low(tiles[i]) + tile_high(tiles[i]);
    for (int round = 0; round < 100 && s1 != target; round++) {
        int best_i = -1, best_j = -1;
        int64_t best = s1 > target ? s1 - target : target - s1;
        for (int i = 0; i < 29; i++)
            for (int j = 29; j < n; j++) {
                int64_t after = s1 - (tile_low(tiles[i]) + tile_high(tiles[i])) + tile_low(tiles[j]) + tile_high(tiles[j]);
                int64_t gap = after > target ? after - target : target - after;
                if (gap < best) { best = gap; best_i = i; best_j = j; }
            }
        if (best_i < 0) break;
        s1 += tile_low(tiles[best_j]) + tile_high(tiles[best_j]) - tile_low(tiles[best_i]) - tile_high(tiles[best_i]);
        tile_t swap = tiles[best_i]; tiles[best_i] = tiles[best_j]; tiles[best_j] = swap;
    }
    assert_int_equal(s1, target);
    to[0] = to[1] = tileset_empty();
    for (int i = 0; i < n; i++) tileset_add(&to[i < 29 ? 0 : 1], tiles[i]);
}

static void R22_equal_lowest_totals_share_a_drawn_match(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    tileset hands[2], to[2];
    dd_deal(ref, hands);
    int64_t base[2] = {tu_pips(plus(minus(hands[0], dd_p1), "1-1")), tu_pips(minus(hands[1], dd_p2))};
    split_evenly(ref->game.boneyard, base, to);
    dd_drain(ref, to);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.points[0], v->report.points[1]);
    assert_true(v->match_ended);
    assert_int_equal(v->nwinners, 2);
    assert_true(v->winners[0]);
    assert_true(v->winners[1]);
    tu_free(ref);
}

/* Every player draws and passes, in turn from `seat`, one tile each from the lists
 * to[seat], until those are all drawn; tiles are drawn in tile order. */
static void draw_and_pass_round(struct referee *ref, int n, int seat, tileset to[])
{
    for (;;) {
        bool left = false;
        for (int s = 0; s < n; s++) left = left || !tileset_is_empty(to[s]);
        if (!left) return;
        tile_t t = tileset_pop(&to[seat]);
        assert_int_not_equal(t, TILE_NONE);
        char line[40], text[TILE_TEXT_SIZE];
        tile_format(t, text);
        snprintf(line, sizeof line, "p%d draw %s\np%d pass", seat + 1, text, seat + 1);
        tu_moves(ref, line);
        seat = (seat + 1) % n;
    }
}

/* Three players put the twelve 0s but 0-0 on the four trains, every train ending in 0;
 * then nobody can play, and they draw and pass, 0-0 the last tile of the boneyard. */
static void R20_R17_no_block_until_the_turn_of_a_drawn_double_ends(void **state)
{
    (void)state;
    struct referee *ref = start("players 3\nrounds 1");
    tileset hands[3];
    const char *const fixed[3] = {"1-12 0-1 0-12 0-5 0-7 0-9 0-11", "2-12 0-2 0-4 0-6 0-8 0-10",
                                  "3-12 0-3 4-5 6-7 8-9 10-11"};
    tu_deal(ref, fixed, (const unsigned[]){PIP(0), PIP(0), PIP(0)}, "0-0", hands);
    tu_moves(ref, "p1 play 12-1 p1\np2 play 12-2 p2\np3 play 12-3 p3\n"
                  "p1 play 1-0 p1\np2 play 2-0 p2\np3 play 3-0 p3\n"
                  "p1 play 12-0 mex\np2 play 0-4 mex\np3 play 4-5 mex\np1 play 5-0 mex\np2 play 0-6 mex\n"
                  "p3 play 6-7 mex\np1 play 7-0 mex\np2 play 0-8 mex\np3 play 8-9 mex\np1 play 9-0 mex\n"
                  "p2 play 0-10 mex\np3 play 10-11 mex\np1 play 11-0 mex");
    /* the 44 other tiles of the boneyard, drawn in turn from p2; p1 draws the 45th */
    tileset rest = minus(ref->game.boneyard, "0-0"), to[3] = {tileset_empty(), tileset_empty(), tileset_empty()};
    assert_int_equal(tileset_count(rest), 44);
    for (int i = 0; !tileset_is_empty(rest); i++) tileset_add(&to[(i + 1) % 3], tileset_pop(&rest));
    tileset drawn[3] = {to[0], to[1], to[2]};
    draw_and_pass_round(ref, 3, 1, to);
    tu_moves(ref, "p1 draw 0-0");
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_MUST_PLAY);
    tu_moves(ref, "p1 play 0-0 p1");             /* nobody can cover it, but p1's turn goes on */
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_BONEYARD_EMPTY);   /* [R17] not already-drawn */
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_NONE);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, -1);
    for (int s = 0; s < 3; s++)
        assert_int_equal(v->report.points[s], tu_pips(tileset_or(minus(hands[s], fixed[s]), drawn[s])));
    tu_free(ref);
}

/* Two players put eleven 0s and 0-0 on the three trains, every train ending in 0; 0-11 is
 * the last tile of the boneyard. p1 draws it and lays it on mex: mex alone ends in a pip
 * that p2 holds, so the round goes on. */
static void R20_the_mexican_train_counts_for_a_block(void **state)
{
    (void)state;
    struct referee *ref = start("players 2\nrounds 1");
    tileset hands[2];
    const char *const fixed[2] = {"1-12 0-1 0-12 3-4 0-0 0-5 0-6 7-8 0-9 0-10", "2-12 0-2 0-3 0-4 5-6 0-7 0-8 9-10"};
    tu_deal(ref, fixed, (const unsigned[]){PIP(0), PIP(0)}, "0-11 11-11", hands);
    tu_moves(ref, "p1 play 12-1 p1\np2 play 12-2 p2\np1 play 1-0 p1\np2 play 2-0 p2\n"
                  "p1 play 12-0 mex\np2 play 0-3 mex\np1 play 3-4 mex\np2 play 4-0 mex\n"
                  "p1 play 0-0 mex\np1 play 0-5 mex\np2 play 5-6 mex\np1 play 6-0 mex\np2 play 0-7 mex\n"
                  "p1 play 7-8 mex\np2 play 8-0 mex\np1 play 0-9 mex\np2 play 9-10 mex\np1 play 10-0 mex");
    tileset rest = minus(ref->game.boneyard, "0-11 11-11"), to[2] = {tileset_empty(), tu_tiles("11-11")};
    assert_int_equal(tileset_count(rest), 58);
    for (int i = 0; !tileset_is_empty(rest); i++) tileset_add(&to[i % 2], tileset_pop(&rest));
    draw_and_pass_round(ref, 2, 1, to);
    tu_moves(ref, "p1 draw 0-11");
    assert_int_equal(tu_line(ref, "p1 play 0-11 mex"), ERR_NONE);
    assert_false(tu_last()->round_ended);
    assert_int_equal(tu_line(ref, "p2 pass"), ERR_MUST_PLAY);
    assert_int_equal(tu_line(ref, "p2 play 11-11 mex"), ERR_NONE);
    tu_free(ref);
}

/* Eight players, 10 tiles each, 10 in the boneyard. p1..p4 build 12-a, a-b, b-12 on their own
 * trains (pairs 0-1, 2-3, 4-5, 6-7), and so do p5 and p6 with 8-9 and 10-11 unless moves56
 * says otherwise; p7 and p8 hold no 12 and draw and pass. p3 waits a turn for its last tile,
 * 5-12, which is the last of the boneyard: when p3 draws and plays it, every 12 is on a
 * train. played[s] lists the tiles seat s laid (p3: but 5-12). Returns each hand at that
 * point; tu_last() is p3's play. */
static const char *const bp_fixed[8] = {"0-12 0-1 1-12", "2-12 2-3 3-12", "4-12 4-5", "6-12 6-7 7-12",
                                        "8-12 8-9 9-12", "10-12 10-11 11-12", "", ""};
static const char *const bp_moves56[4] = {"p5 play 8-9 p5", "p6 play 10-11 p6", "p5 play 9-12 p5",
                                          "p6 play 11-12 p6"};
static const char *const bp_keep = "1-2 1-3 1-4 2-4 3-4 6-9 6-10 7-9 7-10 5-12";
static const unsigned bp_avoid[8] = {PIP(5), PIP(5), PIP(5) | PIP(11) | PIP(12), 0, 0, 0,
                                     PIP(5) | PIP(11) | PIP(12), PIP(5) | PIP(11) | PIP(12)};

static void eight_empty_the_boneyard(struct referee *ref, const char *const fixed[8], const char *const played[8],
                                     const unsigned avoid[8], const char *const moves56[4], tileset end[8])
{
    tileset hands[8];
    tu_deal(ref, fixed, avoid, bp_keep, hands);
    char moves[1000];
    snprintf(moves, sizeof moves,
             "p1 play 0-12 p1\np2 play 2-12 p2\np3 play 4-12 p3\np4 play 6-12 p4\n"
             "p5 play 8-12 p5\np6 play 10-12 p6\np7 draw 1-2\np7 pass\np8 draw 1-3\np8 pass\n"
             "p1 play 0-1 p1\np2 play 2-3 p2\np3 play 4-5 p3\np4 play 6-7 p4\n"
             "%s\n%s\np7 draw 1-4\np7 pass\np8 draw 2-4\np8 pass\n"
             "p1 play 1-12 p1\np2 play 3-12 p2\np3 draw 3-4\np3 pass\np4 play 7-12 p4\n"
             "%s\n%s\np7 draw 6-9\np7 pass\np8 draw 6-10\np8 pass\n"
             "p1 draw 7-9\np1 pass\np2 draw 7-10\np2 pass\n"
             "p3 draw 5-12",
             moves56[0], moves56[1], moves56[2], moves56[3]);
    tu_moves(ref, moves);
    assert_int_equal(tu_line(ref, "p3 play 5-12 p3"), ERR_NONE);
    const char *drawn[8] = {"7-9", "7-10", "3-4", "", "", "", "1-2 1-4 6-9", "1-3 2-4 6-10"};
    for (int s = 0; s < 8; s++) end[s] = plus(minus(hands[s], played[s]), drawn[s]);
}

static void R20_R21_blocked_by_a_play_that_ends_a_turn(void **state)
{
    (void)state;
    struct referee *ref = start("players 8\nrounds 1");
    tileset end[8];
    eight_empty_the_boneyard(ref, bp_fixed, bp_fixed, bp_avoid, bp_moves56, end);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.out_seat, -1);
    const int count[8] = {8, 8, 9, 7, 7, 7, 13, 13};
    for (int s = 0; s < 8; s++) {
        assert_int_equal(tileset_count(end[s]), count[s]);
        assert_int_equal(v->report.points[s], tu_pips(end[s]));
        assert_int_equal(ref->game.totals[s], tu_pips(end[s]));
    }
    /* p3 has the lowest total alone */
    assert_true(v->match_ended);
    assert_int_equal(v->nwinners, 1);
    assert_true(v->winners[2]);
    for (int s = 0; s < 8; s++) assert_true(s == 2 || tu_pips(end[s]) > tu_pips(end[2]));
    tu_free(ref);
}

static void R22_a_draw_between_the_lowest_totals_only(void **state)
{
    (void)state;
    /* the same round with p3's and p4's hands chosen to end on 59 pips each */
    const char *const fixed[8] = {"0-12 0-1 1-12", "2-12 2-3 3-12", "4-12 4-5 0-2 0-3 0-4 0-6 0-7 0-8 0-9 4-9",
                                  "6-12 6-7 7-12 0-5 1-5 2-5 3-5 5-5 5-6 5-7", "8-12 8-9 9-12",
                                  "10-12 10-11 11-12", "", ""};
    struct referee *ref = start("players 8\nrounds 1");
    tileset end[8];
    eight_empty_the_boneyard(ref, fixed, bp_fixed, bp_avoid, bp_moves56, end);
    const struct verdict *v = tu_last();
    assert_true(v->match_ended);
    assert_int_equal(tu_pips(end[2]), 59);
    assert_int_equal(tu_pips(end[3]), 59);
    for (int s = 0; s < 8; s++) {
        assert_int_equal(v->report.points[s], tu_pips(end[s]));
        if (s != 2 && s != 3) assert_true(tu_pips(end[s]) > 59);
        assert_true(v->winners[s] == (s == 2 || s == 3));
    }
    assert_int_equal(v->nwinners, 2);
    tu_free(ref);
}

static void R20_a_tile_that_fits_only_a_closed_train_keeps_the_round_going(void **state)
{
    (void)state;
    /* p5 and p6 put 9-12, 9-11 and 11-12 on mex instead, and leave their own trains on 8
     * without a marker: the others hold 8s they may not play there, yet. */
    const char *const fixed[8] = {"0-12 0-1 1-12", "2-12 2-3 3-12", "4-12 4-5", "6-12 6-7 7-12",
                                  "8-12 9-12 11-12", "10-12 9-11 8-10", "", ""};
    const unsigned avoid[8] = {PIP(5), PIP(5), PIP(5) | PIP(11) | PIP(12), 0, PIP(8), PIP(8),
                               PIP(5) | PIP(11) | PIP(12), PIP(5) | PIP(11) | PIP(12)};
    const char *const moves56[4] = {"p5 play 12-9 mex", "p6 play 9-11 mex", "p5 play 11-12 mex", "p6 play 10-8 p6"};
    struct referee *ref = start("players 8\nrounds 1");
    tileset end[8];
    eight_empty_the_boneyard(ref, fixed, fixed, avoid, moves56, end);
    assert_false(tu_last()->round_ended);
    tileset eights = tileset_with_pip(8);
    assert_true(tileset_is_empty(tileset_and(tileset_or(end[4], end[5]), eights)));
    assert_false(tileset_is_empty(tileset_and(end[6], eights)));
    tu_moves(ref, "p4 pass\np5 pass\np6 pass");     /* nobody can play; p5 and p6 open their trains */
    tile_t t = tileset_first(tileset_and(end[6], eights));
    char line[40], text[TILE_TEXT_SIZE];
    tile_format(t, text);
    snprintf(line, sizeof line, "p7 play %s p5", text);
    assert_int_equal(tu_line(ref, line), ERR_NONE);
    tu_free(ref);
}

/* ---- [R3][R4][R21][R22] whole matches ---- */

struct match_log {
    int rounds;                              /* rounds played to their end */
    int engine[RULES_MAX_ROUNDS + 1];        /* by round: the engine's pip in round_end */
    int opener[RULES_MAX_ROUNDS + 1];        /* by round: the seat of its first move */
    int64_t totals[RULES_MAX_PLAYERS];       /* sums of the round_end points */
    bool winners[RULES_MAX_PLAYERS];
    int nwinners;
};

/* Deals round g->round from deal_shuffle(rng) with explicit deal lines, seats in order. */
static void deal_explicitly(struct referee *ref, uint64_t *rng)
{
    const struct game *g = &ref->game;
    unsigned char deck[DEAL_DECK_SIZE];
    deal_shuffle(rng, g->phase == PHASE_SETUP ? 12 : g->engine_pip, deck);
    int size = g->rules->hand_size[g->nplayers], next = 0;
    for (int s = 0; s < g->nplayers; s++) {
        char line[PROTOCOL_LINE_MAX];
        int len = snprintf(line, sizeof line, "deal %s", g->names[s]);
        for (int i = 0; i < size; i++) {
            char text[TILE_TEXT_SIZE];
            tile_format(deck[next++], text);
            len += snprintf(line + len, sizeof line - (size_t)len, " %s", text);
        }
        tu_feed(ref, line);
    }
}

/* Plays the match in ref to its end, always the first legal move (a draw names the lowest
 * tile of the boneyard unless the match has a seed), dealing from rng when there is no
 * seed. On the way checks `round N`, that only seat (k-1) mod n may open round k, and that
 * each round's points are the pips left in each hand. */
static void play_match(struct referee *ref, uint64_t rng, struct match_log *log)
{
    memset(log, 0, sizeof *log);
    int n = ref->game.nplayers, k = 1;
    bool opening = true;
    for (long steps = 0; steps < 200000; steps++) {
        const struct game *g = &ref->game;
        char line[64];
        if (opening) {
            snprintf(line, sizeof line, "round %d", k);
            assert_int_equal(tu_line(ref, line), ERR_NONE);
            snprintf(line, sizeof line, "round %d", k + 1);
            assert_int_equal(tu_line(ref, line), ERR_ROUND_MISMATCH);
            if (!g->seeded) deal_explicitly(ref, &rng);
            for (int s = 0; s < n; s++) {
                if (s == (k - 1) % n) continue;
                snprintf(line, sizeof line, "%s pass", g->names[s]);
                assert_int_equal(tu_line(ref, line), ERR_NOT_YOUR_TURN);
            }
        }
        struct game snap;
        game_snapshot(g, &snap);
        struct move moves[GAME_MAX_LEGAL];
        assert_true(game_legal_moves(&snap, moves, GAME_MAX_LEGAL) > 0);
        struct move m = moves[0];
        if (opening) log->opener[k] = m.seat;
        opening = false;
        output_format_move(&snap, &m, line);
        if (m.kind == MOVE_DRAW && !snap.seeded) {
            char text[TILE_TEXT_SIZE];
            tile_format(tileset_first(snap.boneyard), text);
            snprintf(line + strlen(line), sizeof line - strlen(line), " %s", text);
        }
        tileset after[RULES_MAX_PLAYERS];
        for (int s = 0; s < n; s++) after[s] = snap.hands[s];
        if (m.kind == MOVE_PLAY) tileset_remove(&after[m.seat], m.tile);
        assert_int_equal(tu_line(ref, line), ERR_NONE);
        const struct verdict *v = tu_last();
        if (!v->round_ended) continue;
        assert_int_equal(v->report.round, k);
        log->engine[k] = v->report.engine_pip;
        if (v->report.out_seat >= 0) assert_true(tileset_is_empty(after[v->report.out_seat]));
        for (int s = 0; s < n; s++) {
            assert_int_equal(v->report.points[s], tu_pips(after[s]));
            log->totals[s] += v->report.points[s];
            assert_int_equal(ref->game.totals[s], log->totals[s]);
        }
        log->rounds = k++;
        opening = true;
        if (v->match_ended) {
            for (int s = 0; s < n; s++) log->winners[s] = v->winners[s];
            log->nwinners = v->nwinners;
            return;
        }
        assert_false(game_is_over(&ref->game));
    }
    fail_msg("the match did not end");
}

/* The lowest of the totals wins; equal lowest totals share the win [R22]. */
static void check_winners(const struct match_log *log, int n)
{
    int64_t lowest = INT64_MAX;
    for (int s = 0; s < n; s++) if (log->totals[s] < lowest) lowest = log->totals[s];
    int count = 0;
    for (int s = 0; s < n; s++) {
        assert_true(log->winners[s] == (log->totals[s] == lowest));
        count += log->winners[s];
    }
    assert_int_equal(log->nwinners, count);
}

static void R3_R4_R21_a_match_is_13_rounds_from_12_12_down_to_0_0(void **state)
{
    (void)state;
    struct referee *ref = start("players 3\nseed 2026");
    struct match_log log;
    play_match(ref, 0, &log);
    assert_int_equal(log.rounds, 13);
    for (int k = 1; k <= 13; k++) {
        assert_int_equal(log.engine[k], 13 - k);
        assert_int_equal(log.opener[k], (k - 1) % 3);
    }
    check_winners(&log, 3);
    assert_int_equal(tu_line(ref, "round 14"), ERR_GAME_OVER);
    tu_free(ref);
}

static void R3_R4_R21_seven_rounds_half_the_match_dealt_explicitly(void **state)
{
    (void)state;
    struct referee *ref = start("players 4\nrounds 7");
    struct match_log log;
    play_match(ref, 77, &log);
    assert_int_equal(log.rounds, 7);
    for (int k = 1; k <= 7; k++) {
        assert_int_equal(log.engine[k], 13 - k);
        assert_int_equal(log.opener[k], (k - 1) % 4);
    }
    check_winners(&log, 4);
    tu_free(ref);
}

static void R3_R4_a_one_round_match_and_openers_of_five_and_eight(void **state)
{
    (void)state;
    struct referee *ref = start("players 5\nrounds 1\nseed 5");
    struct match_log log;
    play_match(ref, 0, &log);
    assert_int_equal(log.rounds, 1);
    assert_int_equal(log.engine[1], 12);
    check_winners(&log, 5);
    tu_free(ref);
    ref = start("players 8");
    play_match(ref, 8, &log);
    assert_int_equal(log.rounds, 13);
    for (int k = 1; k <= 13; k++) assert_int_equal(log.opener[k], (k - 1) % 8);
    check_winners(&log, 8);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R19_R21_R22_going_out_ends_the_round_and_scores_the_hands),
        cmocka_unit_test(R19_going_out_on_a_double_owes_no_cover),
        cmocka_unit_test(R20_R21_blocked_at_the_pass_that_ends_a_turn_with_a_double_nobody_can_cover),
        cmocka_unit_test(R22_equal_lowest_totals_share_a_drawn_match),
        cmocka_unit_test(R20_R17_no_block_until_the_turn_of_a_drawn_double_ends),
        cmocka_unit_test(R20_the_mexican_train_counts_for_a_block),
        cmocka_unit_test(R20_R21_blocked_by_a_play_that_ends_a_turn),
        cmocka_unit_test(R22_a_draw_between_the_lowest_totals_only),
        cmocka_unit_test(R20_a_tile_that_fits_only_a_closed_train_keeps_the_round_going),
        cmocka_unit_test(R3_R4_R21_a_match_is_13_rounds_from_12_12_down_to_0_0),
        cmocka_unit_test(R3_R4_R21_seven_rounds_half_the_match_dealt_explicitly),
        cmocka_unit_test(R3_R4_a_one_round_match_and_openers_of_five_and_eight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
