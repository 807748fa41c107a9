/* mtref selfplay: matches between built-in players, written as records. */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "cli.h"
#include "cpus.h"
#include "selfplay.h"

static const char usage[] =
    "usage: mtref selfplay [OPTIONS]        play matches between built-in players\n"
    "options:\n"
    "  --players N       seats at the table (4)\n"
    "  --rounds R        rounds per match (the rules' default)\n"
    "  --games G         matches to play (1)\n"
    "  --seed S          seed of the deals and the players (1)\n"
    "  --bots LIST       random,greedy,... seat i plays LIST[i mod n] (greedy)\n"
    "  --out DIR         one file per match in DIR instead of one stream on stdout\n"
    "  --jobs N          play on N threads, the same bytes (default: the CPUs available)\n"
    "  --rules NAME      load a house-rule file (repeatable)\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_PLAYERS, OPT_ROUNDS, OPT_GAMES, OPT_SEED, OPT_BOTS, OPT_OUT, OPT_RULES, OPT_JOBS };
static const struct cli_option options[] = {
    [OPT_PLAYERS] = {"--players", 0, true},
    [OPT_ROUNDS] = {"--rounds", 0, true},
    [OPT_GAMES] = {"--games", 0, true},
    [OPT_SEED] = {"--seed", 0, true},
    [OPT_BOTS] = {"--bots", 0, true},
    [OPT_OUT] = {"--out", 0, true},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_JOBS] = {"--jobs", 'j', true},
};

#define SELFPLAY_MAX_JOBS 256

/* The largest self-play seed: it is written back into each record's first comment. */
#define SELFPLAY_MAX_SEED 999999999999999999LL
#define SELFPLAY_MAX_GAMES 1000000000LL

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    const char *rules[RULES_MAX_FILES];
    int nrules = 0;
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_selfplay, options, (int)(sizeof options / sizeof options[0]));
    const char *value;
    int opt, status = 0;
    long long n;
    bool jobs_given = false;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND: return cli_usage_error(&cli_selfplay, "selfplay takes no FILE: '%s'", value);
        case OPT_PLAYERS:
            if (!cli_parse_count(value, 2, RULES_MAX_PLAYERS, &n)) goto bad_value;
            o.players = (int)n;
            break;
        case OPT_ROUNDS:
            if (!cli_parse_count(value, 1, RULES_MAX_ROUNDS, &n)) goto bad_value;
            o.rounds = (int)n;
            break;
        case OPT_GAMES:
            if (!cli_parse_count(value, 0, SELFPLAY_MAX_GAMES, &n)) goto bad_value;
            o.games = (long)n;
            break;
        case OPT_SEED:
            if (!cli_parse_count(value, 0, SELFPLAY_MAX_SEED, &n)) goto bad_value;
            o.seed = (uint64_t)n;
            break;
        case OPT_BOTS:
            if (!selfplay_parse_bots(value, &o))
                return cli_usage_error(&cli_selfplay, "--bots: unknown player in '%s' (random, greedy)", value);
            break;
        case OPT_OUT: o.out_dir = value; break;
        case OPT_JOBS:
            if (!cli_parse_count(value, 1, SELFPLAY_MAX_JOBS, &n)) goto bad_value;
            o.jobs = (int)n;
            jobs_given = true;
            break;
        case OPT_RULES:
            if (nrules == RULES_MAX_FILES) return cli_usage_error(&cli_selfplay, "too many %s files", "--rules");
            rules[nrules++] = value;
            break;
        }
        continue;
    bad_value:
        return cli_usage_error(&cli_selfplay, "bad option or value: '%s'", p.word);
    }
    if (!jobs_given) o.jobs = sys_cpus_available();
    if (o.jobs > SELFPLAY_MAX_JOBS) o.jobs = SELFPLAY_MAX_JOBS;
    /* with rules files, every worker its own Lua bridge */
    struct luarules **bridges = NULL;
    struct rules_loader *loaders = NULL;
    int nbridges = 0;
    if (o.jobs > 1 && nrules > 0) {
        bridges = mt_malloc((size_t)o.jobs * sizeof *bridges);
        loaders = mt_malloc((size_t)o.jobs * sizeof *loaders);
        for (; bridges && loaders && nbridges < o.jobs; nbridges++) {
            bridges[nbridges] = luarules_new();
            if (!bridges[nbridges]) break;
            loaders[nbridges] = luarules_loader(bridges[nbridges]);
        }
        if (nbridges == o.jobs) o.job_loaders = loaders;
        else o.jobs = 1;               /* short of memory: one thread */
    }
    char err[RULES_MESSAGE_SIZE] = "";
    status = selfplay_run(&o, &env->loader, rules, nrules, stdout, err);
    if (status != 0) fprintf(stderr, "mtref: selfplay: %s\n", err);
    for (int i = 0; i < nbridges; i++) luarules_free(bridges[i]);
    free(loaders);
    free(bridges);
    return status;
}

const struct subcommand cli_selfplay = {"selfplay", "play matches between built-in players", usage, run};
