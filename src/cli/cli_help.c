/* mtref help [SUBCOMMAND]: the help of mtref, or of one subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nearest.h"

static const char usage[] =
    "usage: mtref help [SUBCOMMAND]         the help of mtref, or of a subcommand\n"
    "  same as mtref --help, or mtref SUBCOMMAND --help\n";

static int run(int argc, char **argv, const struct cli_env *env)
{
    (void)env;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_help, NULL, 0);
    const char *value, *topic = NULL;
    int opt, status = 0;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        if (opt == CLI_EXIT) return status;
        if (topic) return cli_usage_error(&cli_help, "help takes one SUBCOMMAND, not '%s' too", value);
        topic = value;
    }
    const struct subcommand *command = topic ? cli_find_subcommand(topic) : &cli_referee;
    if (!command) {
        const char *names[64];
        int n = 0;
        for (int i = 0; i < cli_subcommand_count() && n < 64; i++) names[n++] = cli_subcommand_at(i)->name;
        int near = nearest_of(topic, names, n);
        if (near >= 0) return cli_usage_error(&cli_help, "no subcommand '%s' (did you mean %s?)", topic, names[near]);
        return cli_usage_error(&cli_help, "no subcommand '%s' (mtref --help lists them)", topic);
    }
    cli_print_help(stdout, command);
    return fflush(stdout) == 0 ? 0 : 2;
}

const struct subcommand cli_help = {"help", "the help of mtref, or of a subcommand", usage, run};
