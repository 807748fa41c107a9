/* Rule tests as data: every tests/rules/NAME.t is fed line by line to one session, as
 * with --keep-going (a rejected line leaves the table as it was and the file reads on),
 * and each record line's verdict is checked against the expectation on the next line:
 *
 *     # args: --rules NAME       (optional, before the first record line; repeatable)
 *     # any other comment, or a blank line
 *     ana play 11-12 ana         a record line, exactly as a record holds it
 *     ok                         accepted, and the round goes on
 *     ok out | ok blocked        accepted, and the round ends that way
 *     !must-cover R14            rejected with this code and rule id
 *     !syntax                    rejected with this code and no rule id
 *     ? marked ana | ? unmarked mex   the table now: a train's marker,
 *     ? open ana 3               its open end,
 *     ? boneyard 0 | ? uncovered 1   the tiles left to draw, the doubles owed a cover
 *     ---                        a new game in a fresh session (the same args)
 *
 * A record line with no expectation after it must be accepted (a round may end). The first mismatch
 * is reported as FILE:LINE with what was expected and what came. One cmocka test per
 * file, named after it. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE_FILES_MIN 8          /* a directory that lost its files must not pass */
#define RULE_DATA_MAX_RULES 8

enum outcome { OUTCOME_ANY, OUTCOME_GOES_ON, OUTCOME_OUT, OUTCOME_BLOCKED };

struct expectation {
    bool accepted;
    enum outcome outcome;         /* accepted lines only */
    const char *code;             /* rejected lines: code name, and rule id or "" */
    const char *rule;
};

/* One line of the file, without its line ending, as a NUL-terminated string. */
struct line {
    char *text;
    int number;
};

static bool is_expectation(const char *text)
{
    return text[0] == '!' || (strncmp(text, "ok", 2) == 0 && (text[2] == '\0' || text[2] == ' '));
}

/* Parses an expectation line (modified); false when it is malformed. */
static bool parse_expectation(char *text, struct expectation *e)
{
    memset(e, 0, sizeof *e);
    if (text[0] == '!') {
        e->code = strtok(text + 1, " \t");
        e->rule = strtok(NULL, " \t");
        if (!e->rule) e->rule = "";
        return e->code && !strtok(NULL, " \t");
    }
    e->accepted = true;
    e->outcome = OUTCOME_GOES_ON;
    char *word = strtok(text + 2, " \t");
    if (!word) return true;
    if (strcmp(word, "out") == 0) e->outcome = OUTCOME_OUT;
    else if (strcmp(word, "blocked") == 0) e->outcome = OUTCOME_BLOCKED;
    else return false;
    return !strtok(NULL, " \t");
}

/* Describes verdict v in the expectation syntax, into buf. */
static void describe(const struct verdict *v, char *buf, size_t size)
{
    if (v->code == ERR_NONE) {
        const char *how = !v->round_ended ? "" : v->report.out_seat < 0 ? " blocked" : " out";
        snprintf(buf, size, "ok%s", how);
    } else {
        snprintf(buf, size, "!%s%s%s (%s)", error_code_name(v->code), v->rule ? " " : "",
                 v->rule ? v->rule : "", v->message);
    }
}

static bool matches(const struct expectation *e, const struct verdict *v)
{
    if (e->accepted) {
        if (v->code != ERR_NONE) return false;
        if (e->outcome == OUTCOME_ANY) return true;
        if (e->outcome == OUTCOME_GOES_ON) return !v->round_ended;
        if (!v->round_ended) return false;
        return (e->outcome == OUTCOME_BLOCKED) == (v->report.out_seat < 0);
    }
    return v->code != ERR_NONE && strcmp(e->code, error_code_name(v->code)) == 0 &&
           strcmp(e->rule, v->rule ? v->rule : "") == 0;
}

/* Cuts text into lines in place; returns how many (the array is malloc'd). */
static size_t split_lines(char *text, struct line **out)
{
    size_t n = 0, cap = 64;
    struct line *lines = malloc(cap * sizeof *lines);
    assert_non_null(lines);
    int number = 0;
    for (char *p = text; *p;) {
        char *end = strchr(p, '\n');
        if (end) *end = '\0';
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r') p[len - 1] = '\0';
        if (n == cap) {
            cap *= 2;
            lines = realloc(lines, cap * sizeof *lines);
            assert_non_null(lines);
        }
        lines[n++] = (struct line){p, ++number};
        if (!end) break;
        p = end + 1;
    }
    *out = lines;
    return n;
}

/* The train a word names (a player's name or mex), or -1. */
static int train_named(const struct game *g, const char *word)
{
    if (strcmp(word, "mex") == 0) return TRAIN_MEX;
    return game_find_player(g, word, (int)strlen(word));
}

/* Checks a "? what ..." line against the table; false with why (size bytes) set. */
static bool state_holds(const struct game *g, const char *line, char *why, size_t size)
{
    char what[16] = "", word[GAME_NAME_MAX_LEN + 1] = "";
    int number = -1;
    int n = sscanf(line, "? %15s %16s %d", what, word, &number);   /* GAME_NAME_MAX_LEN */
    if (n >= 2 && (strcmp(what, "marked") == 0 || strcmp(what, "unmarked") == 0)) {
        int t = train_named(g, word);
        if (t < 0) { snprintf(why, size, "no train '%s'", word); return false; }
        bool want = what[0] == 'm';
        snprintf(why, size, "the %s train is %s", word, g->trains[t].marker ? "marked" : "not marked");
        return g->trains[t].marker == want;
    }
    if (n == 3 && strcmp(what, "open") == 0) {
        int t = train_named(g, word);
        if (t < 0) { snprintf(why, size, "no train '%s'", word); return false; }
        snprintf(why, size, "the %s train is open at %d", word, g->trains[t].open_pip);
        return g->trains[t].open_pip == number;
    }
    if (n == 2 && (strcmp(what, "boneyard") == 0 || strcmp(what, "uncovered") == 0)) {
        int want = atoi(word);
        int got = what[0] == 'b' ? tileset_count(g->boneyard) : g->ndoubles;
        snprintf(why, size, "%s holds %d", what, got);
        return got == want;
    }
    snprintf(why, size, "a state line this driver does not know");
    return false;
}

static bool is_blank_or_comment(const char *text)
{
    text += strspn(text, " \t");
    return *text == '\0' || *text == '#';
}

/* Reads "# args: --rules NAME ..." lines (modified) into rules[]. */
static void parse_args(const char *file, const struct line *l, const char *rules[], int *nrules)
{
    for (char *w = strtok(l->text + 7, " \t"); w; w = strtok(NULL, " \t")) {
        if (strcmp(w, "--rules") != 0) fail_msg("%s:%d: unknown argument '%s'", file, l->number, w);
        char *name = strtok(NULL, " \t");
        if (!name || *nrules == RULE_DATA_MAX_RULES)
            fail_msg("%s:%d: --rules needs a name (at most %d)", file, l->number, RULE_DATA_MAX_RULES);
        rules[(*nrules)++] = name;
    }
}

static void run_rule_file(void **state)
{
    const char *name = *state;
    char file[512];
    snprintf(file, sizeof file, "rules/%s", name);
    size_t len = 0;
    char *text = tu_read_test_file(file, &len);
    if (!text) fail_msg("cannot read %s", file);
    if (strlen(text) != len) fail_msg("%s: NUL bytes are not supported here", file);
    struct line *lines = NULL;
    size_t n = split_lines(text, &lines);

    const char *rules[RULE_DATA_MAX_RULES];
    int nrules = 0;
    size_t i = 0;
    for (; i < n && is_blank_or_comment(lines[i].text); i++)
        if (strncmp(lines[i].text, "# args:", 7) == 0) parse_args(file, &lines[i], rules, &nrules);

    struct referee *ref = tu_session(nrules ? rules : NULL, nrules);
    struct response resp;
    int checked = 0;
    bool failed = false;
    for (; i < n && !failed; i++) {
        const struct line *l = &lines[i];
        if (is_blank_or_comment(l->text)) continue;
        if (strcmp(l->text, "---") == 0) {          /* a new game */
            tu_free(ref);
            ref = tu_session(nrules ? rules : NULL, nrules);
            continue;
        }
        if (strncmp(l->text, "? ", 2) == 0) {
            char why[128];
            checked++;
            if (!state_holds(&ref->game, l->text, why, sizeof why)) {
                print_error("%s:%d: '%s': %s\n", file, l->number, l->text, why);
                failed = true;
            }
            continue;
        }
        if (is_expectation(l->text))
            fail_msg("%s:%d: expectation '%s' follows no record line", file, l->number, l->text);
        referee_line(ref, l->text, strlen(l->text), false, l->number, &resp);
        struct expectation e = {.accepted = true};
        char *record = l->text;
        int where = l->number;
        if (i + 1 < n && is_expectation(lines[i + 1].text)) {
            i++;
            where = lines[i].number;
            char copy[256];
            snprintf(copy, sizeof copy, "%s", lines[i].text);
            if (!parse_expectation(lines[i].text, &e))
                fail_msg("%s:%d: malformed expectation '%s'", file, where, copy);
        }
        checked++;
        if (!matches(&e, &resp.verdict)) {
            char got[VERDICT_MESSAGE_SIZE + 64], want[128];
            describe(&resp.verdict, got, sizeof got);
            if (e.accepted)
                snprintf(want, sizeof want, "ok%s", e.outcome == OUTCOME_OUT ? " out"
                                                    : e.outcome == OUTCOME_BLOCKED ? " blocked" : "");
            else
                snprintf(want, sizeof want, "!%s%s%s", e.code, *e.rule ? " " : "", e.rule);
            print_error("%s:%d: '%s'\n  expected: %s\n  got:      %s\n", file, where, record, want, got);
            failed = true;
        }
    }
    tu_free(ref);
    free(lines);
    free(text);
    if (failed) fail_msg("%s does not give its expected verdicts", file);
    if (checked == 0) fail_msg("%s holds no record lines", file);
}

int main(void)
{
    return tu_run_data_files("rule_data", "rules", ".t", false, RULE_FILES_MIN, run_rule_file);
}
