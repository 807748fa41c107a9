/* The house-rule API of mtref-rules(5): the game view hooks read (its fields, read
 * only, valid for one call), the hooks at the engine's decisions with the canonical
 * answer, how several files combine (every veto; answers chained in load order),
 * and hostile answers, each a `rules` error naming the file and the hook. */
#define _DEFAULT_SOURCE    /* mkstemps */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TEMP 4

struct files {
    int n;
    char paths[MAX_TEMP][64];
    const char *list[MAX_TEMP];
};

/* Writes a rules file into /tmp and adds its path to f. */
static void add_file(struct files *f, const char *source)
{
    char *path = f->paths[f->n];
    strcpy(path, "/tmp/mtref-api-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    fputs(source, out);
    assert_int_equal(fclose(out), 0);
    f->list[f->n] = path;
    f->n++;
}

static void remove_files(struct files *f)
{
    for (int i = 0; i < f->n; i++) unlink(f->paths[i]);
}

/* A session under one rules file (path kept in f). */
static struct referee *session_with(struct files *f, const char *source)
{
    add_file(f, source);
    struct referee *ref = tu_session(f->list, f->n);
    assert_non_null(ref);
    return ref;
}

static void expect_at(struct referee *ref, const char *line, enum error_code want, int at)
{
    enum error_code got = tu_line(ref, line);
    if (got != want)
        fail_msg("test line %d: '%s' gave %s (%s), expected %s", at, line, error_code_name(got), tu_last()->message,
                 error_code_name(want));
}
#define expect(ref, line, code) expect_at(ref, line, code, __LINE__)

static void expect_message_at(const char *needle, int at)
{
    if (!strstr(tu_last()->message, needle))
        fail_msg("test line %d: message '%s' does not contain '%s'", at, tu_last()->message, needle);
}
#define expect_message(needle) expect_message_at(needle, __LINE__)

/* Two players, round 1 on 12-12: ana holds 12-5 and 12-7, bob 12-6. */
static const char *const DEAL2 =
    "players ana bob\nrounds 1\n"
    "deal ana 5-12 7-12 0-0 0-1 0-2 0-3 0-4 0-5 0-6 1-1 1-2 1-3 1-4 1-5 3-4\n"
    "deal bob 6-12 2-2 2-3 2-4 2-5 2-6 3-3 3-5 3-6 4-4 4-5 4-6 5-5 5-6 8-8";

/* The view's fields, read in a hook and reported through a veto's reason. */
static void view_fields_read_the_game(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { may_play = function(m, v)\n"
        "  local hand = {}\n"
        "  for i, t in ipairs(v.hand) do hand[i] = tostring(t) end\n"
        "  local trains = {}\n"
        "  for name, t in pairs(v.trains) do trains[#trains + 1] = name .. '=' .. t.open .. (t.marker and 'm' or '') end\n"
        "  return false, string.format('%s seat %d round %d/%d engine %d bone %d hands %d/%d plays %d draws %d '\n"
        "    .. 'first %s in %d %s tile %s play %s on %s own %s hand %s trains %s totals %d wins %d dbl %d last %s',\n"
        "    v.player, v.seat, v.round, v.rounds, v.engine, v.boneyard, v.hands.ana, v.hands.bob, v.plays, v.draws,\n"
        "    tostring(v.first_turn), #v.in_play, v.players[2], tostring(m.tile), m.low .. '-' .. m.high, m.train,\n"
        "    tostring(m.own), table.concat(hand, ','), table.concat(trains, ' '), v.totals.ana, v.wins.bob, #v.doubles,\n"
        "    tostring(v.trains.bob.last))\n"
        "end }\n");
    tu_feed(ref, DEAL2);
    expect(ref, "ana play 12-5 ana", ERR_HOUSE_RULE);
    expect_message("ana seat 1 round 1/1 engine 12 bone 60 hands 15/15 plays 0 draws 0 first true in 2 bob "
                   "tile 5-12 play 5-12 on ana own true hand 0-0,0-1,0-2,0-3,0-4,0-5,0-6,1-1,1-2,1-3,1-4,1-5,3-4,"
                   "5-12,7-12 trains ana=12 bob=12 mex=12 totals 0 wins 0 dbl 0 last nil");
    tu_free(ref);
    remove_files(&f);
}

/* last_winners names the winners of the last round ended: nobody in round 1, the
 * player who went out, or every lowest hand of a blocked round. */
static void view_last_winners_names_the_last_round(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { hand_size = function() return 1 end, rounds = {13, 2},\n"
        "  may_play = function(m, v)\n"
        "    if m.tile.low ~= 3 then return true end\n"
        "    local names = {}\n"
        "    for i, name in ipairs(v.last_winners) do names[i] = name end\n"
        "    return false, '[' .. table.concat(names, ',') .. '] ' .. #v.last_winners\n"
        "  end }\n");
    tu_feed(ref, "players ana bob\nrounds 2\ndeal ana 3-12\ndeal bob 3-4");
    expect(ref, "ana play 3-12 ana", ERR_HOUSE_RULE);
    expect_message("[] 0");
    tu_free(ref);
    remove_files(&f);

    struct files g = {0};
    ref = session_with(&g,
        "return { hand_size = function() return 1 end, rounds = {13, 2},\n"
        "  may_play = function(m, v)\n"
        "    if v.round == 1 then return true end\n"
        "    return false, 'last ' .. v.last_winners[1] .. ' ' .. #v.last_winners\n"
        "  end }\n");
    tu_feed(ref, "players ana bob\nrounds 2\ndeal ana 5-12\ndeal bob 3-4\nana play 12-5 ana\n"
                 "deal ana 0-0\ndeal bob 11-2");
    expect(ref, "bob play 11-2 bob", ERR_HOUSE_RULE);       /* [R4] bob opens round 2 */
    expect_message("last ana 1");
    tu_free(ref);
    remove_files(&g);
}

/* Writes to the view, its parts and its tiles raise a clear error; no metatable is
 * reachable; rawset refuses userdata. */
static void view_is_read_only(void **state)
{
    (void)state;
    const char *const writes[] = {
        "v.round = 2", "v.trains.mex.open = 3", "v.totals.ana = -100", "v.hand[1] = 3", "m.train = 'bob'",
        "v.hand[1].low = 3",
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        char source[300];
        snprintf(source, sizeof source, "return { may_play = function(m, v) %s return true end }\n", writes[i]);
        struct files f = {0};
        struct referee *ref = session_with(&f, source);
        tu_feed(ref, DEAL2);
        expect(ref, "ana play 12-5 ana", ERR_RULES);
        expect_message("read-only");
        assert_int_equal(ref->game.trains[0].length, 0);
        tu_free(ref);
        remove_files(&f);
    }
    const char *const tricks[] = {
        "rawset(v, 'round', 2)", "setmetatable(v, {})", "getmetatable(v).__index = nil",
        "debug.setmetatable(v, nil)",
    };
    for (size_t i = 0; i < sizeof tricks / sizeof tricks[0]; i++) {
        char source[300];
        snprintf(source, sizeof source, "return { may_play = function(m, v) %s return true end }\n", tricks[i]);
        struct files f = {0};
        struct referee *ref = session_with(&f, source);
        tu_feed(ref, DEAL2);
        expect(ref, "ana play 12-5 ana", ERR_RULES);
        assert_int_equal(ref->game.round, 1);
        tu_free(ref);
        remove_files(&f);
    }
    /* getmetatable gives a string, never the metatable */
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { may_play = function(m, v) return false, getmetatable(v) .. '; ' .. getmetatable(v.hand[1]) end }\n");
    tu_feed(ref, DEAL2);
    expect(ref, "ana play 12-5 ana", ERR_HOUSE_RULE);
    expect_message("the game view is read-only; tiles are read-only");
    tu_free(ref);
    remove_files(&f);
}

/* A part of the view kept from one call and read in a later one is an error; an
 * unknown field is an error, not a silent nil. */
static void view_is_valid_for_one_call_only(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "local kept\n"
        "return { may_play = function(m, v)\n"
        "  if kept then return #kept > 0 end\n"
        "  kept = v.hand\n"
        "  return true\n"
        "end }\n");
    tu_feed(ref, DEAL2);
    expect(ref, "ana play 12-5 ana", ERR_NONE);
    expect(ref, "bob play 12-6 bob", ERR_RULES);
    expect_message("earlier hook call");
    tu_free(ref);
    remove_files(&f);
    struct files g = {0};
    ref = session_with(&g, "return { may_play = function(m, v) return v.raund == 1 end }\n");
    tu_feed(ref, DEAL2);
    expect(ref, "ana play 12-5 ana", ERR_RULES);
    expect_message("no field 'raund'");
    tu_free(ref);
    remove_files(&g);
}

/* may_play vetoes of two files both apply; answering hooks chain in load order. */
static void files_combine_vetoes_all_and_answers_chain(void **state)
{
    (void)state;
    struct files f = {0};
    add_file(&f, "return { may_play = function(m) return m.train ~= 'mex', 'no mex' end,\n"
                 "         engine = function(round, rounds, v, pip) return 5 end }\n");
    add_file(&f, "return { may_play = function(m) return m.low ~= 7 and m.high ~= 7, 'no seven' end,\n"
                 "         engine = function(round, rounds, v, pip) return pip - 1 end }\n");
    struct referee *ref = tu_session(f.list, f.n);
    tu_feed(ref, "players ana bob\nrounds 1\n"
                 "deal ana 4-5 4-7 4-8 0-0 0-1 0-2 0-3 0-5 0-6 1-1 1-2 1-3 1-5 3-5 2-2\n"
                 "deal bob 4-6 2-3 2-4 2-5 2-6 3-3 3-6 5-5 5-6 6-6 8-8 9-9 10-10 11-11 12-12");
    assert_int_equal(ref->game.engine_pip, 4);            /* 5, then 5 - 1 */
    expect(ref, "ana play 4-5 mex", ERR_HOUSE_RULE);
    expect_message("no mex");
    expect(ref, "ana play 4-7 ana", ERR_HOUSE_RULE);
    expect_message("no seven");
    expect(ref, "ana play 4-8 ana", ERR_NONE);
    tu_free(ref);
    remove_files(&f);
}

/* Each hook's bad answer: a rules error naming the file and the hook, the line
 * rejected and the game unchanged. */
static void hostile_answers_are_rules_errors(void **state)
{
    (void)state;
    struct { const char *source, *line, *hook; } cases[] = {
        {"may_draw = function() return 1 end", "ana draw 9-9", "may_draw"},
        {"may_draw = function() return nil end", "ana draw 9-9", "may_draw"},
        {"may_pass = function() return 'yes' end", "ana pass", "may_pass"},
        {"drawable = function() return 0/0 end", "ana draw 9-9", "drawable"},
        {"drawable = function() return 1e300 end", "ana draw 9-9", "drawable"},
        {"drawable = function() return -1 end", "ana draw 9-9", "drawable"},
        {"drawable = function(v, n) return n + 1 end", "ana draw 9-9", "drawable"},
        {"drawable = function() return setmetatable({}, {__index = function() return 3 end}) end", "ana draw 9-9",
         "drawable"},
        {"another_play = function() return {} end", "ana play 12-11 ana", "another_play"},
        {"another_play = function() error('boom') end", "ana play 12-11 ana", "boom"},
        {"blocked = function() return 2 end", "ana play 12-11 ana", "blocked"},
        {"may_play = function() return 'no' end", "ana play 12-11 ana", "may_play"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char source[400];
        snprintf(source, sizeof source, "return { %s }\n", cases[i].source);
        struct files f = {0};
        struct referee *ref = session_with(&f, source);
        tu_feed(ref, "players ana bob\nrounds 1\n"
                     "deal ana 4-5 4-7 4-8 0-0 0-1 0-2 0-3 0-5 0-6 1-1 1-2 1-3 1-5 3-5 11-12\n"
                     "deal bob 4-6 2-3 2-4 2-5 2-6 3-3 3-6 5-5 5-6 6-6 8-8 9-10 10-10 11-11 10-12");
        struct game before = ref->game;
        if (strstr(cases[i].line, "draw") || strstr(cases[i].line, "pass")) {
            /* ana cannot play: give her nothing that fits */
            tu_free(ref);
            ref = session_with(&f, source);
            tu_feed(ref, "players ana bob\nrounds 1\n"
                         "deal ana 4-5 4-7 4-8 0-0 0-1 0-2 0-3 0-5 0-6 1-1 1-2 1-3 1-5 3-5 2-2\n"
                         "deal bob 4-6 2-3 2-4 2-5 2-6 3-3 3-6 5-5 5-6 6-6 8-8 9-10 10-10 11-11 10-12");
            before = ref->game;
        }
        enum error_code got = tu_line(ref, cases[i].line);
        if (got != ERR_RULES)
            fail_msg("%s: '%s' gave %s (%s), expected rules", cases[i].source, cases[i].line, error_code_name(got),
                     tu_last()->message);
        if (!strstr(tu_last()->message, cases[i].hook) || !strstr(tu_last()->message, "/tmp/mtref-api-"))
            fail_msg("%s: message '%s' names neither the hook nor the file", cases[i].source, tu_last()->message);
        assert_memory_equal(&before, &ref->game, sizeof before);
        tu_free(ref);
        remove_files(&f);
    }
}

/* The round-level hooks' bad answers: a stranger or nobody as winner or opener, a
 * way of laying the engine nobody knows. One tile each, so ana goes out at once. */
static void hostile_round_answers_are_rules_errors(void **state)
{
    (void)state;
    struct { const char *source, *line, *hook; } cases[] = {
        {"winners = function() return {} end", "ana play 11-12 ana", "winners"},
        {"winners = function() return {'zed'} end", "ana play 11-12 ana", "winners"},
        {"winners = function() return 'ana' end", "ana play 11-12 ana", "winners"},
        {"winners = function() return setmetatable({}, {__index = function() return 'ana' end, "
         "__len = function() return 1 end}) end", "ana play 11-12 ana", "winners"},
        {"match_over = function() return 0 end", "ana play 11-12 ana", "match_over"},
        {"round_points = function(o, v, p) p.ana = 0/0 return p end", "ana play 11-12 ana", "round_points"},
        {"opener = function() return 'zed' end", "deal bob 0-0", "opener"},
        {"opener = function() return 2 end", "deal bob 0-0", "opener"},
        {"lay_engine = function() return 'table' end", "deal ana 11-12", "lay_engine"},
        {"engine = function() return 13 end", "deal ana 11-12", "engine"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char source[400];
        snprintf(source, sizeof source, "return { hand_size = function() return 1 end, %s }\n", cases[i].source);
        struct files f = {0};
        struct referee *ref = session_with(&f, source);
        tu_feed(ref, "players ana bob\nrounds 1");
        if (strncmp(cases[i].line, "deal ana", 8) != 0) tu_feed(ref, "deal ana 11-12");
        if (strncmp(cases[i].line, "deal", 4) != 0) tu_feed(ref, "deal bob 0-0");
        struct game before = ref->game;
        enum error_code got = tu_line(ref, cases[i].line);
        if (got != ERR_RULES)
            fail_msg("%s: gave %s (%s), expected rules", cases[i].source, error_code_name(got), tu_last()->message);
        if (!strstr(tu_last()->message, cases[i].hook) || !strstr(tu_last()->message, "/tmp/mtref-api-"))
            fail_msg("%s: message '%s' names neither the hook nor the file", cases[i].source, tu_last()->message);
        assert_memory_equal(&before, &ref->game, sizeof before);
        tu_free(ref);
        remove_files(&f);
    }
}

/* The round-level hooks at work: the opener, the winners, a match that goes on. */
static void round_hooks_pick_opener_winners_and_the_end(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { hand_size = function() return 1 end,\n"
        "  opener = function(v, seat) assert(seat == (v.round == 1 and 'ana' or 'bob')) return v.round == 1 and 'bob' or 'ana' end,\n"
        "  match_over = function(v, over) return v.round >= 2 end,\n"
        "  winners = function(v, w) assert(w[1] == 'bob' and #w == 1) return {'ana', 'bob'} end }\n");
    tu_feed(ref, "players ana bob\nrounds 1\ndeal ana 11-12\ndeal bob 12-10");
    assert_int_equal(ref->game.turn, 1);                /* R4 would say ana */
    expect(ref, "bob play 12-10 bob", ERR_NONE);
    assert_true(tu_last()->round_ended);
    assert_false(tu_last()->match_ended);               /* rounds 1, but the rule says 2 */
    assert_int_equal(ref->game.round, 2);
    tu_feed(ref, "deal ana 1-11\ndeal bob 11-10");
    assert_int_equal(ref->game.turn, 0);                /* R4 would say bob; the rule says ana */
    expect(ref, "ana play 11-1 mex", ERR_NONE);
    assert_true(tu_last()->match_ended);
    assert_int_equal(tu_last()->nwinners, 2);           /* the hook's list, not the lowest total */
    tu_free(ref);
    remove_files(&f);
}

/* must_cover lifts the duty [R15]: bob need not cover ana's double. */
static void must_cover_lifts_the_duty(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { must_cover = function(v, owed) return owed and v.player == v.trains[v.doubles[1].train].owner end,\n"
        "  another_play = function(m, v, again) return false end }\n");
    tu_feed(ref, "players ana bob\nrounds 1\n"
                 "deal ana 4-12 4-4 0-0 0-1 0-2 0-3 0-5 0-6 1-1 1-2 1-3 1-5 3-5 2-2 7-7\n"
                 "deal bob 6-12 2-3 2-4 2-5 2-6 3-3 3-6 5-5 5-6 6-6 8-8 9-10 10-10 11-11 10-12");
    expect(ref, "ana play 12-4 ana", ERR_NONE);
    expect(ref, "bob play 12-6 bob", ERR_NONE);
    expect(ref, "ana play 4-4 ana", ERR_NONE);          /* another_play: no cover now */
    assert_int_equal(ref->game.turn, 1);
    expect(ref, "bob play 6-6 bob", ERR_NONE);          /* bob does not owe ana's cover */
    tu_free(ref);
    remove_files(&f);
}

/* A turn that has not ended after 64 plays is a rules error: another_play says yes
 * for ever, and ana draws a fitting tile whenever she has none (two tiles each). */
static void a_turn_without_end_is_a_rules_error(void **state)
{
    (void)state;
    struct files f = {0};
    struct referee *ref = session_with(&f,
        "return { hand_size = function() return 2 end,\n"
        "  another_play = function() return true end,\n"
        "  may_draw = function() return true end,\n"
        "  may_play = function(m) return m.own end }\n");
    tu_feed(ref, "players ana bob\nrounds 1\ndeal ana 0-12 5-5\ndeal bob 1-1 2-2\nana play 12-0 ana");
    int plays = 1;
    enum error_code code = ERR_NONE;
    while (code == ERR_NONE) {
        const struct game *g = &ref->game;
        int open = g->trains[0].open_pip;
        /* a tile of the boneyard that fits, never leads to 5, and leads where most tiles
         * are left (a double first: it keeps the pip) */
        tile_t pick = TILE_NONE;
        int best = -1;
        for (tile_t t = 0; t < TILE_COUNT; t++) {
            if (!tileset_has(g->boneyard, t) || !tile_has_pip(t, open)) continue;
            int to = tile_other_pip(t, open);
            if (to == 5) continue;
            int left = tile_is_double(t) ? 100 : tileset_count(tileset_and(g->boneyard, tileset_with_pip(to)));
            if (left > best) { best = left; pick = t; }
        }
        if (pick == TILE_NONE) fail_msg("no tile left to go on after %d plays", plays);
        char text[TILE_TEXT_SIZE], line[40];
        tile_format(pick, text);
        snprintf(line, sizeof line, "ana draw %s", text);
        expect(ref, line, ERR_NONE);
        snprintf(line, sizeof line, "ana play %s ana", text);
        code = tu_line(ref, line);
        plays++;
    }
    assert_int_equal(code, ERR_RULES);
    expect_message("has not ended after 64 plays");
    assert_int_equal(plays, 64);
    tu_free(ref);
    remove_files(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_fields_read_the_game),
        cmocka_unit_test(view_last_winners_names_the_last_round),
        cmocka_unit_test(view_is_read_only),
        cmocka_unit_test(view_is_valid_for_one_call_only),
        cmocka_unit_test(files_combine_vetoes_all_and_answers_chain),
        cmocka_unit_test(hostile_answers_are_rules_errors),
        cmocka_unit_test(hostile_round_answers_are_rules_errors),
        cmocka_unit_test(round_hooks_pick_opener_winners_and_the_end),
        cmocka_unit_test(must_cover_lifts_the_duty),
        cmocka_unit_test(a_turn_without_end_is_a_rules_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
