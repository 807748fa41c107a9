/* mtref selfplay: matches between built-in players, written as records. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "protocol.h"
#include "escape.h"
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
    "  --rules NAME      load a house-rule file (repeatable)\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_PLAYERS, OPT_ROUNDS, OPT_GAMES, OPT_SEED, OPT_BOTS, OPT_OUT, OPT_RULES };
static const struct cli_option options[] = {
    [OPT_PLAYERS] = {"--players", 0, true},
    [OPT_ROUNDS] = {"--rounds", 0, true},
    [OPT_GAMES] = {"--games", 0, true},
    [OPT_SEED] = {"--seed", 0, true},
    [OPT_BOTS] = {"--bots", 0, true},
    [OPT_OUT] = {"--out", 0, true},
    [OPT_RULES] = {"--rules", 0, true},
};

/* The largest self-play seed: it is written back into each record's first comment. */
#define SELFPLAY_MAX_SEED 999999999999999999LL
#define SELFPLAY_MAX_GAMES 1000000000LL

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
        case OPT_RULES:
            if (nrules == RULES_MAX_FILES) return cli_usage_error(&cli_selfplay, "too many %s files", "--rules");
            rules[nrules++] = value;
            break;
        }
        continue;
    bad_value:
        return cli_usage_error(&cli_selfplay, "bad option or value: '%s'", p.word);
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
    status = selfplay_run(&o, &env->loader, names, nrules, stdout, err);
    if (status != 0) {
        fputs("mtref: selfplay: ", stderr);
        escape_puts(stderr, err);         /* may quote a rules file */
        putc('\n', stderr);
    }
    return status;
}

const struct subcommand cli_selfplay = {"selfplay", "play matches between built-in players", usage, run};
