/* mtref show: every --at position of a self-played record is the `show` the referee
 * prints when fed the record up to that line; --round; a rejected line stops the walk;
 * usage errors. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runbin.h"

/* The "show" object of a JSON line: from "show": to the end of the line. */
static char *show_object(const char *line)
{
    const char *p = strstr(line, "\"show\":");
    if (!p) return NULL;
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char *copy = malloc(len + 1);
    memcpy(copy, p, len);
    copy[len] = '\0';
    return copy;
}

/* What the referee prints for `show` after the first `lines` lines of record. */
static char *referee_show(const char *record, long lines, const char *const rules[], int nrules)
{
    size_t len = 0;
    const char *p = record;
    for (long i = 0; i < lines && *p; i++) {
        const char *end = strchr(p, '\n');
        p = end ? end + 1 : p + strlen(p);
    }
    len = (size_t)(p - record);
    char *prefix = malloc(len + 8);
    memcpy(prefix, record, len);
    strcpy(prefix + len, "show\n");
    char *out;
    tu_run(prefix, true, false, rules, nrules, &out);
    free(prefix);
    /* the last line is the show */
    char *last = out, *nl;
    while ((nl = strchr(last, '\n')) && nl[1]) last = nl + 1;
    char *show = show_object(last);
    free(out);
    return show;
}

/* The referee's text for `show` after the first `lines` lines: what it prints for the
 * record with a show line, less what it prints for the record alone. */
static char *referee_show_text(const char *record, long lines)
{
    const char *p = record;
    for (long i = 0; i < lines && *p; i++) {
        const char *end = strchr(p, '\n');
        p = end ? end + 1 : p + strlen(p);
    }
    size_t len = (size_t)(p - record);
    char *prefix = malloc(len + 8);
    memcpy(prefix, record, len);
    prefix[len] = '\0';
    char *before, *after;
    tu_run(prefix, false, false, NULL, 0, &before);
    strcpy(prefix + len, "show\n");
    tu_run(prefix, false, false, NULL, 0, &after);
    size_t skip = strlen(before);
    assert_true(strncmp(after, before, skip) == 0);
    char *table = strdup(after + skip);
    free(prefix);
    free(before);
    free(after);
    return table;
}

static bool ends_with(const char *text, const char *tail)
{
    size_t a = strlen(text), b = strlen(tail);
    return a >= b && strcmp(text + a - b, tail) == 0;
}

static char *write_selfplay(const char *file, const char *const args[])
{
    char *out;
    assert_int_equal(rb_run(args, &out, NULL), 0);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(out, f);
    fclose(f);
    return out;
}

static long count_lines(const char *text)
{
    long n = 0;
    for (const char *p = text; *p; p++) n += *p == '\n';
    return n;
}

static void test_every_position_is_the_referees_show(void **state)
{
    (void)state;
    const char *args[] = {"selfplay", "--players", "2", "--rounds", "1", "--seed", "3", NULL};
    char *record = write_selfplay("test_show.mtr", args);
    long n = count_lines(record);
    assert_true(n > 100);
    for (long line = 2; line <= n; line++) {
        char at[24];
        snprintf(at, sizeof at, "%ld", line);
        const char *show[] = {"show", "test_show.mtr", "--at", at, "--json", NULL};
        char *out;
        assert_int_equal(rb_run(show, &out, NULL), 0);
        char *got = show_object(out), *want = referee_show(record, line, NULL, 0);
        assert_non_null(got);
        assert_non_null(want);
        if (strcmp(got, want) != 0) fail_msg("line %ld:\n  show --at: %s\n  referee:   %s", line, got, want);
        /* the object names the line it stands after */
        char head[48];
        snprintf(head, sizeof head, "{\"line\":%ld,\"ok\":true,", line);  /* the line it stands after */
        assert_true(strncmp(out, head, strlen(head)) == 0);
        free(got);
        free(want);
        free(out);
        if (line % 7) continue;
        /* and in text: the referee's table, after the line and its answer */
        const char *text[] = {"show", "test_show.mtr", "--at", at, NULL};
        assert_int_equal(rb_run(text, &out, NULL), 0);
        char *table = referee_show_text(record, line);
        if (!ends_with(out, table)) fail_msg("line %ld in text:\n%s\nreferee:\n%s", line, out, table);
        snprintf(head, sizeof head, "line %ld: ", line);
        assert_true(strncmp(out, head, strlen(head)) == 0);
        free(table);
        free(out);
    }
    free(record);
    remove("test_show.mtr");
}

/* --round N: the table as round N is about to be played, its hands dealt. */
static void test_round_start(void **state)
{
    (void)state;
    const char *args[] = {"selfplay", "--players", "3", "--rounds", "7", "--seed", "5", NULL};
    char *record = write_selfplay("test_show_round.mtr", args);
    const char *show[] = {"show", "test_show_round.mtr", "--round", "2", "--json", NULL};
    char *out;
    assert_int_equal(rb_run(show, &out, NULL), 0);
    assert_non_null(strstr(out, "\"phase\":\"playing\",\"round\":2,\"rounds\":7,\"engine\":11,"));
    assert_non_null(strstr(out, "\"trains\":[{\"train\":\"p1\",\"open\":11,\"marker\":false,\"tiles\":[]}"));
    /* the line it stands after is round 2's last deal line */
    long line = atol(out + strlen("{\"line\":"));
    const char *p = record;
    for (long i = 1; i < line; i++) p = strchr(p, '\n') + 1;
    assert_true(strncmp(p, "deal p3 ", 8) == 0);
    free(out);
    const char *beyond[] = {"show", "test_show_round.mtr", "--round", "9", NULL};
    char *err;
    assert_int_equal(rb_run(beyond, &out, &err), 2);
    assert_non_null(strstr(err, "never reaches round 9"));
    free(out);
    free(err);
    free(record);
    remove("test_show_round.mtr");
}

/* [R15] a rejected line stops the walk: its error, then the table it left unchanged. */
static void test_rejected_line_stops_the_walk(void **state)
{
    (void)state;
    char path[4096];
    rb_test_path("scenarios/r15-must-cover-errors.mtr", path, sizeof path);
    const char *show[] = {"show", path, "--at", "1000", "--json", NULL};
    char *out;
    int status = rb_run(show, &out, NULL);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "\"ok\":false,\"error\":\"must-cover\""));
    char *nl = strchr(out, '\n');
    assert_non_null(nl);
    assert_non_null(strstr(nl, "\"show\":"));
    free(out);
}

/* --as NAME: the referee's `show NAME`, the table as that player sees it. */
static void test_as_one_player(void **state)
{
    (void)state;
    char path[4096];
    rb_test_path("svg/double-duty.mtr", path, sizeof path);
    const char *json[] = {"show", path, "--at", "20", "--as", "p1", "--json", NULL};
    char *out;
    assert_int_equal(rb_run(json, &out, NULL), 0);
    assert_true(strncmp(out, "{\"line\":20,\"ok\":true,\"show\":{\"player\":\"p1\",", 40) == 0);
    assert_non_null(strstr(out, "\"hand_sizes\":{\"p1\":12,\"p2\":12}"));
    assert_null(strstr(out, "\"hands\""));
    free(out);
    const char *text[] = {"show", path, "--at", "20", "--as", "p2", NULL};
    assert_int_equal(rb_run(text, &out, NULL), 0);
    assert_non_null(strstr(out, "as p2 sees it"));
    assert_non_null(strstr(out, "  hand  p1               12 tiles |\n"));
    free(out);
}

static void test_usage_errors(void **state)
{
    (void)state;
    char path[4096];
    rb_test_path("svg/double-duty.mtr", path, sizeof path);
    const char *both[] = {"show", path, "--at", "3", "--round", "1", NULL};
    const char *nobody[] = {"show", path, "--as", "zed", NULL};
    const char *none[] = {"show", NULL};
    const char *missing[] = {"show", "no-such-file.mtr", NULL};
    const char *const *cases[] = {both, nobody, none, missing};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        assert_int_equal(rb_run(cases[i], &out, &err), 2);
        assert_true(strlen(err) > 0);
        free(out);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_position_is_the_referees_show),
        cmocka_unit_test(test_round_start),
        cmocka_unit_test(test_rejected_line_stops_the_walk),
        cmocka_unit_test(test_as_one_player),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
