/* The referee session: rules lines during set-up, and regressions found in review. */
#include "testutil.h"

#include "luamemo.h"
#include "luarules.h"
#include "luasandbox.h"
#include "match_run.h"
#include "line_asm.h"
#include "outq.h"
#include "reader.h"
#include "stats.h"
#include "stats_json.h"
#include "walk.h"
#include "selfplay.h"
#include "referee.h"

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
    luamemo_free(NULL);
    reader_close(NULL);
    outq_free(NULL);
    line_asm_free(NULL);
    mbuf_free(NULL);
    match_result_free(NULL);
    stats_free(NULL);
    stats_json_free(NULL);
    walk_index_free(NULL);
    struct referee *ref = tu_session((const char *const[]){"double-blank-50"}, 1);
    tu_feed(ref, "rules ascending\nplayers 2");
    referee_free(ref);
    referee_free(ref);
    free(ref);
}

/* The fast path for records' move lines answers as the grammar does: every line of
 * self-played records, and the same line broken in the ways the fast path must hand
 * on (another player's turn, a tile not held, an unknown train, a tile out of the set,
 * mex spelled wrong), read once as written and once with a trailing comment (which
 * only the grammar reads), give the same verdict, message, command and table. */
static void the_fast_path_answers_as_the_grammar_does(void **state)
{
    (void)state;
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 3;
    o.seed = 31;
    o.games = 3;
    char *text, err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, NULL, 0, &text, NULL, err), 0);
    struct referee *a = tu_session(NULL, 0), *b = tu_session(NULL, 0);
    struct response *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    struct referee *ca = malloc(sizeof *ca), *cb = malloc(sizeof *cb);
    assert_true(ra && rb && ca && cb);
    static const char *const breaks[] = {"p2 pass", "p1 play 12-12 p1", "p1 play 3-4 zed", "p1 play 3-13 mex",
                                         "p1 play 3-4 mez", "p1 draw 0-0", "p3 draw", "p1 pass"};
    long number = 0, accepted = 0, rejected = 0;
    int k = 0;
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        char tried[PROTOCOL_LINE_MAX + 64];
        const char *variants[2] = {line, NULL};
        if (strstr(line, " play ") || strstr(line, " draw") || strstr(line, " pass")) variants[1] = breaks[k++ % 8];
        for (int v = 1; v >= 0; v--) {
            const char *l = variants[v];
            if (!l) continue;
            /* a broken line is tried on copies (no rules are loaded: a plain copy is a
             * session), so that the record itself stays legal */
            struct referee *x = a, *y = b;
            if (v == 1) {
                *ca = *a;
                *cb = *b;
                x = ca;
                y = cb;
            }
            snprintf(tried, sizeof tried, "%s # read by the grammar", l);
            referee_line(x, l, strlen(l), false, ++number, ra);
            referee_line(y, tried, strlen(tried), false, number, rb);
            if (ra->kind != rb->kind || ra->verdict.code != rb->verdict.code)
                fail_msg("line %ld '%s': fast %d %d '%s', grammar %d %d '%s'", number, l, ra->kind, ra->verdict.code,
                         ra->verdict.message, rb->kind, rb->verdict.code, rb->verdict.message);
            assert_string_equal(ra->verdict.message, rb->verdict.message);
            assert_int_equal(ra->verdict.drew, rb->verdict.drew);
            assert_int_equal(ra->nlegal, rb->nlegal);
            assert_int_equal(x->cmd.kind, y->cmd.kind);
            if (ra->verdict.code == ERR_NONE && x->cmd.kind >= CMD_PLAY && x->cmd.kind <= CMD_PASS) {
                assert_int_equal(x->cmd.tile, y->cmd.tile);
                assert_int_equal(x->cmd.actor.len, y->cmd.actor.len);
                assert_int_equal(x->cmd.train.len, y->cmd.train.len);
                assert_int_equal(x->cmd.train_is_mex, y->cmd.train_is_mex);
            }
            assert_int_equal(x->game.turn, y->game.turn);
            assert_int_equal(x->matches_ended, y->matches_ended);
            assert_int_equal(x->match_touched, y->match_touched);
            if (memcmp(x->game.hands, y->game.hands, sizeof x->game.hands) != 0 ||
                !tileset_equal(x->game.boneyard, y->game.boneyard))
                fail_msg("line %ld '%s': the tables differ", number, l);
            if (ra->verdict.code == ERR_NONE) accepted++;
            else rejected++;
        }
    }
    assert_int_equal(a->matches_ended, 3);
    assert_true(accepted > 1000 && rejected > 100);    /* both kinds were compared */
    free(ra), free(rb), free(ca), free(cb), free(text);
    tu_free(a), tu_free(b);
}

/* One line read by the fast path (as written) and by the grammar (the same bytes with
 * a comment after them, which only the grammar reads) on copies of two sessions in
 * step: the same answer, command and table. With keep, the originals take the line. */
static void same_answer(struct referee *a, struct referee *b, const char *line, size_t len, bool keep,
                        long number)
{
    struct response *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    struct referee *x = malloc(sizeof *x), *y = malloc(sizeof *y);
    char *tried = malloc(len + 64);
    assert_true(ra && rb && x && y && tried);
    *x = *a;                      /* no rules are loaded: a plain copy is a session */
    *y = *b;
    memcpy(tried, line, len);
    memcpy(tried + len, " # read by the grammar", 22);
    referee_line(x, line, len, false, number, ra);
    referee_line(y, tried, len + 22, false, number, rb);
    if (ra->kind != rb->kind || ra->verdict.code != rb->verdict.code ||
        strcmp(ra->verdict.message, rb->verdict.message) != 0)
        fail_msg("line %ld '%.*s' (%zu bytes): fast %d %d '%s', grammar %d %d '%s'", number, (int)len, line, len,
                 ra->kind, ra->verdict.code, ra->verdict.message, rb->kind, rb->verdict.code, rb->verdict.message);
    assert_int_equal(ra->nlegal, rb->nlegal);
    assert_int_equal(x->cmd.kind, y->cmd.kind);
    if (ra->verdict.code == ERR_NONE && x->cmd.kind >= CMD_PLAY && x->cmd.kind <= CMD_PASS) {
        assert_int_equal(x->cmd.tile, y->cmd.tile);
        assert_int_equal(x->cmd.actor.len, y->cmd.actor.len);
        assert_int_equal(x->cmd.train.len, y->cmd.train.len);
        assert_int_equal(x->cmd.train_is_mex, y->cmd.train_is_mex);
    }
    assert_int_equal(x->game.turn, y->game.turn);
    assert_int_equal(x->game.phase, y->game.phase);
    assert_int_equal(x->match_touched, y->match_touched);
    if (memcmp(x->game.hands, y->game.hands, sizeof x->game.hands) != 0 ||
        memcmp(x->game.trains, y->game.trains, sizeof x->game.trains) != 0 ||
        memcmp(x->game.dealt, y->game.dealt, sizeof x->game.dealt) != 0 ||
        !tileset_equal(x->game.boneyard, y->game.boneyard))
        fail_msg("line %ld '%.*s': the tables differ", number, (int)len, line);
    if (keep) {
        assert_int_equal(ra->verdict.code, ERR_NONE);
        *a = *x;
        *b = *y;
    }
    free(ra), free(rb), free(x), free(y), free(tried);
}

/* The fast path compares names as 8-byte words: names of 1, 7, 8, 9 and 16 bytes
 * (some the prefix of another) in self-played records, each move line also tried
 * broken the ways a word compare could miss: a NUL after the actor or at the end
 * (the padding of a stored name is NUL too), a byte more or less, a CR, a name cut
 * short or run on, another seat's name spelled longer, mex spelled wrong. The fast
 * path must answer as the grammar does (it hands on all it does not take). */
static void the_fast_path_reads_names_as_the_grammar_does(void **state)
{
    (void)state;
    static const char *const names[] = {"abcdefgh", "abcdefghi", "a", "Abcdefghijklmnop", "abcdefg"};
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 5;
    o.seed = 7;
    char *text, err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, NULL, 0, &text, NULL, err), 0);
    struct referee *a = tu_session(NULL, 0), *b = tu_session(NULL, 0);
    long number = 0, moves = 0;
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        /* the record with p1..p5 renamed */
        char renamed[PROTOCOL_LINE_MAX], word[64];
        size_t n = 0;
        for (const char *w = line; *w;) {
            size_t k = strcspn(w, " ");
            snprintf(word, sizeof word, "%.*s", (int)k, w);
            const char *put = word;
            if (word[0] == 'p' && word[1] >= '1' && word[1] <= '5' && word[2] == '\0') put = names[word[1] - '1'];
            n += (size_t)snprintf(renamed + n, sizeof renamed - n, "%s%s", n ? " " : "", put);
            w += k;
            while (*w == ' ') w++;
        }
        bool move = strstr(renamed, " play ") || strstr(renamed, " draw") || strstr(renamed, " pass");
        if (move) {
            moves++;
            const char *actor = a->game.names[a->game.turn];
            size_t alen = strlen(actor);
            char broken[PROTOCOL_LINE_MAX + 64];
            /* the line with a byte after it: NUL, a letter, CR, space */
            static const char after[] = {'\0', 'x', '\r', ' '};
            for (size_t i = 0; i < sizeof after; i++) {
                memcpy(broken, renamed, n);
                broken[n] = after[i];
                same_answer(a, b, broken, n + 1, false, ++number);
            }
            same_answer(a, b, renamed, n - 1, false, ++number);              /* a byte short */
            /* a NUL, or a letter, in place of the space after the actor; a NUL before it,
             * and after it */
            static const char instead[] = {'\0', 'x'};
            for (size_t i = 0; i < sizeof instead; i++) {
                memcpy(broken, renamed, n);
                broken[alen] = instead[i];
                same_answer(a, b, broken, n, false, ++number);
            }
            broken[0] = '\0';
            memcpy(broken + 1, renamed, n);
            same_answer(a, b, broken, n + 1, false, ++number);
            memcpy(broken, renamed, alen);                                    /* a NUL after it */
            broken[alen] = '\0';
            memcpy(broken + alen + 1, renamed + alen, n - alen);
            same_answer(a, b, broken, n + 1, false, ++number);
            memcpy(broken, renamed, alen - 1);                                /* the actor cut short */
            memcpy(broken + alen - 1, renamed + alen, n - alen);
            same_answer(a, b, broken, n - 1, false, ++number);
            /* every seat as the train, and each spelled a byte longer or with a NUL */
            const char *verb = renamed + alen + 1;
            if (strncmp(verb, "play ", 5) == 0) {
                size_t head = (size_t)(strrchr(renamed, ' ') - renamed) + 1;
                static const char *const odd[] = {"mex", "me", "mexx", "Mex", "mex\r"};
                for (int s = 0; s < 5 + 5; s++) {
                    const char *train = s < 5 ? names[s] : odd[s - 5];
                    size_t t = strlen(train);
                    memcpy(broken, renamed, head);
                    memcpy(broken + head, train, t);
                    same_answer(a, b, broken, head + t, false, ++number);
                    broken[head + t] = s % 2 ? 'x' : '\0';
                    same_answer(a, b, broken, head + t + 1, false, ++number);
                    if (t > 1) same_answer(a, b, broken, head + t - 1, false, ++number);
                }
            }
        }
        same_answer(a, b, renamed, n, true, ++number);
    }
    assert_int_equal(a->matches_ended, 1);
    assert_true(moves > 100);
    free(text);
    tu_free(a), tu_free(b);
}

/* A deal line of a record read by the fast path and by the grammar: as written, and
 * broken the ways a record can be (a tile twice, the engine, a tile of a hand dealt
 * before, a tile outside the set, a tile short or over, another or an unknown name,
 * a seat dealt already, spaces doubled or trailing, a tab, a NUL, tiles misspelled,
 * no tiles), and after the match is over. The same answer, command and table. */
static void the_fast_path_reads_deals_as_the_grammar_does(void **state)
{
    (void)state;
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = 3;
    o.seed = 11;
    char *text, err[RULES_MESSAGE_SIZE];
    assert_int_equal(tu_selfplay(&o, NULL, 0, &text, NULL, err), 0);
    struct referee *a = tu_session(NULL, 0), *b = tu_session(NULL, 0);
    long number = 0, deals = 0;
    char before[PROTOCOL_LINE_MAX] = "";          /* the deal line before this one */
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        size_t n = strlen(line);
        if (strncmp(line, "deal ", 5) == 0) {
            deals++;
            const char *name_end = strchr(line + 5, ' ');
            const char *first = name_end + 1, *last = strrchr(line, ' ') + 1;
            size_t first_len = strcspn(first, " "), head = (size_t)(last - line);
            const char *other = before[0] ? strrchr(before, ' ') + 1 : "1-2";
            char v[PROTOCOL_LINE_MAX + 64];
#define TRY(...)                                                                        \
    do {                                                                                \
        int k_ = snprintf(v, sizeof v, __VA_ARGS__);                                     \
        same_answer(a, b, v, (size_t)k_, false, ++number);                               \
    } while (0)
            TRY("%.*s%.*s", (int)head, line, (int)first_len, first);          /* a tile twice */
            TRY("%.*s12-12", (int)head, line);                                /* the engine */
            TRY("%.*s%s", (int)head, line, other);                            /* dealt before */
            TRY("%.*s13-13", (int)head, line);                                /* not of the set */
            TRY("%.*s0-13", (int)head, line);
            TRY("%.*s", (int)head - 1, line);                                 /* a tile short */
            TRY("%s %s", line, other);                                        /* a tile over */
            TRY("%s 0-0", line);
            TRY("deal p9%s", name_end);                                       /* unknown */
            TRY("deal mex%s", name_end);
            TRY("deal deal%s", name_end);
            TRY("deal P1%s", name_end);
            TRY("deal p%s", name_end);
            TRY("deal p11%s", name_end);
            if (before[0]) TRY("%.*s%s", (int)(strchr(before + 5, ' ') - before), before, name_end);
            TRY("deal  %s", line + 5);                                        /* spaces */
            TRY("%.*s %s", (int)head, line, last);
            TRY("%s ", line);
            TRY("%.*s\t%s", (int)head - 1, line, last);
            TRY("deal\t%s", line + 5);
            TRY("%.*s1-%s", (int)head, line, "");                             /* misspelled */
            TRY("%.*s1-2-3", (int)head, line);
            TRY("%.*s001-2", (int)head, line);
            TRY("%.*s1-100", (int)head, line);
            TRY("%.*s-1", (int)head, line);
            TRY("%.*s1--2", (int)head, line);
            TRY("%.*sa-b", (int)head, line);
            TRY("%.*s", (int)(name_end - line), line);                         /* no tiles */
            TRY("deal");
            TRY("deal ");
            TRY("Deal%s", line + 4);
            memcpy(v, line, n);                                               /* a NUL */
            v[head - 1] = '\0';
            same_answer(a, b, v, n, false, ++number);
            v[n] = '\0';
            same_answer(a, b, v, n + 1, false, ++number);
#undef TRY
            snprintf(before, sizeof before, "%s", line);
        }
        same_answer(a, b, line, n, true, ++number);
    }
    assert_int_equal(a->matches_ended, 1);
    assert_int_equal(deals, 13 * 3);
    /* the match is over: a deal line is the grammar's (and R24's) */
    char again[PROTOCOL_LINE_MAX + 8];
    snprintf(again, sizeof again, "%s", before);
    same_answer(a, b, again, strlen(again), false, ++number);
    free(text);
    tu_free(a), tu_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rules_second_line_keeps_both_files),
        cmocka_unit_test(the_fast_path_answers_as_the_grammar_does),
        cmocka_unit_test(the_fast_path_reads_names_as_the_grammar_does),
        cmocka_unit_test(the_fast_path_reads_deals_as_the_grammar_does),
        cmocka_unit_test(R2_rules_line_that_unseats_the_table_is_a_rules_error),
        cmocka_unit_test(R3_rounds_follow_the_rules_default_until_set),
        cmocka_unit_test(R2_selfplay_names_rules_before_a_larger_table),
        cmocka_unit_test(selfplay_gives_up_on_a_match_without_end),
        cmocka_unit_test(referee_free_of_null_or_twice_does_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
