/* mtref [OPTIONS] [FILE]: the referee itself, on a record or at the keyboard. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "stream.h"

static const char usage[] =
    "usage: mtref [OPTIONS] [FILE]          referee protocol lines from FILE or stdin\n"
    "       mtref check [OPTIONS] FILE...   adjudicate records, one verdict per file\n"
    "       mtref selfplay [OPTIONS]        play matches between built-in players\n"
    "       mtref rules NAME|PATH...        show what house-rule files change\n"
    "options:\n"
    "  --json            JSON lines instead of text\n"
    "  -k, --keep-going  reject a bad line and read on (default: stop at the first,\n"
    "                    except when typing at a terminal)\n"
    "  --rules NAME      load a house-rule file (repeatable; after the record's own)\n"
    "  -h, --help        this help;  --version  the version\n"
    "mtref SUBCOMMAND --help lists a subcommand's options. See mtref(1) and mtref-rules(5).\n";

enum { OPT_JSON, OPT_KEEP_GOING, OPT_RULES };
static const struct cli_option options[] = {
    [OPT_JSON] = {"--json", 0, false},
    [OPT_KEEP_GOING] = {"--keep-going", 'k', false},
    [OPT_RULES] = {"--rules", 0, true},
};

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct stream_options so = {OUTPUT_TEXT, false, NULL, 0, NULL};
    const char *rules[RULES_MAX_FILES];
    const char *path = NULL;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_referee, options, (int)(sizeof options / sizeof options[0]));
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
        case OPT_RULES:
            if (so.nrules == RULES_MAX_FILES) return cli_usage_error(&cli_referee, "too many %s files", "--rules");
            rules[so.nrules++] = value;
            break;
        }
    }
    if (!path) path = "-";
    int fd, err = cli_open_input(path, &fd);
    if (err) {
        fprintf(stderr, "mtref: %s: %s\n", path, strerror(err));
        return 2;
    }
    /* a person at a terminal wants to correct a mistake, not start over */
    if (fd == 0 && isatty(0)) so.keep_going = true;
    so.rules_files = rules;
    so.name = path;
    status = stream_run(fd, stdout, stderr, &so, &env->loader);
    if (fd) close(fd);
    return status;
}

const struct subcommand cli_referee = {"", "referee protocol lines from FILE or stdin", usage, run};
