/* The line grammar of protocol.md: keywords, names, tiles, numbers, comments, bytes, and the syntax error. */
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "protocol.h"

static struct command cmd;

static bool parse_n(const char *line, size_t len)
{
    char err[200];
    return protocol_parse(line, len, &cmd, err, sizeof err);
}

static bool parse(const char *line) { return parse_n(line, strlen(line)); }

static struct referee *start(const char *setup)
{
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, setup);
    return ref;
}

static bool token_equals(struct token t, const char *s)
{
    return (size_t)t.len == strlen(s) && memcmp(t.text, s, (size_t)t.len) == 0;
}

/* ---- keywords and names ---- */

static void keywords_are_lower_case_and_Deal_is_a_name(void **state)
{
    (void)state;
    assert_true(parse("players Deal Play Mex PASS"));
    assert_int_equal(cmd.kind, CMD_PLAYERS);
    assert_int_equal(cmd.count, 4);
    assert_true(token_equals(cmd.items[0], "Deal"));
    assert_false(parse("Players 2"));
    assert_false(parse("DEAL p1 1-2"));
    assert_false(parse("p1 Pass"));
    assert_false(parse("p1 PLAY 1-12 p1"));
    assert_false(parse("Show"));
    struct referee *ref = start("players Deal Play\nrounds 1");
    tu_deal(ref, (const char *const[]){"1-12", "2-12"}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "Deal play 1-12 Deal"), ERR_NONE);
    assert_int_equal(tu_line(ref, "Play play 2-12 Deal"), ERR_TRAIN_CLOSED);
    assert_int_equal(tu_line(ref, "Play play 2-12 Play"), ERR_NONE);
    tu_free(ref);
}

static void keywords_and_mex_are_not_names(void **state)
{
    (void)state;
    const char *words[] = {"players", "rules", "rounds", "seed", "round", "deal", "play", "draw", "pass",
                           "show", "legal", "mex"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        assert_false(protocol_is_name(words[i], strlen(words[i])));
        char line[64];
        snprintf(line, sizeof line, "players ana %s", words[i]);
        assert_false(parse(line));
        snprintf(line, sizeof line, "deal %s 1-2", words[i]);
        assert_false(parse(line));
    }
    assert_false(parse("mex pass"));
    assert_false(parse("mex play 1-12 mex"));
    assert_true(parse("ana play 1-12 mex"));
    assert_true(cmd.train_is_mex);
    assert_true(parse("ana play 1-12 mexx"));
    assert_false(cmd.train_is_mex);
    assert_true(protocol_is_name("Mex", 3));
    assert_true(protocol_is_name("players2", 8));
}

static void names_are_1_to_16_characters_starting_with_a_letter(void **state)
{
    (void)state;
    assert_true(protocol_is_name("a", 1));
    assert_true(protocol_is_name("Z", 1));
    assert_true(protocol_is_name("abcdefghijklmnop", 16));
    assert_false(protocol_is_name("abcdefghijklmnopq", 17));
    assert_true(protocol_is_name("a_1_B", 5));
    assert_false(protocol_is_name("", 0));
    assert_false(protocol_is_name("1abc", 4));
    assert_false(protocol_is_name("_abc", 4));
    assert_false(protocol_is_name("a-b", 3));
    assert_false(protocol_is_name("a.b", 3));
    assert_false(protocol_is_name("caf\xc3\xa9", 5));
    assert_true(parse("players abcdefghijklmnop b"));
    assert_false(parse("players abcdefghijklmnopq b"));
    assert_false(parse("players 1abc b"));
    assert_false(parse("ana play 1-12 1abc"));
    assert_false(parse("ana play 1-12 abcdefghijklmnopq"));
}

static void a_name_that_is_not_seated_is_unknown_player_not_syntax(void **state)
{
    (void)state;
    struct referee *ref = start("players ana bob");
    tu_deal(ref, (const char *const[]){"1-12", ""}, (const unsigned[]){0, 0}, NULL, NULL);
    assert_int_equal(tu_line(ref, "ana play 1-12 Mex"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "ana play 1-12 BOB"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "ana play 1-12 mex"), ERR_NONE);
    tu_free(ref);
}

/* ---- set-up lines ---- */

static void players_n_seats_p1_to_pn(void **state)
{
    (void)state;
    struct referee *ref = start("players 4");
    assert_int_equal(ref->game.nplayers, 4);
    assert_string_equal(ref->game.names[0], "p1");
    assert_string_equal(ref->game.names[3], "p4");
    assert_int_equal(tu_line(ref, "players 08"), ERR_NONE);       /* leading zeros */
    assert_string_equal(ref->game.names[7], "p8");
    assert_int_equal(tu_line(ref, "players ana bob"), ERR_NONE);  /* the last one stands */
    assert_int_equal(ref->game.nplayers, 2);
    assert_int_equal(tu_line(ref, "p1 pass"), ERR_UNKNOWN_PLAYER);
    tu_free(ref);
}

static void setup_values_outside_the_rules_are_syntax(void **state)
{
    (void)state;
    struct referee *ref = start("");
    const char *bad[] = {"players 1", "players 9", "players 0", "players 000", "players 99999999999999999999999",
                         "players ana", "players ana ana", "players ana bob ana", "players a b c d e f g h i",
                         "rounds 5", "rounds 0", "rounds 14", "rounds 99999999999999999999999", "rounds -7",
                         "rounds +7", "rounds 7.0", "rounds", "rounds 7 1", "seed", "seed -1", "seed 1.5",
                         "seed 0x10", "seed 18446744073709551616", "seed 1 2", "round", "round 1 2", "round x",
                         "players", "rules", "players 2 3", "players 2 ana"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (tu_line(ref, bad[i]) != ERR_SYNTAX) fail_msg("'%s' was not syntax", bad[i]);
        assert_int_equal(error_code_status(tu_last()->code), 2);
    }
    assert_int_equal(ref->game.nplayers, 0);
    assert_int_equal(tu_line(ref, "seed 18446744073709551615"), ERR_NONE);
    assert_int_equal(ref->game.rng, UINT64_MAX);
    assert_int_equal(tu_line(ref, "seed 0"), ERR_NONE);
    assert_int_equal(tu_line(ref, "rounds 0007"), ERR_NONE);
    assert_int_equal(ref->game.rounds, 7);
    tu_free(ref);
}

static void a_bare_draw_is_syntax_without_a_seed(void **state)
{
    (void)state;
    assert_true(parse("ana draw"));                 /* the grammar allows it; the context decides */
    assert_int_equal(cmd.tile, TILE_NONE);
    struct referee *ref = start("players 2");
    tu_deal(ref, (const char *const[]){"", ""}, (const unsigned[]){TU_PIP(12), 0}, "3-4", NULL);
    assert_int_equal(tu_line(ref, "p1 draw"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "p2 draw"), ERR_SYNTAX);       /* syntax before not-your-turn */
    assert_int_equal(tu_line(ref, "p1 draw 3-4"), ERR_NONE);
    tu_free(ref);
    ref = start("players 2\nseed 17");                       /* p1 holds no 12 in this deal */
    assert_int_equal(tu_line(ref, "p1 draw"), ERR_NONE);      /* allowed with a seed */
    assert_int_equal(tu_last()->drew, tile_from_pips(5, 12)); /* the referee names the tile */
    assert_int_equal(tu_line(ref, "p2 draw"), ERR_NOT_YOUR_TURN);
    tu_free(ref);
    ref = start("players 2\nseed 9");                        /* here p1 holds 1-12, 4-12, 5-12 */
    assert_int_equal(tu_line(ref, "p1 draw"), ERR_MUST_PLAY); /* a bare draw is still a draw [R8] */
    tu_free(ref);
}

/* show takes at most one argument, a seated player's name; legal takes none. */
static void show_takes_a_seated_name_at_most_legal_none(void **state)
{
    (void)state;
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "show"), ERR_NONE);
    assert_int_equal(tu_line(ref, "legal"), ERR_NONE);
    assert_int_equal(tu_line(ref, "  show\t# the table"), ERR_NONE);
    assert_int_equal(tu_line(ref, "show p1"), ERR_NONE);
    assert_int_equal(tu_line(ref, "show p2 # as p2 sees it"), ERR_NONE);
    assert_int_equal(tu_line(ref, "show zed"), ERR_UNKNOWN_PLAYER);
    assert_int_equal(tu_line(ref, "show p1 p2"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "show mex"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "show 1"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "show play"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "legal p1"), ERR_SYNTAX);
    assert_int_equal(tu_line(ref, "legal 1"), ERR_SYNTAX);
    tu_free(ref);
}

/* ---- moves ---- */

static void moves_take_exactly_their_arguments(void **state)
{
    (void)state;
    assert_true(parse("ana play 12-5 bob"));
    assert_int_equal(cmd.kind, CMD_PLAY);
    assert_int_equal(cmd.tile, tile_from_pips(5, 12));
    assert_true(token_equals(cmd.actor, "ana"));
    assert_true(token_equals(cmd.train, "bob"));
    assert_true(parse("ana draw 3-4"));
    assert_int_equal(cmd.kind, CMD_DRAW);
    assert_int_equal(cmd.tile, tile_from_pips(3, 4));
    assert_true(parse("ana pass"));
    assert_int_equal(cmd.kind, CMD_PASS);
    const char *bad[] = {"ana", "ana play", "ana play 1-2", "ana play 1-2 bob mex", "ana play bob 1-2",
                         "ana draw 1-2 3-4", "ana pass now", "ana jump", "ana plays 1-2 mex", "play 1-2 ana",
                         "draw 1-2", "pass", "hello", "1-2", "ana draw 3-4 # ok", "ana draw x # no"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (parse(bad[i]) != (i == sizeof bad / sizeof bad[0] - 2)) fail_msg("'%s' parsed wrong", bad[i]);
}

static void deal_without_tiles_is_bad_deal_not_syntax(void **state)
{
    (void)state;
    assert_true(parse("deal ana"));
    assert_int_equal(cmd.kind, CMD_DEAL);
    assert_int_equal(cmd.count, 0);
    assert_false(parse("deal"));
    assert_false(parse("deal ana 1-2 x"));
    struct referee *ref = start("players ana bob");
    assert_int_equal(tu_line(ref, "deal ana"), ERR_BAD_DEAL);
    tu_free(ref);
}

/* ---- tiles and numbers ---- */

static void tiles_are_two_pips_0_to_12_in_either_order_leading_zeros_allowed(void **state)
{
    (void)state;
    assert_true(parse("ana play 012-0001 mex"));
    assert_int_equal(cmd.tile, tile_from_pips(1, 12));
    assert_true(parse("ana play 00000000000000000000000000012-5 mex"));
    assert_int_equal(cmd.tile, tile_from_pips(5, 12));
    assert_true(parse("ana play 0-0 mex"));
    assert_int_equal(cmd.tile, tile_from_pips(0, 0));
    const char *bad[] = {"13-1", "1-13", "12-13", "99-1", "1-99999999999999999999999999", "18446744073709551617-1",
                         "1--2", "-1-2", "1-2-", "1-2-3", "1-", "-1", "12", "1_2", "a-b", "1-b", "+1-2", "1-+2",
                         " 1-2x", "1.0-2", "\xd9\xa1-\xd9\xa2", "1\xe2\x80\x90\x32"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[128];
        snprintf(line, sizeof line, "ana play %s mex", bad[i]);
        if (parse(line)) fail_msg("'%s' parsed", line);
        snprintf(line, sizeof line, "ana draw %s", bad[i]);
        if (parse(line)) fail_msg("'%s' parsed", line);
        snprintf(line, sizeof line, "deal ana 1-2 %s", bad[i]);
        if (parse(line)) fail_msg("'%s' parsed", line);
    }
}

static void numbers_are_ascii_digits_with_leading_zeros(void **state)
{
    (void)state;
    assert_true(parse("round 0000000000000000000000000000000001"));
    assert_int_equal(cmd.number, 1);
    assert_true(parse("seed 000018446744073709551615"));
    assert_int_equal(cmd.seed, UINT64_MAX);
    assert_false(parse("round \xd9\xa1"));           /* an Arabic-Indic one */
    assert_false(parse("seed 99999999999999999999999999999999"));
    assert_false(parse("rounds \xef\xbc\x97"));      /* a fullwidth 7 */
}

/* ---- bytes: NUL, UTF-8, length ---- */

static void nul_is_syntax_even_in_a_comment(void **state)
{
    (void)state;
    assert_false(parse_n("show\0", 5));
    assert_false(parse_n("ana pass # a\0b", 14));
    assert_false(parse_n("\0", 1));
    struct referee *ref = start("players 2");
    struct response resp;
    referee_line(ref, "show # \0", 8, false, 1, &resp);
    assert_int_equal(resp.verdict.code, ERR_SYNTAX);
    referee_line(ref, "players 3 # \0", 13, false, 1, &resp);
    assert_int_equal(resp.verdict.code, ERR_SYNTAX);
    assert_int_equal(ref->game.nplayers, 2);
    tu_free(ref);
}

static void invalid_utf8_is_syntax_even_in_a_comment(void **state)
{
    (void)state;
    const char *bad[] = {
        "\xc0\xaf",             /* overlong '/' */
        "\xc1\xbf",             /* overlong, two bytes */
        "\xe0\x80\xaf",         /* overlong, three bytes */
        "\xe0\x9f\xbf",         /* overlong U+07FF */
        "\xf0\x80\x80\xaf",     /* overlong, four bytes */
        "\xf0\x8f\xbf\xbf",     /* overlong U+FFFF */
        "\xed\xa0\x80",         /* surrogate U+D800 */
        "\xed\xbf\xbf",         /* surrogate U+DFFF */
        "\xf4\x90\x80\x80",     /* above U+10FFFF */
        "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80", "\xfe", "\xff",
        "\x80",                 /* a lone continuation byte */
        "\xbf\xbf",
        "\xc3",                 /* truncated at the end of the line */
        "\xe2\x82",
        "\xf0\x9f\x98",
        "\xe2\x82 x",           /* truncated inside the line */
        "\xc3\x28",             /* a bad continuation */
        "\xe2\x28\xa1",
        "\xf0\x9f\x98\x28",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "show # %s", bad[i]);
        if (parse(line)) fail_msg("bytes %zu in a comment parsed", i);
        if (protocol_utf8_valid(bad[i], strlen(bad[i]))) fail_msg("bytes %zu are valid UTF-8", i);
        snprintf(line, sizeof line, "players ana b%s", bad[i]);
        if (parse(line)) fail_msg("bytes %zu in a name parsed", i);
    }
    const char *good[] = {"caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xed\x9f\xbf", "\xee\x80\x80",
                          "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xc2\x80", "\xe0\xa0\x80", "\xf0\x90\x80\x80"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "show # %s", good[i]);
        if (!parse(line)) fail_msg("valid UTF-8 %zu in a comment refused", i);
        assert_int_equal(cmd.kind, CMD_SHOW);
    }
    assert_false(parse("players caf\xc3\xa9 bob"));     /* valid UTF-8, but not a name */
    struct referee *ref = start("players 2");
    assert_int_equal(tu_line(ref, "players 3 # \xed\xa0\x80"), ERR_SYNTAX);
    assert_int_equal(ref->game.nplayers, 2);
    tu_free(ref);
}

static void lines_longer_than_4096_bytes_are_syntax(void **state)
{
    (void)state;
    char *line = malloc(5000);
    assert_non_null(line);
    memset(line, ' ', 5000);
    memcpy(line, "show #", 6);
    assert_true(parse_n(line, 4096));
    assert_false(parse_n(line, 4097));
    memset(line, ' ', 5000);
    memcpy(line + 4096 - 4, "show", 4);
    assert_true(parse_n(line, 4096));
    assert_int_equal(cmd.kind, CMD_SHOW);
    struct referee *ref = start("");
    struct response resp;
    referee_line(ref, line, 4096, false, 1, &resp);
    assert_int_equal(resp.verdict.code, ERR_NONE);
    referee_line(ref, "", 0, true, 2, &resp);           /* the reader dropped a longer one */
    assert_int_equal(resp.kind, RESPONSE_VERDICT);
    assert_int_equal(resp.verdict.code, ERR_SYNTAX);
    tu_free(ref);
    free(line);
}

static void a_deal_line_of_4096_bytes_is_read_whole(void **state)
{
    (void)state;
    /* 15 tiles padded with spaces to the limit */
    char line[4200];
    int len = snprintf(line, sizeof line, "deal p1 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 1-1");
    memset(line + len, ' ', sizeof line - (size_t)len);
    memcpy(line + 4096 - 3, "1-2", 3);
    struct referee *ref = start("players 2");
    struct response resp;
    referee_line(ref, line, 4096, false, 1, &resp);
    assert_int_equal(resp.verdict.code, ERR_NONE);
    assert_true(ref->game.dealt[0]);
    tu_free(ref);
}

/* ---- comments, blanks, separators ---- */

static void comments_and_blank_lines_get_no_response(void **state)
{
    (void)state;
    const char *quiet[] = {"", " ", "\t\t ", "#", "# a comment", "   # indented", "#show"};
    struct referee *ref = start("");
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        struct response resp;
        referee_line(ref, quiet[i], strlen(quiet[i]), false, 1, &resp);
        assert_int_equal(resp.kind, RESPONSE_NONE);
        assert_int_equal(resp.verdict.code, ERR_NONE);
    }
    assert_true(parse("players ana bob # cid"));
    assert_int_equal(cmd.count, 2);
    assert_true(parse("players ana bob#cid"));           /* # starts a comment anywhere */
    assert_int_equal(cmd.count, 2);
    assert_true(parse("ana pass#"));
    assert_int_equal(cmd.kind, CMD_PASS);
    tu_free(ref);
}

static void only_spaces_and_tabs_separate_tokens(void **state)
{
    (void)state;
    assert_true(parse("\tana \t play\t\t12-5   mex \t"));
    assert_int_equal(cmd.kind, CMD_PLAY);
    assert_true(cmd.train_is_mex);
    assert_false(parse("ana\vpass"));
    assert_false(parse("ana\fpass"));
    assert_false(parse("ana\rpass"));
    assert_false(parse("ana pass\r"));                    /* a lone CR is no line ending here */
    assert_false(parse("ana\xc2\xa0pass"));               /* no-break space */
    assert_false(parse("ana,pass"));
}

static void crlf_line_endings_are_accepted(void **state)
{
    (void)state;
    char *out = NULL;
    int status = tu_run("players 2\r\nrounds 1\r\n# note\r\n\r\nshow\r\nlegal\r\n", true, false, NULL, 0, &out);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "{\"line\":1,\"ok\":true}"));
    assert_non_null(strstr(out, "{\"line\":2,\"ok\":true}"));
    assert_null(strstr(out, "\"line\":3"));
    assert_null(strstr(out, "\"line\":4"));
    free(out);
}

/* ---- what a syntax error does to a stream ---- */

static void a_syntax_error_exits_2_and_the_record_stops(void **state)
{
    (void)state;
    char *out = NULL;
    int status = tu_run("players 2\nrounds 5\nrounds 7\n", true, false, NULL, 0, &out);
    assert_int_equal(status, 2);
    assert_non_null(strstr(out, "{\"line\":2,\"ok\":false,\"error\":\"syntax\""));
    assert_null(strstr(out, "\"line\":3"));
    free(out);
    status = tu_run("players 2\nrounds 5\nrounds 7\nround 2\n", true, true, NULL, 0, &out);
    assert_int_equal(status, 2);
    assert_non_null(strstr(out, "{\"line\":3,\"ok\":true}"));
    assert_non_null(strstr(out, "{\"line\":4,\"ok\":false,\"error\":\"round-mismatch\""));
    free(out);
    status = tu_run("players 2\nround 2\n", true, false, NULL, 0, &out);
    assert_int_equal(status, 1);
    free(out);
    for (int code = ERR_GAME_OVER; code < ERR_RULES; code++) assert_int_equal(error_code_status(code), 1);
    assert_int_equal(error_code_status(ERR_SYNTAX), 2);
    assert_int_equal(error_code_status(ERR_RULES), 2);
    assert_int_equal(error_code_status(ERR_NONE), 0);
}

static void error_codes_have_their_protocol_names(void **state)
{
    (void)state;
    const char *names[] = {"syntax", "game-over", "setup-closed", "round-mismatch", "unknown-player", "bad-deal",
                           "not-your-turn", "not-in-hand", "must-cover", "train-closed", "no-match", "house-rule",
                           "must-play", "already-drawn", "boneyard-empty", "not-in-boneyard", "draw-mismatch",
                           "must-draw", "rules"};
    for (int code = ERR_SYNTAX; code < ERR_COUNT; code++)
        assert_string_equal(error_code_name(code), names[code - ERR_SYNTAX]);
}

/* ---- the fast path for moves and deals ---- */

/* A line plus a trailing space means the same but always takes the general parser:
 * whatever the fast path accepts must come out of both alike. */
static void check_same_as_general(const char *line)
{
    char err[200];
    size_t len = strlen(line);
    struct command *fast = malloc(sizeof *fast), *general = malloc(sizeof *general);
    assert_non_null(fast);
    assert_non_null(general);
    char *spaced = malloc(len + 2);
    assert_non_null(spaced);
    memcpy(spaced, line, len);
    spaced[len] = ' ';
    spaced[len + 1] = '\0';
    bool a = protocol_parse(line, len, fast, err, sizeof err);
    bool b = protocol_parse(spaced, len + 1, general, err, sizeof err);
    if (a != b) fail_msg("'%s': accepted %d, with a trailing space %d", line, a, b);
    if (a) {
        assert_int_equal(fast->kind, general->kind);
        assert_int_equal(fast->count, general->count);
        if (fast->kind == CMD_PLAY || fast->kind == CMD_DRAW || fast->kind == CMD_PASS || fast->kind == CMD_DEAL) {
            assert_int_equal(fast->actor.len, general->actor.len);
            assert_memory_equal(fast->actor.text, line + (general->actor.text - spaced), (size_t)fast->actor.len);
        }
        if (fast->kind == CMD_PLAY) {
            assert_int_equal(fast->train_is_mex, general->train_is_mex);
            assert_int_equal(fast->train.len, general->train.len);
            assert_memory_equal(fast->train.text, line + (general->train.text - spaced), (size_t)fast->train.len);
        }
        if (fast->kind == CMD_PLAY || fast->kind == CMD_DRAW) assert_int_equal(fast->tile, general->tile);
        if (fast->kind == CMD_DEAL)
            for (int i = 0; i < fast->count; i++) assert_int_equal(fast->tiles[i], general->tiles[i]);
    }
    free(spaced);
    free(general);
    free(fast);
}

static void the_fast_path_parses_moves_and_deals_as_the_general_parser_does(void **state)
{
    (void)state;
    static const char *const words[] = {
        "p1", "ana", "Bob_7", "mex", "Mex", "play", "draw", "pass", "deal", "rules", "players", "legal",
        "3-4", "12-12", "0-0", "13-1", "1-13", "012-5", "5-012", "1-", "-1", "12-", "3--4", "a-b", "9-10",
        "abcdefghijklmnop", "abcdefghijklmnopq", "x", "_x", "1x", "round", "seed", "show", "#", "",
        "p\xc3\xa9", "\t", "p1\x7f",
    };
    const size_t nwords = sizeof words / sizeof words[0];
    uint64_t rng = 20261201;
    char line[256];
    for (int iter = 0; iter < 60000; iter++) {
        /* shapes near the fast ones: NAME VERB [TILE [TRAIN]] and deal NAME TILE... */
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        int n = 1 + (int)((rng >> 33) % 6);
        size_t len = 0;
        for (int w = 0; w < n; w++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t pick = (size_t)(rng >> 33) % nwords;
            /* mostly the right word in the right place */
            if ((rng >> 20) % 3) {
                static const char *const shape[] = {"p1", "play", "3-12", "p2"};
                static const char *const deal_shape[] = {"deal", "p1", "0-4", "11-12", "2-2", "7-9"};
                pick = 0;
                const char *want = ((rng >> 40) & 1) ? deal_shape[w] : w < 4 ? shape[w] : "1-2";
                if ((rng >> 41) & 1 && w == 1) want = ((rng >> 42) & 1) ? "draw" : "pass";
                size_t wl = strlen(want);
                if (w) line[len++] = ' ';
                memcpy(line + len, want, wl);
                len += wl;
                continue;
            }
            size_t wl = strlen(words[pick]);
            if (w) line[len++] = ' ';
            memcpy(line + len, words[pick], wl);
            len += wl;
        }
        line[len] = '\0';
        check_same_as_general(line);
    }
    /* and the shapes themselves, every tile spelled every way */
    check_same_as_general("p1 pass");
    check_same_as_general("a pass");
    check_same_as_general("p1 draw");
    check_same_as_general("p1 draw 0-0");
    check_same_as_general("p1 play 12-12 mex");
    check_same_as_general("p1 play 5-3 p1");
    check_same_as_general("deal p1 0-1 2-3 4-5 12-11");
    check_same_as_general("deal mex 0-1");
    check_same_as_general("deal deal 0-1");
    check_same_as_general("mex pass");
    check_same_as_general("play pass");
    check_same_as_general("Deal play 1-2 Deal");
    check_same_as_general("p1 play 1-2 mexx");
    check_same_as_general("p1 play 1-2 me");
}

/* The --json answer of a stream counts its line numbers up in place: every number,
 * in order, skipping or not, across 9 -> 10, 99 -> 100 and 999999 -> 1000000, is
 * written as the one-off answer writes it, and so is every tile drawn. */
static void json_line_numbers_counted_up_are_the_numbers_formatted(void **state)
{
    (void)state;
    struct output_json_lines lines;
    output_json_lines_init(&lines);
    char a[OUTPUT_JSON_OK_MAX], b[OUTPUT_JSON_OK_MAX];
    long starts[] = {1, 95, 995, 999990, 99999990, 42};
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
        for (long line = starts[k]; line < starts[k] + 20; line += (line % 7 == 3) ? 2 : 1) {
            tile_t drew = line % 3 == 0 ? tile_from_pips((int)(line % 13), 12) : TILE_NONE;
            size_t n = output_json_ok_format_next(a, &lines, line, drew);
            size_t m = output_json_ok_format(b, line, drew);
            assert_int_equal(n, m);
            if (memcmp(a, b, n) != 0) fail_msg("line %ld: %.*s vs %.*s", line, (int)n, a, (int)m, b);
        }
    /* every tile of the largest set as the one drawn, and none */
    for (tile_t t = TILE_NONE; t < TILE_COUNT; t++) {
        size_t n = output_json_ok_format_next(a, &lines, 7000 + t, t);
        size_t m = output_json_ok_format(b, 7000 + t, t);
        assert_int_equal(n, m);
        if (memcmp(a, b, n) != 0) fail_msg("tile %d: %.*s vs %.*s", t, (int)n, a, (int)m, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keywords_are_lower_case_and_Deal_is_a_name),
        cmocka_unit_test(keywords_and_mex_are_not_names),
        cmocka_unit_test(names_are_1_to_16_characters_starting_with_a_letter),
        cmocka_unit_test(a_name_that_is_not_seated_is_unknown_player_not_syntax),
        cmocka_unit_test(players_n_seats_p1_to_pn),
        cmocka_unit_test(setup_values_outside_the_rules_are_syntax),
        cmocka_unit_test(a_bare_draw_is_syntax_without_a_seed),
        cmocka_unit_test(show_takes_a_seated_name_at_most_legal_none),
        cmocka_unit_test(moves_take_exactly_their_arguments),
        cmocka_unit_test(deal_without_tiles_is_bad_deal_not_syntax),
        cmocka_unit_test(tiles_are_two_pips_0_to_12_in_either_order_leading_zeros_allowed),
        cmocka_unit_test(numbers_are_ascii_digits_with_leading_zeros),
        cmocka_unit_test(nul_is_syntax_even_in_a_comment),
        cmocka_unit_test(invalid_utf8_is_syntax_even_in_a_comment),
        cmocka_unit_test(lines_longer_than_4096_bytes_are_syntax),
        cmocka_unit_test(a_deal_line_of_4096_bytes_is_read_whole),
        cmocka_unit_test(comments_and_blank_lines_get_no_response),
        cmocka_unit_test(only_spaces_and_tabs_separate_tokens),
        cmocka_unit_test(crlf_line_endings_are_accepted),
        cmocka_unit_test(a_syntax_error_exits_2_and_the_record_stops),
        cmocka_unit_test(error_codes_have_their_protocol_names),
        cmocka_unit_test(the_fast_path_parses_moves_and_deals_as_the_general_parser_does),
        cmocka_unit_test(json_line_numbers_counted_up_are_the_numbers_formatted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
