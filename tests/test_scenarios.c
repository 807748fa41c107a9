/* Scenario records: tests are data. Every tests/scenarios/NAME.mtr is refereed in
 * process with --json and its exit status and whole output compared, byte for byte,
 * with NAME.expected:
 *
 *     # args: --keep-going --rules NAME     (optional: -k/--keep-going, --rules NAME)
 *     # exit: 1
 *     {"line":1,"ok":true}
 *     ...
 *
 * The expected files are the contract (protocol.md); one cmocka test per record. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCENARIOS_MIN 20          /* a directory that lost its records must not pass */
#define SCENARIO_MAX_RULES 8

struct expectation {
    bool keep_going;
    const char *rules[SCENARIO_MAX_RULES];
    int nrules;
    int exit_status;
    const char *output;           /* the lines after the header, inside the file's text */
    int header_lines;
};

/* Reads "# args:" and "# exit:" from the head of text (modified: args are cut into
 * NUL-terminated words). Fails the test on anything it does not understand. */
static void parse_expected(const char *name, char *text, struct expectation *e)
{
    memset(e, 0, sizeof *e);
    e->exit_status = -1;
    char *p = text;
    while (*p == '#') {
        char *end = strchr(p, '\n');
        if (!end) fail_msg("%s.expected: header line without a newline", name);
        *end = '\0';
        if (strncmp(p, "# exit:", 7) == 0) {
            e->exit_status = atoi(p + 7);
        } else if (strncmp(p, "# args:", 7) == 0) {
            for (char *w = strtok(p + 7, " \t"); w; w = strtok(NULL, " \t")) {
                if (strcmp(w, "--keep-going") == 0 || strcmp(w, "-k") == 0) {
                    e->keep_going = true;
                } else if (strcmp(w, "--json") == 0) {
                    /* always on */
                } else if (strcmp(w, "--rules") == 0) {
                    char *file = strtok(NULL, " \t");
                    if (!file || e->nrules == SCENARIO_MAX_RULES)
                        fail_msg("%s.expected: --rules needs a name (at most %d)", name, SCENARIO_MAX_RULES);
                    e->rules[e->nrules++] = file;
                } else {
                    fail_msg("%s.expected: unknown argument '%s'", name, w);
                }
            }
        } else {
            fail_msg("%s.expected: unknown header line '%s'", name, p);
        }
        p = end + 1;
        e->header_lines++;
    }
    if (e->exit_status < 0) fail_msg("%s.expected: no '# exit: N' line", name);
    e->output = p;
}

/* Prints the first line where got and want differ, with its number in the output
 * and in NAME.expected. */
static void report_difference(const char *name, const char *got, const char *want, int header_lines)
{
    int line = 1;
    const char *g = got, *w = want;
    for (;;) {
        const char *ge = strchr(g, '\n'), *we = strchr(w, '\n');
        size_t gl = ge ? (size_t)(ge - g) : strlen(g), wl = we ? (size_t)(we - w) : strlen(w);
        if (gl != wl || memcmp(g, w, gl) != 0 || !ge != !we) {
            print_error("%s: output line %d (%s.expected:%d) differs\n  expected: %.*s%s\n  got:      %.*s%s\n",
                        name, line, name, line + header_lines, (int)wl, w, *w || we ? "" : "(end of output)",
                        (int)gl, g, *g || ge ? "" : "(end of output)");
            return;
        }
        if (!ge) return;
        g = ge + 1;
        w = we + 1;
        line++;
    }
}

static void run_scenario(void **state)
{
    const char *name = *state;
    char path[512];
    size_t record_len = 0;
    snprintf(path, sizeof path, "scenarios/%s.mtr", name);
    char *record = tu_read_test_file(path, &record_len);
    if (!record) fail_msg("cannot read %s", path);
    if (strlen(record) != record_len) fail_msg("%s: NUL bytes cannot go through tu_run", path);
    snprintf(path, sizeof path, "scenarios/%s.expected", name);
    char *expected = tu_read_test_file(path, NULL);
    if (!expected) fail_msg("cannot read %s", path);

    struct expectation e;
    parse_expected(name, expected, &e);
    char *out = NULL;
    int status = tu_run(record, true, e.keep_going, e.nrules ? e.rules : NULL, e.nrules, &out);
    bool same = strcmp(out, e.output) == 0;
    if (!same) report_difference(name, out, e.output, e.header_lines);
    if (status != e.exit_status)
        print_error("%s: exit status %d, expected %d\n", name, status, e.exit_status);
    bool ok = same && status == e.exit_status;
    free(out);
    free(expected);
    free(record);
    if (!ok) fail_msg("scenario %s does not give its expected output", name);
}

int main(void)
{
    return tu_run_data_files("scenarios", "scenarios", ".mtr", true, SCENARIOS_MIN, run_scenario);
}
