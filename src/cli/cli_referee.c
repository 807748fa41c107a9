/* mtref [OPTIONS] [FILE]: the referee itself, on a record or at the keyboard. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_table.h"
#include "escape.h"
#include "nearest.h"
#include "stream.h"

static const char usage[] =
    "usage: mtref [OPTIONS] [FILE]          referee protocol lines from FILE or stdin\n"
    "At a terminal: a prompt, line editing, help, undo, save FILE, quit.\n"
    "options:\n"
    "  --json            one JSON object per answer and event; default: text for people\n"
    "  -k, --keep-going  reject a bad line, keep the game as it was and read on;\n"
    "                    default: stop at the first (at a terminal: keep going)\n"
    "  -q, --quiet       no answer for an accepted line: only errors, events and\n"
    "                    queries; default: answer every line\n"
    "  --record FILE     write the accepted lines, as they come, to FILE as a record\n"
    "                    that mtref check accepts; default: none\n"
    "  --rules NAME      load a house-rule file, by name or path (repeatable; after the\n"
    "                    record's own); default: the canonical rules\n"
    "  -h, --help        this help\n"
    "  -V, --version     the version of mtref and of its Lua\n"
    "exit status: 0 every line accepted, 1 a line broke the rules, 2 malformed input,\n"
    "a bad rules file or a usage error. See mtref(1) and mtref-rules(5).\n";

enum { OPT_JSON, OPT_KEEP_GOING, OPT_RULES, OPT_QUIET, OPT_RECORD };
static const struct cli_option options[] = {
    [OPT_JSON] = {"--json", 0, false},
    [OPT_KEEP_GOING] = {"--keep-going", 'k', false},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_QUIET] = {"--quiet", 'q', false},
    [OPT_RECORD] = {"--record", 0, true},
};

/* "mtref chek": not a file, and close to a subcommand's name. */
static void suggest_subcommand(const char *path)
{
    const char *names[64];
    int n = 0;
    for (int i = 0; i < cli_subcommand_count() && n < 64; i++) names[n++] = cli_subcommand_at(i)->name;
    int near = strchr(path, '/') ? -1 : nearest_of(path, names, n);
    if (near >= 0) fprintf(stderr, "(did you mean mtref %s?)\n", names[near]);
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct stream_options so = {OUTPUT_TEXT, false, NULL, 0, NULL};
    const char *rules[RULES_MAX_FILES];
    const char *path = NULL, *record = NULL;
    bool quiet = false;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_referee, options);
    const char *value;
    int opt, status = 0;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND:
            if (path) return cli_usage_error(&cli_referee, "give one FILE (or use mtref check %s)", "FILE...");
            path = value;
            break;
        case OPT_JSON: so.mode = OUTPUT_JSON; break;
        case OPT_KEEP_GOING: so.keep_going = true; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_RECORD: record = value; break;
        case OPT_RULES:
            if (!cli_rules_value(&cli_referee, value, rules, &so.nrules, &status)) return status;
            break;
        }
    }
    if (!path) path = "-";
    int fd, err = cli_open_input(path, &fd);
    if (err) {
        fputs("mtref: ", stderr);
        escape_puts(stderr, path);
        fprintf(stderr, ": %s\n", err == EISDIR ? "is a directory (mtref check DIR checks the records in it)" : strerror(err));
        if (err == ENOENT) suggest_subcommand(path);
        return 2;
    }
    /* a person at a terminal wants to correct a mistake, not start over */
    bool keyboard = fd == 0 && isatty(0);
    if (keyboard) so.keep_going = true;
    so.rules_files = rules;
    so.name = path;
    if (keyboard || quiet || record) {
        struct table_options to = {so.mode, so.keep_going, keyboard && so.mode == OUTPUT_TEXT, quiet, record,
                                   rules, so.nrules, path};
        status = cli_table_run(fd, &to, &env->loader);
    } else {
        status = stream_run(fd, stdout, stderr, &so, &env->loader);
    }
    if (fd) close(fd);
    return status;
}

const struct subcommand cli_referee = {"", "referee protocol lines from FILE or stdin", usage, run};
