/* mtref rules [NAME|PATH...]: what house-rule files change, or the files there are. */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "cli.h"

static const char usage[] =
    "usage: mtref rules [OPTIONS] [NAME|PATH...]  show what house-rule files change\n"
    "Without a NAME, lists every rules file on the search path, with its description\n"
    "and where it was found. A NAME is looked up as NAME.lua in MTREF_RULES_PATH, the\n"
    "installed rules, the rules beside mtref, ./rules and the current directory.\n"
    "options:\n"
    "  --names           only the names on the search path, one a line (for shell\n"
    "                    completion); default: names, descriptions and places\n"
    "  -h, --help        this help\n"
    "  -V, --version     the version of mtref and of its Lua\n"
    "See mtref-rules(5).\n";

enum { OPT_NAMES };
static const struct cli_option options[] = {
    [OPT_NAMES] = {"--names", 0, false},
};

static int run(int argc, char **argv, const struct cli_env *env)
{
    const char **files = mt_malloc((size_t)argc * sizeof *files);
    if (!files) { fputs("mtref: out of memory\n", stderr); return 2; }
    int nfiles = 0;
    bool names = false;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_rules, options);
    const char *value;
    int opt, status = -1;
    while (status < 0 && (opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        if (opt == CLI_OPERAND) files[nfiles++] = value;
        else if (opt == OPT_NAMES) names = true;
    }
    if (status < 0 && names && nfiles)
        status = cli_usage_error(&cli_rules, "--names lists the search path: it takes no %s", "NAME");
    if (status < 0) status = names ? luarules_list_names(stdout) : luarules_describe(env->lua, files, nfiles, stdout, stderr);
    if (fflush(stdout) != 0) status = 2;
    free(files);
    return status;
}

const struct subcommand cli_rules = {"rules", "show what house-rule files change, or list them", usage, run};
