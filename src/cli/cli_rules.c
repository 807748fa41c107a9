/* mtref rules NAME|PATH...: what house-rule files change. */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "cli.h"

static const char usage[] =
    "usage: mtref rules NAME|PATH...        show what house-rule files change\n"
    "options:\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref-rules(5).\n";

static int run(int argc, char **argv, const struct cli_env *env)
{
    const char **files = mt_malloc((size_t)argc * sizeof *files);
    if (!files) { fputs("mtref: out of memory\n", stderr); return 2; }
    int nfiles = 0;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_rules, NULL, 0);
    const char *value;
    int opt, status = -1;
    while (status < 0 && (opt = cli_parser_next(&p, &value, &status)) != CLI_END)
        if (opt == CLI_OPERAND) files[nfiles++] = value;
    if (status < 0) status = luarules_describe(env->lua, files, nfiles, stdout, stderr);
    free(files);
    return status;
}

const struct subcommand cli_rules = {"rules", "show what house-rule files change", usage, run};
