/* House rules (house-rules.md): each file of rules/ changes the game on a concrete
 * position, and the same lines get the canonical verdict without it; the settled
 * combinations; loading (spellings, pairs that cannot combine, the scope of --rules
 * and of a record's own rules lines). Test names: the variant, then the rule id. */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "round.h"

/* RULES("a", "b") -> the two arguments tu_session and tu_run take for the rules. */
#define RULES(...) ((const char *const[]){__VA_ARGS__}), \
    (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define CANONICAL NULL, 0

/* ---- helpers ------------------------------------------------------------ */

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Feeds one line and fails the test, naming the line, unless it gets the code. */
static void expect_at(struct referee *ref, const char *line, enum error_code want, int at)
{
    enum error_code got = tu_line(ref, line);
    if (got != want)
        fail_msg("test line %d: '%s' gave %s (%s), expected %s", at, line, error_code_name(got),
                 tu_last()->message, error_code_name(want));
}
#define expect(ref, line, code) expect_at(ref, line, code, __LINE__)

static void assert_contains_at(const char *haystack, const char *needle, int at)
{
    if (!strstr(haystack, needle)) fail_msg("test line %d: expected to find\n  %s\nin\n%s", at, needle, haystack);
}
#define assert_contains(h, n) assert_contains_at(h, n, __LINE__)

static int split_tiles(const char *list, tile_t out[], int max)
{
    int n = 0;
    while (*list) {
        while (*list == ' ') list++;
        if (!*list) break;
        size_t len = strcspn(list, " ");
        tile_t t = tile_parse(list, len);
        if (t == TILE_NONE) fail_msg("bad tile in '%s'", list);
        assert_true(n < max);
        out[n++] = t;
        list += len;
    }
    return n;
}

static tileset tiles(const char *list)
{
    tile_t t[TILE_COUNT];
    int n = split_tiles(list, t, TILE_COUNT);
    tileset s = tileset_empty();
    for (int i = 0; i < n; i++) tileset_add(&s, t[i]);
    return s;
}

static int pips(const char *list)
{
    tile_t t[TILE_COUNT];
    int n = split_tiles(list, t, TILE_COUNT), sum = 0;
    for (int i = 0; i < n; i++) sum += tile_low(t[i]) + tile_high(t[i]);
    return sum;
}

/* Every tile whose two pips lie within lo..hi. */
static tileset pip_range(int lo, int hi)
{
    tileset s = tileset_empty();
    for (int a = lo; a <= hi; a++)
        for (int b = a; b <= hi; b++) tileset_add(&s, tile_from_pips(a, b));
    return s;
}

/* `deal` lines: hand i is wanted[i] topped up to size with filler tiles of pool, then
 * of spare, in tile order, that are not the engine, not wanted by anyone and not
 * reserved (tiles that must stay in the boneyard for the draws to come). */
static void put_deals_spare(struct text *t, int n, const char *const names[], const char *const wanted[],
                            const char *reserved, int size, int engine, tileset pool, tileset spare)
{
    tileset used = tiles(reserved);
    tileset_add(&used, tile_double(engine));
    for (int i = 0; i < n; i++) used = tileset_or(used, tiles(wanted[i]));
    for (int i = 0; i < n; i++) {
        tile_t list[TILE_COUNT];
        int k = split_tiles(wanted[i], list, TILE_COUNT);
        char text[TILE_TEXT_SIZE];
        put(t, "deal %s", names[i]);
        for (int j = 0; j < k; j++) {
            tile_format(list[j], text);
            put(t, " %s", text);
        }
        tileset fill = tileset_minus(pool, used), more = tileset_minus(spare, used);
        for (; k < size; k++) {
            tile_t f = tileset_pop(&fill);
            if (f == TILE_NONE) f = tileset_pop(&more);
            if (f == TILE_NONE) fail_msg("not enough filler tiles for %s", names[i]);
            tileset_add(&used, f);
            tile_format(f, text);
            put(t, " %s", text);
        }
        put(t, "\n");
    }
}

static void put_deals(struct text *t, int n, const char *const names[], const char *const wanted[],
                      const char *reserved, int size, int engine, tileset pool)
{
    put_deals_spare(t, n, names, wanted, reserved, size, engine, pool, tileset_empty());
}

/* A session under rules with players ana and bob dealt: ana gets a_tiles, bob b_tiles,
 * both topped up to 15 with tiles of pips 0..6 (dead while the play stays on the pips
 * 7..12), none of the reserved ones; when those run out, bob gets tiles 0-11..6-11.
 * Engine 12-12. */
static struct referee *two_players(const char *const rules[], int nrules, const char *a_tiles, const char *b_tiles,
                                   const char *reserved)
{
    struct referee *ref = tu_session(rules, nrules);
    struct text t = {0};
    put(&t, "players ana bob\nrounds 1\n");
    put_deals_spare(&t, 2, (const char *const[]){"ana", "bob"}, (const char *const[]){a_tiles, b_tiles}, reserved, 15,
                    12, pip_range(0, 6), tiles("0-11 1-11 2-11 3-11 4-11 5-11 6-11"));
    tu_feed(ref, t.s);
    free(t.s);
    return ref;
}

/* The legal moves of the player to act, as "ana play 5-12 ana, ana draw". */
static const char *legal(struct referee *ref)
{
    static char buf[4096];
    struct move moves[GAME_MAX_LEGAL];
    int n = game_legal_moves(&ref->game, moves, GAME_MAX_LEGAL);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char move[OUTPUT_MOVE_SIZE];
        output_format_move(&ref->game, &moves[i], move);
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", move);
    }
    return buf;
}

/* Writes a helper rules file for one test into /tmp; its rule name into name. */
static void temp_rules(const char *source, char *path, char *name)
{
    strcpy(path, "/tmp/mtref-hr-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(source, f);
    assert_int_equal(fclose(f), 0);
    rules_file_name(path, name, 64);
}

/* Runs a record through a whole stream (--json); returns the output, exit in *status. */
static char *run_json(const char *record, const char *const rules[], int nrules, int *status)
{
    char *out = NULL;
    *status = tu_run(record, true, false, rules, nrules, &out);
    assert_non_null(out);
    return out;
}

/* "path:LINE: message" with a line number. */
static void assert_file_line_message(const char *message, const char *file)
{
    const char *at = strstr(message, file);
    if (!at) fail_msg("'%s' does not name %s", message, file);
    at += strlen(file);
    if (*at != ':' || !(at[1] >= '0' && at[1] <= '9')) fail_msg("'%s': no line after %s", message, file);
    at++;
    while (*at >= '0' && *at <= '9') at++;
    if (strncmp(at, ": ", 2) != 0) fail_msg("'%s' is not file:line: message", message);
}

/* ---- the going-out record ------------------------------------------------ */

/* ana lays CHAIN on her own train and goes out with its 15th tile; bob holds no 12 and
 * draws a dead tile and passes between her plays. bob's hand holds 0-0. */
static const char CHAIN[] = "12-11 11-10 10-9 9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-0 0-2 2-4 4-6";
static const char CHAIN_DOUBLE[] = "12-11 11-10 10-9 9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-0 0-2 2-4 4-4";
static const char BOB_HAND[] = "0-0 0-3 0-4 0-5 0-6 1-3 1-4 1-5 1-6 1-7 2-5 2-6 2-7 3-5 3-6";
static const char BOB_DRAWS[] = "3-7 3-8 3-9 3-10 3-11 4-7 4-8 4-9 4-10 4-11 5-7 5-8 5-9 5-10";
#define BOB_LEFT 268        /* the pips bob holds when ana goes out: 89 dealt + 179 drawn */

static char *out_record(const char *setup, const char *chain, const char *bob_hand, const char *bob_draws)
{
    struct text t = {0};
    tile_t c[16], d[16];
    int nc = split_tiles(chain, c, 16), nd = split_tiles(bob_draws, d, 16);
    assert_true(nd >= nc - 1);
    put(&t, "%sround 1\ndeal ana %s\ndeal bob %s\n", setup, chain, bob_hand);
    for (int i = 0; i < nc; i++) {
        char text[TILE_TEXT_SIZE];
        tile_format(c[i], text);
        put(&t, "ana play %s ana\n", text);
        if (i == nc - 1) break;
        tile_format(d[i], text);
        put(&t, "bob draw %s\nbob pass\n", text);
    }
    return t.s;
}

/* Feeds the going-out record; returns the session after ana's last tile. */
static struct referee *ana_goes_out(const char *const rules[], int nrules, const char *chain)
{
    struct referee *ref = tu_session(rules, nrules);
    char *record = out_record("players ana bob\nrounds 1\n", chain, BOB_HAND, BOB_DRAWS);
    tu_feed(ref, record);
    free(record);
    assert_true(tu_last()->round_ended);
    assert_int_equal(tu_last()->report.out_seat, 0);
    return ref;
}

static void chain_record_holds_what_it_says(void **state)
{
    (void)state;
    assert_int_equal(pips(BOB_HAND) + pips(BOB_DRAWS), BOB_LEFT);
    assert_int_equal(tileset_count(tiles(CHAIN)), 15);
    assert_true(tileset_is_empty(tileset_and(tiles(CHAIN), tiles(BOB_HAND))));
    assert_true(tileset_is_empty(tileset_and(tiles(CHAIN_DOUBLE), tiles(BOB_DRAWS))));
    struct referee *ref = ana_goes_out(CANONICAL, CHAIN);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT);      /* [R21] canonically */
    assert_true(tu_last()->match_ended);
    assert_true(tu_last()->winners[0]);
    tu_free(ref);
}

/* ---- double-blank-50 ------------------------------------------------------ */

static void double_blank_50_R21_the_0_0_left_in_hand_counts_50(void **state)
{
    (void)state;
    struct referee *canon = ana_goes_out(CANONICAL, CHAIN);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT);            /* 0-0 is worth 0 [R1] */
    struct referee *house = ana_goes_out(RULES("double-blank-50"), CHAIN);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT + 50);
    assert_int_equal(tu_last()->report.points[0], 0);
    assert_int_equal(house->game.totals[1], BOB_LEFT + 50);
    tu_free(canon);
    tu_free(house);
}

static void double_blank_50_R21_other_tiles_keep_their_pips(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("double-blank-50"));
    const struct rules *r = ref->game.rules;
    for (tile_t t = 0; t < TILE_COUNT; t++)
        assert_int_equal(r->tile_value[t], t == tile_from_pips(0, 0) ? 50 : tile_low(t) + tile_high(t));
    tu_free(ref);
}

/* ---- elimination-100 -------------------------------------------------------- */

static void elimination_100_R22_a_total_of_100_eliminates_and_the_last_left_wins(void **state)
{
    (void)state;
    char *record = out_record("players ana bob\nrounds 1\n", CHAIN, BOB_HAND, BOB_DRAWS);
    int status;
    char *canon = run_json(record, CANONICAL, &status);
    assert_int_equal(status, 0);
    assert_null(strstr(canon, "\"eliminated\""));
    char *house = run_json(record, RULES("elimination-100"), &status);
    assert_int_equal(status, 0);
    const char *end = strstr(house, "{\"event\":\"round_end\",\"round\":1,\"engine\":12,\"reason\":\"out\",\"out\":\"ana\","
                                    "\"points\":{\"ana\":0,\"bob\":268},\"totals\":{\"ana\":0,\"bob\":268}}\n");
    const char *out = strstr(house, "{\"event\":\"eliminated\",\"player\":\"bob\",\"total\":268}\n");
    const char *match = strstr(house, "{\"event\":\"match_end\",\"totals\":{\"ana\":0,\"bob\":268},\"winners\":[\"ana\"],"
                                      "\"draw\":false,\"rules\":[\"elimination-100\"]}\n");
    assert_non_null(end);
    assert_non_null(out);
    assert_non_null(match);
    assert_true(end < out && out < match);       /* round_end, eliminated, match_end */
    free(canon);
    free(house);
    free(record);
}

/* One tile each at three players and two at two (deal sizes follow the players still
 * in); the heaviest tiles weigh 200, the others their pips. */
static const char ELIM_HELPER[] =
    "-- test helper\n"
    "return {\n"
    "  hand_size = function(n) if n >= 3 then return 1 end return 2 end,\n"
    "  tile_value = function(a, b) if a + b >= 20 then return 200 end return a + b end,\n"
    "}\n";

static void elimination_100_R4_R5_R7_an_eliminated_player_sits_out(void **state)
{
    (void)state;
    char path[64], name[64];
    temp_rules(ELIM_HELPER, path, name);
    char setup[200];
    snprintf(setup, sizeof setup,
             "players ana bob cid\nrules elimination-100 %s\nround 1\ndeal ana 12-1\ndeal bob 0-1\ndeal cid 10-11\n", path);
    struct referee *house = tu_session(CANONICAL);
    tu_feed(house, setup);
    expect(house, "ana play 12-1 ana", ERR_NONE);
    const struct verdict *v = tu_last();
    assert_true(v->round_ended);
    assert_int_equal(v->report.points[1], 1);
    assert_int_equal(v->report.points[2], 200);
    assert_int_equal(v->neliminated, 1);
    assert_int_equal(v->eliminated[0], 2);
    assert_false(v->match_ended);

    /* the same lines without elimination-100: cid stays in */
    char canon_setup[200];
    snprintf(canon_setup, sizeof canon_setup,
             "players ana bob cid\nrules %s\nround 1\ndeal ana 12-1\ndeal bob 0-1\ndeal cid 10-11\nana play 12-1 ana\n", path);
    struct referee *canon = tu_session(CANONICAL);
    tu_feed(canon, canon_setup);
    expect(canon, "deal cid 0-2", ERR_NONE);

    /* no deal for cid; two tiles each for the two still in */
    expect(house, "round 2", ERR_NONE);
    expect(house, "deal cid 0-2 0-3", ERR_BAD_DEAL);
    assert_non_null(strstr(tu_last()->message, "out of the match"));
    expect(house, "deal ana 0-5", ERR_BAD_DEAL);
    expect(house, "deal ana 0-5 0-6", ERR_NONE);
    expect(house, "deal bob 11-3 3-4", ERR_NONE);
    assert_int_equal(house->game.engine_pip, 11);
    assert_int_equal(house->game.turn, 1);          /* next seat still in after ana */
    expect(house, "bob play 11-3 bob", ERR_NONE);
    /* no turn: after bob comes ana, not cid; no train: a play on it is train-closed */
    assert_int_equal(house->game.turn, 0);
    expect(house, "cid draw 2-7", ERR_NOT_YOUR_TURN);
    expect(house, "ana play 0-5 cid", ERR_TRAIN_CLOSED);
    assert_string_equal(tu_last()->rule, "R7");
    expect(house, "ana draw 2-7", ERR_NONE);
    expect(house, "ana pass", ERR_NONE);
    expect(house, "bob play 3-4 bob", ERR_NONE);
    v = tu_last();
    assert_true(v->round_ended);
    assert_false(v->report.in_round[2]);            /* points: the players of the round */
    assert_int_equal(v->report.points[0], 20);
    assert_int_equal(house->game.totals[2], 200);   /* totals: everyone */
    assert_false(v->match_ended);

    /* round 3 opens at the next seat still in after bob: ana, where [R4] says cid */
    expect(house, "round 3", ERR_NONE);
    expect(house, "deal ana 10-1 0-3", ERR_NONE);
    expect(house, "deal bob 0-4 1-2", ERR_NONE);
    assert_int_equal(house->game.engine_pip, 10);
    assert_int_equal(house->game.turn, 0);
    expect(house, "bob play 0-4 bob", ERR_NOT_YOUR_TURN);
    tu_free(canon);
    tu_free(house);
    unlink(path);
}

static void elimination_100_R3_the_json_lists_round_players_and_all_totals(void **state)
{
    (void)state;
    char path[64], name[64];
    temp_rules(ELIM_HELPER, path, name);
    char record[600];
    snprintf(record, sizeof record,
             "players ana bob cid\nrules elimination-100\nrules %s\nround 1\ndeal ana 12-1\ndeal bob 0-1\n"
             "deal cid 10-11\nana play 12-1 ana\nround 2\ndeal ana 0-5 0-6\ndeal bob 11-3 3-4\nbob play 11-3 bob\n"
             "ana draw 2-7\nana pass\nbob play 3-4 bob\nshow\n", path);
    int status;
    char *out = run_json(record, CANONICAL, &status);
    assert_int_equal(status, 0);
    char want[300];
    assert_contains(out, "{\"event\":\"eliminated\",\"player\":\"cid\",\"total\":200}\n");
    assert_contains(out, "{\"event\":\"round_end\",\"round\":2,\"engine\":11,\"reason\":\"out\",\"out\":\"bob\","
                         "\"points\":{\"ana\":20,\"bob\":0},\"totals\":{\"ana\":20,\"bob\":1,\"cid\":200}}\n");
    /* the table of round 3 has no train and no hand for cid */
    assert_contains(out, "\"trains\":[{\"train\":\"ana\"");
    assert_null(strstr(out, "{\"train\":\"cid\""));
    assert_null(strstr(out, "\"cid\":["));
    snprintf(want, sizeof want, "\"rules\":[\"elimination-100\",\"%s\"]", name);
    assert_contains(out, want);
    free(out);
    unlink(path);
}

/* One tile each: every round is one play. */
static const char ONE_TILE[] = "return { hand_size = function(n) return 1 end }\n";

/* Rounds 1..last: the first player (ana in odd rounds, bob in even ones) goes out with
 * a tile of the engine's pip, the other holds 0-1, or 0-0 in the rounds listed. */
static char *cycle_record(const char *setup, int last, bool ascending, const int zero_zero[], int nzero)
{
    struct text t = {0};
    put(&t, "%s", setup);
    for (int k = 1; k <= last; k++) {
        int e = ascending ? (k - 1) % 13 : 12 - (k - 1) % 13;
        const char *first = k % 2 ? "ana" : "bob", *other = k % 2 ? "bob" : "ana";
        bool blank = false;
        for (int i = 0; i < nzero; i++) blank |= zero_zero[i] == k;
        char out[TILE_TEXT_SIZE];
        tile_format(tile_from_pips(e, (e + 5) % 13), out);
        put(&t, "round %d\ndeal %s %s\ndeal %s %s\n%s play %s %s\n", k, first, out, other, blank ? "0-0" : "0-1",
            first, out, first);
    }
    return t.s;
}

static void elimination_100_R3_rounds_go_on_past_13_and_engines_cycle(void **state)
{
    (void)state;
    char path[64], name[64], setup[200], want[400];
    temp_rules(ONE_TILE, path, name);
    snprintf(setup, sizeof setup, "players ana bob\nrules double-blank-50\nrules %s\n", path);
    const int blanks[] = {15, 17};
    char *record = cycle_record(setup, 17, false, blanks, 2);
    int status;

    /* canonically the match ends after round 13, and `round 14` is game-over */
    char *canon = run_json(record, CANONICAL, &status);
    assert_int_equal(status, 1);
    assert_contains(canon, "{\"event\":\"match_end\",\"totals\":{\"ana\":6,\"bob\":7},\"winners\":[\"ana\"]");
    assert_contains(canon, "\"error\":\"game-over\"");

    /* with elimination-100 (and double-blank-50: both apply) it goes on */
    char *house = run_json(record, RULES("elimination-100"), &status);
    assert_int_equal(status, 0);
    assert_contains(house, "{\"event\":\"round_end\",\"round\":13,\"engine\":0,");
    assert_contains(house, "{\"event\":\"round_end\",\"round\":14,\"engine\":12,\"reason\":\"out\",\"out\":\"bob\","
                           "\"points\":{\"ana\":1,\"bob\":0},\"totals\":{\"ana\":7,\"bob\":7}}");
    assert_contains(house, "{\"event\":\"round_end\",\"round\":15,\"engine\":11,\"reason\":\"out\",\"out\":\"ana\","
                           "\"points\":{\"ana\":0,\"bob\":50},\"totals\":{\"ana\":7,\"bob\":57}}");
    assert_contains(house, "{\"event\":\"round_end\",\"round\":17,\"engine\":9,\"reason\":\"out\",\"out\":\"ana\","
                           "\"points\":{\"ana\":0,\"bob\":50},\"totals\":{\"ana\":8,\"bob\":107}}\n"
                           "{\"event\":\"eliminated\",\"player\":\"bob\",\"total\":107}\n");
    snprintf(want, sizeof want,
             "{\"event\":\"match_end\",\"totals\":{\"ana\":8,\"bob\":107},\"winners\":[\"ana\"],\"draw\":false,"
             "\"rules\":[\"double-blank-50\",\"%s\",\"elimination-100\"]}\n", name);
    assert_contains(house, want);
    assert_null(strstr(house, "\"round\":13,\"engine\":0,\"reason\":\"out\",\"out\":\"ana\",\"points\":{\"ana\":0,"
                              "\"bob\":1},\"totals\":{\"ana\":6,\"bob\":7}}\n{\"event\":\"match_end\""));
    free(canon);
    free(house);
    free(record);
    unlink(path);
}

static void ascending_elimination_100_R3_engines_cycle_0_to_12_then_0(void **state)
{
    (void)state;
    char path[64], name[64], setup[200];
    temp_rules(ONE_TILE, path, name);
    snprintf(setup, sizeof setup, "players ana bob\nrules double-blank-50 ascending elimination-100 %s\n", path);
    const int blanks[] = {15, 17};
    char *record = cycle_record(setup, 17, true, blanks, 2);
    int status;
    char *out = run_json(record, CANONICAL, &status);
    assert_int_equal(status, 0);
    assert_contains(out, "{\"event\":\"round_end\",\"round\":1,\"engine\":0,");
    assert_contains(out, "{\"event\":\"round_end\",\"round\":13,\"engine\":12,");
    assert_contains(out, "{\"event\":\"round_end\",\"round\":14,\"engine\":0,");
    assert_contains(out, "{\"event\":\"round_end\",\"round\":17,\"engine\":3,");
    assert_contains(out, "{\"event\":\"eliminated\",\"player\":\"bob\",\"total\":107}\n");
    free(out);
    free(record);
    /* and the hook of the pair, round by round */
    struct referee *ref = tu_session(RULES("ascending", "elimination-100"));
    const struct rules *r = ref->game.rules;
    for (int k = 1; k <= 40; k++) {
        int pip = -1;
        char err[RULES_MESSAGE_SIZE];
        assert_int_equal(r->hooks.engine_pip(r->hooks.ctx, &ref->game, k, 13, &pip, err), 0);
        assert_int_equal(pip, (k - 1) % 13);
    }
    tu_free(ref);
    unlink(path);
}

/* Every player scores 100 or more in the same round: the lowest total among them wins. */
static void elimination_100_R22_all_eliminated_at_once_lowest_total_wins(void **state)
{
    (void)state;
    static const char *const helpers[] = {
        "return { hand_size = function(n) return 1 end,\n"
        "  round_points = function(r) local p = {} for i, n in ipairs(r.players) do p[n] = 100 + 10 * i end return p end }\n",
        "return { hand_size = function(n) return 1 end,\n"
        "  round_points = function(r) local p = {} for i, n in ipairs(r.players) do p[n] = 100 end return p end }\n",
    };
    for (int i = 0; i < 2; i++) {
        char path[64], name[64], record[300];
        temp_rules(helpers[i], path, name);
        snprintf(record, sizeof record,
                 "players ana bob\nrules elimination-100 %s\ndeal ana 12-1\ndeal bob 0-1\nana play 12-1 ana\n", path);
        int status;
        char *out = run_json(record, CANONICAL, &status);
        assert_int_equal(status, 0);
        if (i == 0) {
            assert_contains(out, "{\"event\":\"eliminated\",\"player\":\"ana\",\"total\":110}\n"
                                 "{\"event\":\"eliminated\",\"player\":\"bob\",\"total\":120}\n"
                                 "{\"event\":\"match_end\",\"totals\":{\"ana\":110,\"bob\":120},\"winners\":[\"ana\"],"
                                 "\"draw\":false");
        } else {
            assert_contains(out, "{\"event\":\"match_end\",\"totals\":{\"ana\":100,\"bob\":100},"
                                 "\"winners\":[\"ana\",\"bob\"],\"draw\":true");
        }
        free(out);
        unlink(path);
    }
}

/* ---- doubles-anywhere-lifo / -fifo ------------------------------------------- */

/* ana leaves two doubles open in one turn: 7-7 on her train, then 10-10 on mex, and
 * ends the turn on bob's marked train. */
static const char ANA_DOUBLES[] = "12-7 12-10 7-7 10-10 12-11 7-8 10-5 12-5";
static const char BOB_DOUBLES[] = "7-3";
static const char DOUBLES_RESERVED[] = "1-8 2-8 10-4";
static const char DOUBLES_PREFIX[] =
    "ana play 12-7 ana\nbob draw 1-8\nbob pass\nana play 12-10 mex\nbob draw 2-8\nbob pass\nana play 7-7 ana\n";

static void doubles_anywhere_R14_canonically_the_second_double_is_must_cover(void **state)
{
    (void)state;
    struct referee *ref = two_players(CANONICAL, ANA_DOUBLES, BOB_DOUBLES, DOUBLES_RESERVED);
    tu_feed(ref, DOUBLES_PREFIX);
    expect(ref, "ana play 10-10 mex", ERR_MUST_COVER);
    assert_string_equal(tu_last()->rule, "R14");
    expect(ref, "ana play 7-8 ana", ERR_NONE);
    tu_free(ref);
}

static struct referee *two_doubles_left_open(const char *file)
{
    struct referee *ref = two_players((const char *const[]){file}, 1, ANA_DOUBLES, BOB_DOUBLES, DOUBLES_RESERVED);
    tu_feed(ref, DOUBLES_PREFIX);
    expect(ref, "ana play 10-10 mex", ERR_NONE);        /* a double gives another play, anywhere */
    assert_int_equal(ref->game.turn, 0);
    expect(ref, "ana play 12-11 bob", ERR_NONE);        /* not a double: the turn ends */
    assert_int_equal(ref->game.turn, 1);
    assert_int_equal(ref->game.ndoubles, 2);
    assert_false(ref->game.trains[0].marker);             /* a play, not a pass: no marker */
    return ref;
}

static void doubles_anywhere_lifo_R15_covers_last_played_first(void **state)
{
    (void)state;
    struct referee *ref = two_doubles_left_open("doubles-anywhere-lifo");
    expect(ref, "bob play 7-3 ana", ERR_MUST_COVER);    /* 7-7 was played first */
    assert_string_equal(legal(ref), "bob draw");
    expect(ref, "bob pass", ERR_MUST_DRAW);
    expect(ref, "bob draw 10-4", ERR_NONE);
    assert_string_equal(legal(ref), "bob play 4-10 mex");
    expect(ref, "bob play 10-4 mex", ERR_NONE);
    expect(ref, "bob play 7-3 ana", ERR_NOT_YOUR_TURN);   /* one cover per turn */
    /* the owner of the other double covers it on a later turn */
    expect(ref, "ana play 12-5 mex", ERR_MUST_COVER);
    expect(ref, "ana play 7-8 ana", ERR_NONE);
    assert_int_equal(ref->game.ndoubles, 0);
    tu_free(ref);
}

static void doubles_anywhere_fifo_R15_covers_first_played_first(void **state)
{
    (void)state;
    struct referee *ref = two_doubles_left_open("doubles-anywhere-fifo");
    assert_string_equal(legal(ref), "bob play 3-7 ana");
    expect(ref, "bob play 7-3 ana", ERR_NONE);      /* on ana's train, marked or not */
    expect(ref, "ana play 12-5 bob", ERR_MUST_COVER);
    expect(ref, "ana play 7-8 ana", ERR_MUST_COVER);
    expect(ref, "ana play 10-5 mex", ERR_NONE);
    assert_int_equal(ref->game.ndoubles, 0);
    tu_free(ref);
}

/* With a queue, a player who cannot cover draws once and passes with a marker. */
static void doubles_anywhere_lifo_R16_a_player_who_cannot_cover_draws_once_and_passes(void **state)
{
    (void)state;
    struct referee *ref = two_doubles_left_open("doubles-anywhere-lifo");
    expect(ref, "bob draw 1-9", ERR_NONE);
    expect(ref, "bob draw 2-9", ERR_ALREADY_DRAWN);
    expect(ref, "bob pass", ERR_NONE);
    assert_true(ref->game.trains[1].marker);
    assert_int_equal(ref->game.ndoubles, 2);
    expect(ref, "ana play 7-8 ana", ERR_MUST_COVER);   /* the head is still 10-10 */
    expect(ref, "ana play 10-5 mex", ERR_NONE);
    tu_free(ref);
}

/* [R20] with a queue: blocked when the boneyard is empty and no hand can cover the
 * double at its head. A crafted end of a round: ana, who cannot cover, passes; bob
 * holds a 5 (the first double's pip), nobody a 9 (the last one's). */
static const struct verdict *pass_with_queue(const char *file, const char *ana_hand)
{
    struct referee *ref = two_players((const char *const[]){file}, 1, "", "", "");
    struct game *g = &ref->game;
    g->boneyard = tileset_empty();
    g->hands[0] = tiles(ana_hand);
    g->hands[1] = tiles("3-5 0-3");
    g->trains[0].open_pip = 5;
    g->trains[TRAIN_MEX].open_pip = 9;
    g->doubles[0] = (struct uncovered_double){0, 5};
    g->doubles[1] = (struct uncovered_double){TRAIN_MEX, 9};
    g->ndoubles = 2;
    g->turn = 0;
    g->turn_began_owing = true;
    expect(ref, "ana pass", ERR_NONE);
    static struct verdict v;
    v = *tu_last();
    tu_free(ref);
    return &v;
}

static void doubles_anywhere_R20_blocked_when_no_hand_covers_the_head(void **state)
{
    (void)state;
    const struct verdict *v = pass_with_queue("doubles-anywhere-lifo", "0-1 0-2");
    assert_true(v->round_ended);                 /* nobody holds a 9 */
    assert_int_equal(v->report.out_seat, -1);
    assert_int_equal(v->report.points[1], 11);
    v = pass_with_queue("doubles-anywhere-fifo", "0-1 0-2");
    assert_false(v->round_ended);                /* bob can cover the 5 */
}

/* ---- draw-until-playable ---------------------------------------------------- */

static void draw_until_playable_R9_draws_again_until_a_tile_can_be_played(void **state)
{
    (void)state;
    const char *reserved = "1-8 2-8 12-3 3-8";
    struct referee *canon = two_players(CANONICAL, "", "12-5", reserved);
    struct referee *house = two_players(RULES("draw-until-playable"), "", "12-5", reserved);
    expect(canon, "ana draw 1-8", ERR_NONE);
    expect(house, "ana draw 1-8", ERR_NONE);
    expect(canon, "ana draw 2-8", ERR_ALREADY_DRAWN);
    expect(house, "ana pass", ERR_MUST_DRAW);            /* draws are left */
    assert_string_equal(tu_last()->rule, "R11");
    assert_string_equal(legal(house), "ana draw");
    expect(house, "ana draw 2-8", ERR_NONE);
    expect(house, "ana draw 12-3", ERR_NONE);
    expect(house, "ana draw 3-8", ERR_MUST_PLAY);        /* the drawn 12-3 can be played */
    expect(house, "ana pass", ERR_MUST_PLAY);
    expect(house, "ana play 12-3 ana", ERR_NONE);
    expect(canon, "ana pass", ERR_NONE);                 /* one draw, then a pass */
    tu_free(canon);
    tu_free(house);
}

static void draw_until_playable_R16_also_for_the_cover_of_a_double(void **state)
{
    (void)state;
    const char *reserved = "1-8 2-8 9-3";
    const char *moves = "ana play 12-9 ana\nbob play 12-5 bob\nana play 9-9 ana\nana draw 1-8\n";
    struct referee *canon = two_players(CANONICAL, "12-9 9-9", "12-5", reserved);
    struct referee *house = two_players(RULES("draw-until-playable"), "12-9 9-9", "12-5", reserved);
    tu_feed(canon, moves);
    tu_feed(house, moves);
    expect(house, "ana pass", ERR_MUST_DRAW);
    expect(house, "ana draw 9-3", ERR_NONE);
    expect(house, "ana draw 2-8", ERR_MUST_PLAY);
    expect(house, "ana play 9-3 mex", ERR_MUST_COVER);
    expect(house, "ana play 9-3 ana", ERR_NONE);
    expect(canon, "ana pass", ERR_NONE);
    assert_true(canon->game.trains[0].marker);
    tu_free(canon);
    tu_free(house);
}

/* Ten players, eight tiles each: a boneyard of ten that p1 draws dry, then passes. */
static void draw_until_playable_ten_players_R10_pass_only_once_the_boneyard_is_empty(void **state)
{
    (void)state;
    const char *boneyard = "0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10";
    const char *const names[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10"};
    const char *const wanted[] = {"", "12-0 12-1", "12-2 12-3", "12-4 12-5", "12-6", "12-7", "12-8", "12-9",
                                  "12-10", "12-11"};
    struct text t = {0};
    put(&t, "players 10\nrounds 1\n");
    put_deals(&t, 10, names, wanted, boneyard, 8, 12, tileset_all());
    struct referee *canon = tu_session(RULES("ten-players"));
    struct referee *house = tu_session(RULES("ten-players", "draw-until-playable"));
    tu_feed(canon, t.s);
    tu_feed(house, t.s);
    assert_int_equal(tileset_count(house->game.boneyard), 10);
    expect(canon, "p1 draw 0-1", ERR_NONE);
    expect(canon, "p1 draw 0-2", ERR_ALREADY_DRAWN);
    tile_t b[10];
    split_tiles(boneyard, b, 10);
    for (int i = 0; i < 10; i++) {
        char line[40], text[TILE_TEXT_SIZE];
        expect(house, "p1 pass", ERR_MUST_DRAW);
        tile_format(b[i], text);
        snprintf(line, sizeof line, "p1 draw %s", text);
        expect(house, line, ERR_NONE);
    }
    expect(house, "p1 draw 0-11", ERR_BONEYARD_EMPTY);
    assert_string_equal(legal(house), "p1 pass");
    expect(house, "p1 pass", ERR_NONE);
    assert_true(house->game.trains[0].marker);
    assert_int_equal(house->game.turn, 1);
    free(t.s);
    tu_free(canon);
    tu_free(house);
}

/* ---- first-turn-own-train -------------------------------------------------- */

static void first_turn_own_train_R7_first_turn_plays_only_on_own_train(void **state)
{
    (void)state;
    struct referee *canon = two_players(CANONICAL, "12-5 3-4", "", "");
    struct referee *house = two_players(RULES("first-turn-own-train"), "12-5 3-4", "", "");
    expect(house, "ana play 12-5 mex", ERR_HOUSE_RULE);
    assert_non_null(strstr(tu_last()->message, "first-turn-own-train"));
    /* the usual precedence holds: train-closed and no-match come first */
    expect(house, "ana play 12-5 bob", ERR_TRAIN_CLOSED);
    expect(house, "ana play 3-4 mex", ERR_NO_MATCH);
    expect(house, "ana play 12-6 mex", ERR_NOT_IN_HAND);
    expect(canon, "ana play 12-5 bob", ERR_TRAIN_CLOSED);
    expect(canon, "ana play 3-4 mex", ERR_NO_MATCH);
    assert_string_equal(legal(house), "ana play 5-12 ana");
    assert_string_equal(legal(canon), "ana play 5-12 ana, ana play 5-12 mex");
    expect(house, "ana draw 1-8", ERR_MUST_PLAY);
    expect(canon, "ana play 12-5 mex", ERR_NONE);
    expect(house, "ana play 12-5 ana", ERR_NONE);
    tu_free(canon);
    tu_free(house);
}

static void first_turn_own_train_R11_marked_trains_are_closed_in_a_first_turn_too(void **state)
{
    (void)state;
    const char *moves = "ana draw 1-8\nana pass\n";
    struct referee *canon = two_players(CANONICAL, "", "12-6", "1-8 12-2");
    struct referee *house = two_players(RULES("first-turn-own-train"), "", "12-6", "1-8 12-2");
    tu_feed(canon, moves);
    tu_feed(house, moves);
    assert_true(house->game.trains[0].marker);
    expect(canon, "bob play 12-6 ana", ERR_NONE);
    expect(house, "bob play 12-6 ana", ERR_HOUSE_RULE);
    expect(house, "bob play 12-6 bob", ERR_NONE);
    /* ana's first turn was a draw and a pass: the limit is over for her */
    expect(house, "ana draw 12-2", ERR_NONE);
    expect(house, "ana play 12-2 mex", ERR_NONE);
    tu_free(canon);
    tu_free(house);
}

/* ---- positive-scoring ----------------------------------------------------- */

static void positive_scoring_R21_the_player_out_scores_the_other_hands(void **state)
{
    (void)state;
    struct referee *canon = ana_goes_out(CANONICAL, CHAIN);
    assert_int_equal(tu_last()->report.points[0], 0);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT);
    struct referee *house = ana_goes_out(RULES("positive-scoring"), CHAIN);
    assert_int_equal(tu_last()->report.points[0], BOB_LEFT);
    assert_int_equal(tu_last()->report.points[1], 0);
    assert_true(tu_last()->winners[0]);
    tu_free(canon);
    tu_free(house);
}

/* Three one-tile rounds: positive totals 12, 5, 9 (ana wins) where the penalties are
 * 6, 6, 14 (ana and bob draw). */
static void positive_scoring_R22_the_highest_total_wins(void **state)
{
    (void)state;
    char path[64], name[64];
    temp_rules("return { hand_size = function(n) return 1 end, rounds = {1, 3, 7, 13} }\n", path, name);
    char record[600];
    snprintf(record, sizeof record,
             "players ana bob cid\nrules %s\nrounds 3\n"
             "round 1\ndeal ana 12-7\ndeal bob 0-1\ndeal cid 5-6\nana play 12-7 ana\n"
             "round 2\ndeal ana 0-2\ndeal bob 11-7\ndeal cid 0-3\nbob play 11-7 bob\n"
             "round 3\ndeal ana 0-4\ndeal bob 0-5\ndeal cid 10-7\ncid play 10-7 cid\n", path);
    int status;
    char *canon = run_json(record, CANONICAL, &status);
    assert_int_equal(status, 0);
    assert_contains(canon, "{\"event\":\"match_end\",\"totals\":{\"ana\":6,\"bob\":6,\"cid\":14},"
                           "\"winners\":[\"ana\",\"bob\"],\"draw\":true");
    char *house = run_json(record, RULES("positive-scoring"), &status);
    assert_int_equal(status, 0);
    assert_contains(house, "\"round\":1,\"engine\":12,\"reason\":\"out\",\"out\":\"ana\",\"points\":{\"ana\":12,\"bob\":0,"
                           "\"cid\":0}");
    assert_contains(house, "{\"event\":\"match_end\",\"totals\":{\"ana\":12,\"bob\":5,\"cid\":9},"
                           "\"winners\":[\"ana\"],\"draw\":false");
    free(canon);
    free(house);
    unlink(path);
}

/* A block scored directly (round_finish with a crafted table): hands worth a, b, c. */
static const struct verdict *score_block(struct referee *ref, const char *a, const char *b, const char *c,
                                         bool last_was_double)
{
    static struct verdict v;
    tu_feed(ref, "players ana bob cid\nrounds 1");
    struct game g = ref->game;
    g.hands[0] = tiles(a);
    g.hands[1] = tiles(b);
    g.hands[2] = tiles(c);
    verdict_reset(&v);
    round_finish(&g, -1, last_was_double, &v);
    assert_true(v.round_ended);
    assert_true(v.match_ended);
    return &v;
}

static void positive_scoring_R20_a_block_is_shared_by_the_lowest_hands_rounded_down(void **state)
{
    (void)state;
    struct referee *canon = tu_session(CANONICAL), *house = tu_session(RULES("positive-scoring"));
    const struct verdict *v = score_block(canon, "0-5", "1-4", "10-11", false);
    assert_int_equal(v->report.points[0], 5);
    assert_int_equal(v->report.points[1], 5);
    assert_int_equal(v->report.points[2], 21);
    v = score_block(house, "0-5", "1-4", "10-11", false);
    assert_int_equal(v->report.points[0], 10);        /* 21 / 2, rounded down */
    assert_int_equal(v->report.points[1], 10);
    assert_int_equal(v->report.points[2], 0);
    assert_int_equal(v->nwinners, 2);
    /* one lowest hand takes the whole sum */
    v = score_block(house, "0-1", "1-4", "10-11", false);
    assert_int_equal(v->report.points[0], 26);
    assert_int_equal(v->report.points[1], 0);
    /* everyone ties for lowest: everyone scores 0 */
    v = score_block(house, "0-5", "1-4", "2-3", false);
    assert_int_equal(v->report.points[0], 0);
    assert_int_equal(v->report.points[1], 0);
    assert_int_equal(v->report.points[2], 0);
    assert_int_equal(v->nwinners, 3);
    tu_free(canon);
    tu_free(house);
}

static void positive_scoring_double_blank_50_R21_a_0_0_is_worth_50_to_the_scorer(void **state)
{
    (void)state;
    struct referee *ref = ana_goes_out(RULES("positive-scoring", "double-blank-50"), CHAIN);
    assert_int_equal(tu_last()->report.points[0], BOB_LEFT + 50);
    tu_free(ref);
    struct referee *house = tu_session(RULES("double-blank-50", "positive-scoring"));
    const struct verdict *v = score_block(house, "0-0", "1-2", "0-3", false);
    assert_int_equal(v->report.points[0], 0);
    assert_int_equal(v->report.points[1], 25);         /* (50) / 2 */
    assert_int_equal(v->report.points[2], 25);
    tu_free(house);
}

/* ---- double-out-doubles ---------------------------------------------------- */

static void double_out_doubles_R19_going_out_on_a_double_doubles_the_penalties(void **state)
{
    (void)state;
    struct referee *canon = ana_goes_out(CANONICAL, CHAIN_DOUBLE);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT);
    struct referee *house = ana_goes_out(RULES("double-out-doubles"), CHAIN_DOUBLE);
    assert_int_equal(tu_last()->report.points[1], 2 * BOB_LEFT);
    assert_int_equal(house->game.totals[1], 2 * BOB_LEFT);
    tu_free(canon);
    tu_free(house);
}

static void double_out_doubles_R19_only_when_the_last_tile_is_a_double(void **state)
{
    (void)state;
    struct referee *ref = ana_goes_out(RULES("double-out-doubles"), CHAIN);
    assert_int_equal(tu_last()->report.points[1], BOB_LEFT);
    tu_free(ref);
    /* a block is never doubled */
    struct referee *house = tu_session(RULES("double-out-doubles"));
    const struct verdict *v = score_block(house, "0-5", "1-4", "10-11", true);
    assert_int_equal(v->report.points[0], 5);
    assert_int_equal(v->report.points[2], 21);
    tu_free(house);
}

static void double_out_doubles_double_blank_50_R21_the_50_is_doubled_too(void **state)
{
    (void)state;
    struct referee *ref = ana_goes_out(RULES("double-out-doubles", "double-blank-50"), CHAIN_DOUBLE);
    assert_int_equal(tu_last()->report.points[1], 2 * (BOB_LEFT + 50));
    tu_free(ref);
}

static void double_out_doubles_positive_scoring_R21_the_winners_score_counts_twice(void **state)
{
    (void)state;
    struct referee *ref = ana_goes_out(RULES("positive-scoring", "double-out-doubles"), CHAIN_DOUBLE);
    assert_int_equal(tu_last()->report.points[0], 2 * BOB_LEFT);
    assert_int_equal(tu_last()->report.points[1], 0);
    tu_free(ref);
}

/* ---- ascending ------------------------------------------------------------ */

static const char ASC_CHAIN[] = "0-1 1-2 2-3 3-4 4-5 5-6 6-7 7-8 8-9 9-10 10-11 11-12 12-10 10-8 8-6";
static const char ASC_BOB[] = "12-12 1-3 1-4 1-5 1-6 2-4 2-5 2-6 3-5 3-6 4-6 5-7 5-8 3-7 4-7";
static const char ASC_DRAWS[] = "1-7 1-8 1-9 1-10 1-11 2-7 2-8 2-9 2-10 2-11 3-8 3-9 3-10 3-11";

static void ascending_R3_round_1_uses_0_0_then_1_1(void **state)
{
    (void)state;
    char *record = out_record("players ana bob\nrounds 7\n", ASC_CHAIN, ASC_BOB, ASC_DRAWS);
    struct text t = {0};
    put(&t, "%sshow\n", record);
    int status;
    char *canon = run_json(t.s, CANONICAL, &status);
    assert_int_equal(status, 1);
    assert_contains(canon, "{\"line\":5,\"ok\":false,\"error\":\"bad-deal\"");    /* 12-12 is the engine */
    char *house = run_json(t.s, RULES("ascending"), &status);
    assert_int_equal(status, 0);
    assert_contains(house, "{\"event\":\"round_end\",\"round\":1,\"engine\":0,\"reason\":\"out\",\"out\":\"ana\"");
    assert_contains(house, "\"show\":{\"phase\":\"dealing\",\"round\":2,\"rounds\":7,\"engine\":1,");
    free(canon);
    free(house);
    free(record);
    free(t.s);
}

static void ascending_R3_engines_by_round_for_13_7_and_1_rounds(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("ascending"));
    const struct rules *r = ref->game.rules;
    const int counts[] = {13, 7, 1};
    for (int i = 0; i < 3; i++)
        for (int k = 1; k <= counts[i]; k++) {
            int pip = -1;
            char err[RULES_MESSAGE_SIZE];
            assert_int_equal(r->hooks.engine_pip(r->hooks.ctx, &ref->game, k, counts[i], &pip, err), 0);
            assert_int_equal(pip, k - 1);
        }
    tu_free(ref);
    /* through the referee: the deal of round 1 must leave out 0-0, not 12-12 */
    struct referee *house = tu_session(RULES("ascending"));
    tu_feed(house, "players ana bob\nrounds 1");
    expect(house, "deal ana 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-2", ERR_BAD_DEAL);
    expect(house, "deal ana 12-12 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1 1-2", ERR_NONE);
    assert_int_equal(house->game.engine_pip, 0);
    tu_free(house);
}

/* ---- ten-players ---------------------------------------------------------- */

static void ten_players_R2_seats_up_to_10(void **state)
{
    (void)state;
    struct referee *canon = tu_session(CANONICAL);
    expect(canon, "players 9", ERR_SYNTAX);
    expect(canon, "players p1 p2 p3 p4 p5 p6 p7 p8 p9 p10", ERR_SYNTAX);
    expect(canon, "players 8", ERR_NONE);
    tu_free(canon);
    struct referee *house = tu_session(RULES("ten-players"));
    expect(house, "players 9", ERR_NONE);
    expect(house, "players p1 p2 p3 p4 p5 p6 p7 p8 p9 p10", ERR_NONE);
    expect(house, "players 11", ERR_SYNTAX);
    expect(house, "players 1", ERR_SYNTAX);
    tu_free(house);
}

static void ten_players_R5_hands_of_12_10_and_8(void **state)
{
    (void)state;
    struct referee *ref = tu_session(RULES("ten-players"));
    const struct rules *r = ref->game.rules;
    for (int n = 2; n <= 10; n++) assert_int_equal(r->hand_size[n], n <= 6 ? 12 : n <= 8 ? 10 : 8);
    tu_free(ref);
    for (int n = 2; n <= 10; n++) {
        struct referee *house = tu_session(RULES("ten-players"));
        char line[40];
        snprintf(line, sizeof line, "players %d", n);
        expect(house, line, ERR_NONE);
        int size = n <= 6 ? 12 : n <= 8 ? 10 : 8;
        struct text over = {0}, right = {0};
        put(&over, "deal p1");
        put(&right, "deal p1");
        for (int i = 0; i <= size; i++) put(&over, " 0-%d", i);       /* one too many */
        for (int i = 0; i < size; i++) put(&right, " 0-%d", i);
        expect(house, over.s, ERR_BAD_DEAL);
        expect(house, right.s, ERR_NONE);
        assert_int_equal(tileset_count(house->game.hands[0]), size);
        free(over.s);
        free(right.s);
        tu_free(house);
    }
    /* canonically two players hold 15 */
    struct referee *canon = tu_session(CANONICAL);
    tu_feed(canon, "players 2");
    expect(canon, "deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11", ERR_BAD_DEAL);
    tu_free(canon);
}

static void ten_players_R2_nine_and_ten_players_take_their_turns(void **state)
{
    (void)state;
    for (int n = 9; n <= 10; n++) {
        const char *const names[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10"};
        const char *const wanted[] = {"12-0", "12-1", "12-2", "12-3", "12-4", "12-5", "12-6", "12-7", "12-8", "12-9"};
        struct text t = {0};
        put(&t, "players %d\nrounds 1\n", n);
        put_deals(&t, n, names, wanted, "", 8, 12, tileset_all());
        for (int s = 0; s < n; s++) put(&t, "%s play 12-%d %s\n", names[s], s, names[s]);
        struct referee *house = tu_session(RULES("ten-players"));
        tu_feed(house, t.s);
        assert_int_equal(house->game.turn, 0);       /* round the table and back */
        assert_int_equal(tileset_count(house->game.boneyard), 90 - 8 * n);
        free(t.s);
        tu_free(house);
    }
}

/* ---- marker-after-cover ------------------------------------------------------ */

static const char MARK_PREFIX[] = "ana play 12-9 mex\nbob play 12-8 bob\nana play 9-9 mex\nana draw 1-8\nana pass\n";

static void marker_after_cover_R16_an_owed_cover_elsewhere_also_marks(void **state)
{
    (void)state;
    struct referee *canon = two_players(CANONICAL, "12-9 9-9", "12-8 9-5", "1-8");
    struct referee *house = two_players(RULES("marker-after-cover"), "12-9 9-9", "12-8 9-5", "1-8");
    tu_feed(canon, MARK_PREFIX);
    tu_feed(house, MARK_PREFIX);
    assert_true(house->game.trains[0].marker);
    expect(canon, "bob play 9-5 mex", ERR_NONE);
    expect(house, "bob play 9-5 mex", ERR_NONE);
    assert_false(canon->game.trains[1].marker);
    assert_true(house->game.trains[1].marker);
    assert_false(house->game.trains[TRAIN_MEX].marker);
    tu_free(canon);
    tu_free(house);
}

static void marker_after_cover_R17_a_cover_with_a_just_drawn_tile_counts(void **state)
{
    (void)state;
    struct referee *house = two_players(RULES("marker-after-cover"), "12-9 9-9", "12-8", "1-8 9-5");
    tu_feed(house, MARK_PREFIX);
    expect(house, "bob draw 9-5", ERR_NONE);
    expect(house, "bob play 9-5 mex", ERR_NONE);
    assert_true(house->game.trains[1].marker);
    tu_free(house);
}

static void marker_after_cover_R14_covering_ones_own_double_in_ones_turn_marks_nothing(void **state)
{
    (void)state;
    struct referee *house = two_players(RULES("marker-after-cover"), "12-9 9-9 9-4", "12-8", "");
    tu_feed(house, "ana play 12-9 mex\nbob play 12-8 bob\nana play 9-9 mex");
    expect(house, "ana play 9-4 mex", ERR_NONE);
    assert_false(house->game.trains[0].marker);
    assert_int_equal(house->game.turn, 1);
    tu_free(house);
}

static void marker_after_cover_R12_an_owed_cover_on_ones_own_train_marks_nothing(void **state)
{
    (void)state;
    /* bob passes (marked); ana lays 8-8 on his train and cannot cover it; bob covers at home */
    struct referee *house = two_players(RULES("marker-after-cover"), "12-9 9-10 8-8", "12-8", "1-7 2-7 8-4");
    tu_feed(house, "ana play 12-9 mex\nbob play 12-8 bob\nana play 9-10 mex\nbob draw 1-7\nbob pass\n"
                   "ana play 8-8 bob\nana draw 2-7\nana pass\nbob draw 8-4");
    assert_true(house->game.trains[1].marker);
    expect(house, "bob play 8-4 bob", ERR_NONE);
    assert_false(house->game.trains[1].marker);      /* [R12] lifted, and no new one */
    tu_free(house);
}

static void marker_after_cover_doubles_anywhere_lifo_a_queue_at_the_start_counts_as_owed(void **state)
{
    (void)state;
    const char *file[] = {"doubles-anywhere-lifo", "marker-after-cover"};
    const char *moves = "ana play 12-9 mex\nbob play 12-8 bob\nana play 9-9 mex\n";
    struct referee *canon = two_players(RULES("marker-after-cover"), "12-9 9-9 12-6", "12-8 9-5", "");
    struct referee *house = two_players(file, 2, "12-9 9-9 12-6", "12-8 9-5", "");
    tu_feed(canon, moves);
    tu_feed(house, moves);
    expect(canon, "ana play 12-6 ana", ERR_MUST_COVER);
    expect(house, "ana play 12-6 ana", ERR_NONE);      /* the turn ends with 9-9 left open */
    assert_false(house->game.trains[0].marker);       /* her own double, her own turn: no marker */
    assert_false(house->game.trains[1].marker);
    expect(house, "bob play 9-5 mex", ERR_NONE);
    assert_true(house->game.trains[1].marker);        /* the queue was not empty when his turn began */
    tu_free(canon);
    tu_free(house);
}

/* ---- loading ---------------------------------------------------------------- */

static void loading_name_name_lua_and_a_path_are_one_file(void **state)
{
    (void)state;
    const char *dir = getenv("MTREF_RULES_PATH");
    assert_non_null(dir);
    char line[1200];
    snprintf(line, sizeof line, "rules %s/double-blank-50.lua", dir);
    struct referee *ref = tu_session(CANONICAL);
    expect(ref, "rules double-blank-50", ERR_NONE);
    expect(ref, "rules double-blank-50.lua", ERR_NONE);
    expect(ref, line, ERR_NONE);
    expect(ref, "rules ascending double-blank-50", ERR_NONE);
    assert_string_equal(ref->game.rules->names, "double-blank-50, ascending");
    tu_free(ref);
    /* --rules and a record's rules line naming one file */
    struct referee *both = tu_session(RULES("double-blank-50.lua"));
    expect(both, "rules double-blank-50", ERR_NONE);
    assert_string_equal(both->game.rules->names, "double-blank-50");
    assert_int_equal(both->game.rules->tile_value[0], 50);
    tu_free(both);
    struct referee *cli = tu_session(RULES("double-blank-50", "double-blank-50.lua"));
    assert_string_equal(cli->game.rules->names, "double-blank-50");
    tu_free(cli);
}

static void loading_R2_players_are_checked_against_the_rules_loaded_so_far(void **state)
{
    (void)state;
    struct referee *ref = tu_session(CANONICAL);
    expect(ref, "players 9", ERR_SYNTAX);
    expect(ref, "rules ten-players", ERR_NONE);
    expect(ref, "players 9", ERR_NONE);
    assert_int_equal(ref->game.nplayers, 9);
    tu_free(ref);
}

static void loading_pairs_that_cannot_combine_fail_at_the_line_that_completes_them(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"doubles-anywhere-lifo", "doubles-anywhere-fifo"},
        {"doubles-anywhere-fifo", "doubles-anywhere-lifo"},
        {"positive-scoring", "elimination-100"},
        {"elimination-100", "positive-scoring"},
    };
    for (int i = 0; i < 4; i++) {
        char line[200];
        /* two lines */
        struct referee *ref = tu_session(CANONICAL);
        snprintf(line, sizeof line, "rules %s", pairs[i][0]);
        expect(ref, line, ERR_NONE);
        expect(ref, "rules double-blank-50", ERR_NONE);
        snprintf(line, sizeof line, "rules %s", pairs[i][1]);
        expect(ref, line, ERR_RULES);
        const char *message = tu_last()->message;
        assert_non_null(strstr(message, pairs[i][0]));
        assert_non_null(strstr(message, pairs[i][1]));
        assert_file_line_message(message, ".lua");
        /* the line changed nothing */
        char names[200];
        snprintf(names, sizeof names, "%s, double-blank-50", pairs[i][0]);
        assert_string_equal(ref->game.rules->names, names);
        expect(ref, "players ana bob", ERR_NONE);
        tu_free(ref);
        /* one line */
        ref = tu_session(CANONICAL);
        snprintf(line, sizeof line, "rules %s %s", pairs[i][0], pairs[i][1]);
        expect(ref, line, ERR_RULES);
        tu_free(ref);
        /* --rules holds one, the record the other */
        ref = tu_session((const char *const[]){pairs[i][0]}, 1);
        snprintf(line, sizeof line, "rules %s", pairs[i][1]);
        expect(ref, line, ERR_RULES);
        tu_free(ref);
        /* --rules alone: referee_init fails */
        struct luarules *bridge = luarules_new();
        struct rules_loader loader = luarules_loader(bridge);
        struct referee *raw = malloc(sizeof *raw);
        char err[RULES_MESSAGE_SIZE] = "";
        assert_false(referee_init(raw, &loader, pairs[i], 2, err));
        assert_non_null(strstr(err, pairs[i][0]));
        assert_non_null(strstr(err, pairs[i][1]));
        assert_file_line_message(err, ".lua");
        referee_free(raw);
        free(raw);
        luarules_free(bridge);
    }
}

static void loading_pairs_refused_by_a_stream_exit_2_at_that_line(void **state)
{
    (void)state;
    int status;
    char *out = run_json("players ana bob\nrules positive-scoring\nrules elimination-100\nshow\n", CANONICAL, &status);
    assert_int_equal(status, 2);
    assert_contains(out, "{\"line\":3,\"ok\":false,\"error\":\"rules\"");
    free(out);
    out = run_json("players ana bob\n", RULES("doubles-anywhere-lifo", "doubles-anywhere-fifo"), &status);
    assert_int_equal(status, 2);
    assert_contains(out, "{\"line\":0,\"ok\":false,\"error\":\"rules\"");
    assert_null(strstr(out, "\"line\":1,"));
    free(out);
}

/* Two one-tile matches in a stream: the first with its own rules line. */
static void loading_cli_rules_apply_to_every_match_a_records_rules_to_its_own(void **state)
{
    (void)state;
    char path[64], name[64], record[600], want[300];
    temp_rules(ONE_TILE, path, name);
    snprintf(record, sizeof record,
             "players ana bob\nrules double-blank-50\nrounds 1\ndeal ana 12-1\ndeal bob 0-0\nana play 12-1 ana\n"
             "players ana bob\nrounds 1\nshow\ndeal ana 12-1\ndeal bob 0-0\nana play 12-1 ana\n");
    int status;
    char *out = run_json(record, (const char *const[]){path}, 1, &status);
    assert_int_equal(status, 0);
    snprintf(want, sizeof want,
             "{\"event\":\"match_end\",\"totals\":{\"ana\":0,\"bob\":50},\"winners\":[\"ana\"],\"draw\":false,"
             "\"rules\":[\"double-blank-50\",\"%s\"]}\n", name);
    assert_contains(out, want);
    snprintf(want, sizeof want, "\"rules\":[\"%s\"]}}\n", name);      /* show, match 2 */
    assert_contains(out, want);
    snprintf(want, sizeof want,
             "{\"event\":\"match_end\",\"totals\":{\"ana\":0,\"bob\":0},\"winners\":[\"ana\",\"bob\"],"
             "\"draw\":true,\"rules\":[\"%s\"]}\n", name);
    assert_contains(out, want);
    free(out);
    unlink(path);
}

static void loading_show_names_the_rules_in_force(void **state)
{
    (void)state;
    int status;
    char *out = NULL;
    status = tu_run("players ana bob\nrules double-blank-50 ascending\nshow\n", false, false, RULES("ten-players"), &out);
    assert_int_equal(status, 0);
    assert_contains(out, "rules: double-blank-50, ascending, ten-players");
    free(out);
    out = run_json("players ana bob\nshow\n", CANONICAL, &status);
    assert_contains(out, "\"rules\":[]");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_record_holds_what_it_says),
        cmocka_unit_test(double_blank_50_R21_the_0_0_left_in_hand_counts_50),
        cmocka_unit_test(double_blank_50_R21_other_tiles_keep_their_pips),
        cmocka_unit_test(elimination_100_R22_a_total_of_100_eliminates_and_the_last_left_wins),
        cmocka_unit_test(elimination_100_R4_R5_R7_an_eliminated_player_sits_out),
        cmocka_unit_test(elimination_100_R3_the_json_lists_round_players_and_all_totals),
        cmocka_unit_test(elimination_100_R3_rounds_go_on_past_13_and_engines_cycle),
        cmocka_unit_test(ascending_elimination_100_R3_engines_cycle_0_to_12_then_0),
        cmocka_unit_test(elimination_100_R22_all_eliminated_at_once_lowest_total_wins),
        cmocka_unit_test(doubles_anywhere_R14_canonically_the_second_double_is_must_cover),
        cmocka_unit_test(doubles_anywhere_lifo_R15_covers_last_played_first),
        cmocka_unit_test(doubles_anywhere_fifo_R15_covers_first_played_first),
        cmocka_unit_test(doubles_anywhere_lifo_R16_a_player_who_cannot_cover_draws_once_and_passes),
        cmocka_unit_test(doubles_anywhere_R20_blocked_when_no_hand_covers_the_head),
        cmocka_unit_test(draw_until_playable_R9_draws_again_until_a_tile_can_be_played),
        cmocka_unit_test(draw_until_playable_R16_also_for_the_cover_of_a_double),
        cmocka_unit_test(draw_until_playable_ten_players_R10_pass_only_once_the_boneyard_is_empty),
        cmocka_unit_test(first_turn_own_train_R7_first_turn_plays_only_on_own_train),
        cmocka_unit_test(first_turn_own_train_R11_marked_trains_are_closed_in_a_first_turn_too),
        cmocka_unit_test(positive_scoring_R21_the_player_out_scores_the_other_hands),
        cmocka_unit_test(positive_scoring_R22_the_highest_total_wins),
        cmocka_unit_test(positive_scoring_R20_a_block_is_shared_by_the_lowest_hands_rounded_down),
        cmocka_unit_test(positive_scoring_double_blank_50_R21_a_0_0_is_worth_50_to_the_scorer),
        cmocka_unit_test(double_out_doubles_R19_going_out_on_a_double_doubles_the_penalties),
        cmocka_unit_test(double_out_doubles_R19_only_when_the_last_tile_is_a_double),
        cmocka_unit_test(double_out_doubles_double_blank_50_R21_the_50_is_doubled_too),
        cmocka_unit_test(double_out_doubles_positive_scoring_R21_the_winners_score_counts_twice),
        cmocka_unit_test(ascending_R3_round_1_uses_0_0_then_1_1),
        cmocka_unit_test(ascending_R3_engines_by_round_for_13_7_and_1_rounds),
        cmocka_unit_test(ten_players_R2_seats_up_to_10),
        cmocka_unit_test(ten_players_R5_hands_of_12_10_and_8),
        cmocka_unit_test(ten_players_R2_nine_and_ten_players_take_their_turns),
        cmocka_unit_test(marker_after_cover_R16_an_owed_cover_elsewhere_also_marks),
        cmocka_unit_test(marker_after_cover_R17_a_cover_with_a_just_drawn_tile_counts),
        cmocka_unit_test(marker_after_cover_R14_covering_ones_own_double_in_ones_turn_marks_nothing),
        cmocka_unit_test(marker_after_cover_R12_an_owed_cover_on_ones_own_train_marks_nothing),
        cmocka_unit_test(marker_after_cover_doubles_anywhere_lifo_a_queue_at_the_start_counts_as_owed),
        cmocka_unit_test(loading_name_name_lua_and_a_path_are_one_file),
        cmocka_unit_test(loading_R2_players_are_checked_against_the_rules_loaded_so_far),
        cmocka_unit_test(loading_pairs_that_cannot_combine_fail_at_the_line_that_completes_them),
        cmocka_unit_test(loading_pairs_refused_by_a_stream_exit_2_at_that_line),
        cmocka_unit_test(loading_cli_rules_apply_to_every_match_a_records_rules_to_its_own),
        cmocka_unit_test(loading_show_names_the_rules_in_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
