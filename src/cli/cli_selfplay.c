/* mtref selfplay: matches between built-in players, written as records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "alloc.h"
#include "cli.h"
#include "cpus.h"
#include "protocol.h"
#include "escape.h"
#include "selfplay_run.h"

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
    "  -j, --jobs N      play on N threads, the same bytes; default: the CPUs available\n"
    "  -h, --help        this help\n"
    "  -V, --version     the version of mtref and of its Lua\n"
    "See mtref(1), SELFPLAY.\n";

enum { OPT_PLAYERS, OPT_ROUNDS, OPT_GAMES, OPT_SEED, OPT_BOTS, OPT_OUT, OPT_RULES, OPT_TAGS, OPT_JOBS };
static const struct cli_option options[] = {
    [OPT_PLAYERS] = {"--players", 0, true},
    [OPT_ROUNDS] = {"--rounds", 0, true},
    [OPT_GAMES] = {"--games", 0, true},
    [OPT_SEED] = {"--seed", 0, true},
    [OPT_BOTS] = {"--bots", 0, true},
    [OPT_OUT] = {"--out", 0, true},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_TAGS] = {"--tags", 0, false},
    [OPT_JOBS] = {"--jobs", 'j', true},
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
#define SELFPLAY_MAX_GAMES 1000000000LL
#define SELFPLAY_MAX_JOBS 256          /* threads: far more than any machine here has cores */

/* Whether s can stand on a `rules` line as one token that reads back as s: no blank,
 * tab, '#', control byte, and well-formed UTF-8. */
static bool one_token(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len > PROTOCOL_LINE_MAX / 2 || !protocol_utf8_valid(s, len)) return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= ' ' || *p == '#' || *p == 0x7f) return false;
    return true;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* How a record names the --rules file spelled s, into out (size bytes): a record must
 * read the same from any directory. A name found on the rules path is written as the
 * name, and so is a path to a file that the name finds there; any other absolute
 * path is written as it is (the record then names that path); a file found relative
 * to the working directory is refused. Returns false with a message in why. */
static bool record_spelling(const char *s, char *out, size_t size, char *why, size_t whysize)
{
    if (!one_token(s)) {
        snprintf(why, whysize, "--rules: a record's rules line holds a file as one word, without blanks, "
                 "tabs, '#' or control characters: rename the file or the directories on its path");
        return false;
    }
    char path[CLI_PATH_SIZE], name[CLI_PATH_SIZE];
    bool by_name;
    snprintf(out, size, "%s", s);
    if (!luarules_find(s, path, sizeof path, &by_name)) return true;   /* the loader says what is wrong */
    if (by_name) return true;
    if (strchr(s, '/')) {
        rules_file_name(s, name, sizeof name);
        if (luarules_find(name, path, sizeof path, &by_name) && by_name && same_file(path, s)) {
            snprintf(out, size, "%s", name);
            return true;
        }
        if (s[0] == '/') return true;
    }
    snprintf(why, whysize, "--rules %s: found relative to the working directory, so a record naming it would "
             "depend on where it is read: give its absolute path, or put it on MTREF_RULES_PATH", s);
    return false;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    char date[16];
    tag_date(date, sizeof date);
    const char *rules[RULES_MAX_FILES];
    int nrules = 0;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_selfplay, options);
    const char *value;
    int opt, status = 0;
    long long n;
    bool jobs_given = false;
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
            if (!cli_count_value(&p, value, 0, CLI_SEED_MAX, &n, &status)) return status;
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
        case OPT_JOBS:
            if (!cli_count_value(&p, value, 1, SELFPLAY_MAX_JOBS, &n, &status)) return status;
            o.jobs = (int)n;
            jobs_given = true;
            break;
        case OPT_RULES:
            if (!cli_rules_value(&cli_selfplay, value, rules, &nrules, &status)) return status;
            break;
        }
    }
    char err[RULES_MESSAGE_SIZE] = "";
    char spelled[RULES_MAX_FILES][CLI_PATH_SIZE];
    const char *names[RULES_MAX_FILES];
    for (int i = 0; i < nrules; i++) {
        if (!record_spelling(rules[i], spelled[i], sizeof spelled[i], err, sizeof err)) {
            fprintf(stderr, "mtref: selfplay: %s\n", err);
            return 2;
        }
        names[i] = spelled[i];
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
    status = selfplay_run(&o, &env->loader, names, nrules, stdout, err);
    if (status != 0) {
        fputs("mtref: selfplay: ", stderr);
        escape_puts(stderr, err);         /* may quote a rules file */
        putc('\n', stderr);
    }
    for (int i = 0; i < nbridges; i++) luarules_free(bridges[i]);
    free(loaders);
    free(bridges);
    return status;
}

const struct subcommand cli_selfplay = {"selfplay", "play matches between built-in players", usage, run};
