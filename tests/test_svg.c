/* The table as a picture (mtref show --svg): golden pictures of three positions
 * compared byte for byte, each parsed by an XML parser; what --as hides; escaping.
 * MTREF_UPDATE_GOLDEN=1 rewrites the golden files instead (then review the diff). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runbin.h"
#include "svg.h"

struct golden {
    const char *record;     /* under tests/svg */
    const char *at;         /* --at LINE, or NULL for the end */
    const char *picture;    /* the golden file under tests/svg */
};

/* [R15] a double uncovered on the Mexican train; [R11][R12] a marked train another
 * player has played on; [R20] a blocked round, drawn as it ended. */
static const struct golden goldens[] = {
    {"svg/double-duty.mtr", "19", "svg/uncovered.svg"},
    {"svg/double-duty.mtr", "24", "svg/marked.svg"},
    {"svg/blocked.mtr", NULL, "svg/blocked.svg"},
};

static char *picture_of(const struct golden *g)
{
    char record[4096];
    rb_test_path(g->record, record, sizeof record);
    const char *args[] = {"show", record, "--svg", "-", g->at ? "--at" : NULL, g->at, NULL};
    char *out, *err;
    int status = rb_run(args, &out, &err);
    if (status != 0) fail_msg("show %s --svg: exit %d: %s", g->record, status, err);
    free(err);
    return out;
}

/* The picture is well-formed XML by python3's parser, with an svg root. */
static void assert_parses_as_svg(const char *text)
{
    FILE *f = fopen("test_svg.out.svg", "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int status = system("python3 -c \"import sys, xml.etree.ElementTree as E; "
                        "r = E.parse('test_svg.out.svg').getroot(); "
                        "sys.exit(0 if r.tag == '{http://www.w3.org/2000/svg}svg' else 3)\"");
    remove("test_svg.out.svg");
    assert_int_equal(status, 0);
}

static void test_golden_pictures(void **state)
{
    (void)state;
    bool update = getenv("MTREF_UPDATE_GOLDEN") != NULL;
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        char *got = picture_of(&goldens[i]);
        char path[4096];
        rb_test_path(goldens[i].picture, path, sizeof path);
        if (update) {
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs(got, f);
            fclose(f);
        }
        size_t len;
        char *want = tu_read_test_file(goldens[i].picture, &len);
        if (!want) fail_msg("%s is missing (MTREF_UPDATE_GOLDEN=1 writes it)", goldens[i].picture);
        if (strcmp(got, want) != 0) {
            size_t at = 0;
            while (got[at] && got[at] == want[at]) at++;
            fail_msg("%s differs from the picture drawn, first at byte %zu", goldens[i].picture, at);
        }
        assert_parses_as_svg(got);
        /* small, with nothing embedded: no bitmaps, no fonts */
        assert_true(strlen(got) < 64 * 1024);
        assert_null(strstr(got, "<image"));
        assert_null(strstr(got, "@font-face"));
        assert_null(strstr(got, "base64"));
        free(want);
        free(got);
    }
}

/* [R15] the uncovered double is ringed, the marked train carries the marker. */
static void test_pictures_mark_what_matters(void **state)
{
    (void)state;
    char *uncovered = picture_of(&goldens[0]);
    assert_non_null(strstr(uncovered, "<rect class=\"t u\" width="));
    assert_non_null(strstr(uncovered, "uncovered double 8-8: must be covered"));
    char *marked = picture_of(&goldens[1]);
    assert_null(strstr(marked, "<rect class=\"t u\" width="));
    assert_non_null(strstr(marked, "<use xlink:href=\"#marker\" x="));
    char *blocked = picture_of(&goldens[2]);
    assert_non_null(strstr(blocked, "blocked"));
    assert_non_null(strstr(blocked, "The round is over"));
    free(uncovered);
    free(marked);
    free(blocked);
}

static char *draw(const struct game *g, const struct svg_options *o)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    svg_write(mem, g, o);
    fclose(mem);
    return text;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

/* --as: one player's tiles face up, the others' face down, counted. */
static void test_as_one_player_hides_the_other_hands(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    char *record = tu_read_test_file("svg/double-duty.mtr", NULL);
    assert_non_null(record);
    tu_feed(ref, record);
    struct svg_options o;
    svg_options_default(&o);
    char *all = draw(&ref->game, &o);
    assert_int_equal(count(all, "<rect class=\"b\""), 1);       /* the legend's only */
    o.as_seat = 0;
    char *as_p1 = draw(&ref->game, &o);
    int hidden = tileset_count(ref->game.hands[1]);
    assert_true(hidden > 0);
    assert_int_equal(count(as_p1, "<rect class=\"b\""), hidden + 1);
    /* none of p2's tiles is named, unless it lies on a train */
    tileset hand = ref->game.hands[1];
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
        char title[32], text[TILE_TEXT_SIZE];
        tile_format(t, text);
        snprintf(title, sizeof title, "<title>%s</title>", text);
        assert_int_equal(count(as_p1, title), 0);
        assert_true(count(all, title) > 0);
    }
    assert_true(svg_hand_visible(&ref->game, &o, 0));
    assert_false(svg_hand_visible(&ref->game, &o, 1));
    free(all);
    free(as_p1);
    free(record);
    tu_free(ref);
}

static void test_escape(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    svg_escape(mem, "a<b>&\"c'\x01\x7f" "\xC3\xA9" "\xFF" "z");
    fclose(mem);
    assert_string_equal(text, "a&lt;b&gt;&amp;&quot;c&apos;??\xC3\xA9\xEF\xBF\xBDz");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_pictures),
        cmocka_unit_test(test_pictures_mark_what_matters),
        cmocka_unit_test(test_as_one_player_hides_the_other_hands),
        cmocka_unit_test(test_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
