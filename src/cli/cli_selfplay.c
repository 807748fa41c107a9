/* mtref selfplay: matches between built-in players, written as records. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "selfplay.h"

static const char usage[] =
    "usage: mtref selfplay [OPTIONS]        play matches between built-in players\n"
    "Writes the records of complete matches, one stream on stdout (or one file each).\n"
    "options:\n"
    "  --players N       seats at the table, p1..pN, 2 to 8 (more under house rules);\n"
    "                    default 4\n"
    "  --rounds R        rounds per match, 13, 7 or 1 under the canonical rules;\n"
    "                    default: the rules' own (13)\n"
    "  --games G         matches to play, 0 to 1000000000; default 1\n"
    "  --seed S          seed of the deals and the players, 0 to 999999999999999999;\n"
    "                    default 1\n"
    "  --bots LIST       comma-separated random and greedy: seat i is played by the\n"
    "                    (i mod n)-th; default greedy\n"
    "  --out DIR         one file per match, DIR/match-000001.mtr ..., instead of\n"
    "                    stdout; DIR must exist; default: stdout\n"
    "  --rules NAME      load a house-rule file, by name or path (repeatable);\n"
    "                    default: the canonical rules\n"
    "  --tags            tag each record (event, site, date, round, players, result)\n"
    "                    as comments; the date is today's, or SOURCE_DATE_EPOCH's;\n"
    "                    default: no tags, the same bytes every day\n"
    "  -h, --help        this help\n"
    "  -V, --version     the version of mtref and of its Lua\n"
    "See mtref(1), SELFPLAY.\n";

enum { OPT_PLAYERS, OPT_ROUNDS, OPT_GAMES, OPT_SEED, OPT_BOTS, OPT_OUT, OPT_RULES, OPT_TAGS };
static const struct cli_option options[] = {
    [OPT_PLAYERS] = {"--players", 0, true},
    [OPT_ROUNDS] = {"--rounds", 0, true},
    [OPT_GAMES] = {"--games", 0, true},
    [OPT_SEED] = {"--seed", 0, true},
    [OPT_BOTS] = {"--bots", 0, true},
    [OPT_OUT] = {"--out", 0, true},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_TAGS] = {"--tags", 0, false},
};

/* The Date tag: SOURCE_DATE_EPOCH (reproducible builds' convention) when set, else today. */
static void tag_date(char *buf, size_t size)
{
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    long long seconds;
    time_t when = epoch && cli_parse_count(epoch, 0, 253402300799LL, &seconds) ? (time_t)seconds : time(NULL);
    struct tm tm;
    if (!(epoch ? gmtime_r(&when, &tm) : localtime_r(&when, &tm)) || !strftime(buf, size, "%Y.%m.%d", &tm))
        snprintf(buf, size, "????.??.??");
}

/* The largest self-play seed: it is written back into each record's first comment. */
#define SELFPLAY_MAX_SEED 999999999999999999LL
#define SELFPLAY_MAX_GAMES 1000000000LL

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    char date[16];
    tag_date(date, sizeof date);
    const char *rules[RULES_MAX_FILES];
    int nrules = 0;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_selfplay, options, (int)(sizeof options / sizeof options[0]));
    const char *value;
    int opt, status = 0;
    long long n;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND: return cli_usage_error(&cli_selfplay, "selfplay takes no FILE: '%s'", value);
        case OPT_PLAYERS:
            if (!cli_count_value(&p, value, 2, RULES_MAX_PLAYERS, &n, &status)) return status;
            o.players = (int)n;
            break;
        case OPT_ROUNDS:
            if (!cli_count_value(&p, value, 1, RULES_MAX_ROUNDS, &n, &status)) return status;
            o.rounds = (int)n;
            break;
        case OPT_GAMES:
            if (!cli_count_value(&p, value, 0, SELFPLAY_MAX_GAMES, &n, &status)) return status;
            o.games = (long)n;
            break;
        case OPT_SEED:
            if (!cli_count_value(&p, value, 0, SELFPLAY_MAX_SEED, &n, &status)) return status;
            o.seed = (uint64_t)n;
            break;
        case OPT_BOTS:
            if (!selfplay_parse_bots(value, &o))
                return cli_usage_error(&cli_selfplay, "--bots: '%s' names a player that is not built in (random, greedy)", value);
            break;
        case OPT_OUT: {
            struct stat st;
            if (stat(value, &st) != 0 || !S_ISDIR(st.st_mode))
                return cli_usage_error(&cli_selfplay, "--out: '%s' is not a directory (it must exist)", value);
            o.out_dir = value;
            break;
        }
        case OPT_TAGS: o.date = date; break;
        case OPT_RULES:
            if (nrules == RULES_MAX_FILES) return cli_usage_error(&cli_selfplay, "too many %s files", "--rules");
            rules[nrules++] = value;
            break;
        }
    }
    char err[RULES_MESSAGE_SIZE] = "";
    status = selfplay_run(&o, &env->loader, rules, nrules, stdout, err);
    if (status != 0) fprintf(stderr, "mtref: selfplay: %s\n", err);
    return status;
}

const struct subcommand cli_selfplay = {"selfplay", "play matches between built-in players", usage, run};
