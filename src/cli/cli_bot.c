/* mtref bot greedy|random: a built-in player speaking the bot protocol on stdin/stdout. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "match_bot.h"

static const char usage[] =
    "usage: mtref bot greedy|random [--seed S]   a built-in player as a bot program\n"
    "Speaks the bot protocol (mtref-bot(7)) on stdin and stdout, as `mtref match` runs it.\n"
    "options:\n"
    "  --seed S          seed of random's choices (1)\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref-bot(7).\n";

enum { OPT_SEED };
static const struct cli_option options[] = {
    [OPT_SEED] = {"--seed", 0, true},
};

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_bot, options);
    const char *value, *player = NULL;
    int opt, status = 0;
    long long seed = 1;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND:
            if (player) return cli_usage_error(&cli_bot, "bot takes one player: '%s'", value);
            player = value;
            break;
        case OPT_SEED:
            if (!cli_parse_count(value, 0, CLI_SEED_MAX, &seed))
                return cli_usage_error(&cli_bot, "bad option or value: '%s'", p.word);
            break;
        }
    }
    int kind = player ? bot_parse(player, (int)strlen(player)) : -1;
    if (kind < 0) return cli_usage_error(&cli_bot, "bot needs a player: greedy or random%s", "");
    return match_bot_run((enum bot_kind)kind, 0, stdout, &env->loader, (uint64_t)seed);
}

const struct subcommand cli_bot = {"bot", "a built-in player speaking the bot protocol", usage, run};
