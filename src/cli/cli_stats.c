/* mtref stats JOURNAL...: the results table of one run's journals (shards merged). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stats.h"

static const char usage[] =
    "usage: mtref stats [--json] JOURNAL...   the results table of mtref match journals\n"
    "Journals of one run's shards (--first-deal K --deals D) merge; other plans are refused.\n"
    "  --json            one JSON summary line\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_JSON };
static const struct cli_option options[] = {[OPT_JSON] = {"--json", 0, false}};

static int run(int argc, char **argv, const struct cli_env *env)
{
    (void)env;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_stats, options, 1);
    const char *value, *files[CLI_MAX_OPERANDS];
    int nfiles = 0, opt, status = 0;
    bool json = false;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        if (opt == CLI_EXIT) return status;
        if (opt == OPT_JSON) json = true;
        else if (nfiles < CLI_MAX_OPERANDS) files[nfiles++] = value;
    }
    if (nfiles == 0) return cli_usage_error(&cli_stats, "stats needs at least one %s", "JOURNAL");
    struct stats *st = stats_new();
    if (!st) return 2;
    for (int i = 0; i < nfiles && status == 0; i++) {
        FILE *f = strcmp(files[i], "-") == 0 ? stdin : fopen(files[i], "r");
        if (!f) {
            fprintf(stderr, "mtref: stats: cannot read %s\n", files[i]);
            status = 2;
            break;
        }
        char *line = NULL, err[200];
        size_t cap = 0;
        ssize_t len;
        long number = 0;
        while ((len = getline(&line, &cap, f)) > 0) {
            number++;
            if (line[len - 1] != '\n') break;      /* a torn last line: its match is not done */
            if (!stats_add_line(st, line, (size_t)len - 1, err, sizeof err)) {
                fprintf(stderr, "mtref: stats: line %ld of %s: %s\n", number, files[i], err);
                status = 2;
                break;
            }
        }
        free(line);
        if (f != stdin) fclose(f);
    }
    if (status == 0) {
        if (json) stats_print_json(st, stdout);
        else stats_print(st, stdout);
    }
    stats_free(st);
    return status;
}

const struct subcommand cli_stats = {"stats", "the results table of mtref match journals", usage, run};
