/* mtref's entry point: picks the subcommand from the table and runs it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Every subcommand, in the order mtref --help lists them; the referee is the default. */
static const struct subcommand *const subcommands[] = {
    &cli_referee, &cli_check, &cli_selfplay, &cli_rules,
    &cli_match,
    &cli_bot,
    &cli_stats,
};
#define NSUBCOMMANDS (int)(sizeof subcommands / sizeof subcommands[0])

static const struct subcommand *find_subcommand(const char *word)
{
    for (int i = 0; i < NSUBCOMMANDS; i++)
        if (subcommands[i]->name[0] && strcmp(subcommands[i]->name, word) == 0) return subcommands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const struct subcommand *command = argc > 1 ? find_subcommand(argv[1]) : NULL;
    if (command) {
        argc--;
        argv++;
    } else {
        command = &cli_referee;
    }
    struct cli_env env;
    env.lua = luarules_new();
    if (!env.lua) {
        fputs("mtref: out of memory\n", stderr);
        return 2;
    }
    env.loader = luarules_loader(env.lua);
    int status = command->run(argc, argv, &env);
    luarules_free(env.lua);
    /* A full disk or a closed pipe is no success: one check for every subcommand */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mtref: cannot write the output: %s\n", errno ? strerror(errno) : "a write failed");
        status = 2;
    }
    return status;
}
