/* mtref match: bots as programs, each seeing only its own hand, with clocks, faults,
 * duplicate deals and a journal a rerun resumes from. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match_plan.h"

static const char usage[] =
    "usage: mtref match [OPTIONS] BOT...        play bots against each other\n"
    "A BOT is [NAME=]COMMAND (run by /bin/sh, speaking mtref-bot(7)) or builtin:greedy|random;\n"
    "after it, NAME.time=MOVE[+BANK], NAME.mem=SIZE, NAME.cpu=SECONDS, NAME.dir=DIR are its own.\n"
    "tables and deals:\n"
    "  -n, --players N     seats per table (the number of bots if 2-8, else 4)\n"
    "  --table LIST        one table, bot names in seat order (repeats allowed)\n"
    "  --tournament KIND   table, roundrobin (every N of the bots) or gauntlet (the first against the rest)\n"
    "  --seating KIND      rotate (each deal in every rotation; default) or none\n"
    "  --swap A,B          also play every match with bots A and B exchanged\n"
    "  --deals D           deals to play (100); --first-deal K: start at deal K (shards)\n"
    "  --seed S            the run's seed (random, kept in the journal)\n"
    "  --rounds R  --rules NAME (repeatable)\n"
    "time and faults:\n"
    "  --time MOVE[+BANK]  per decision, plus a bank for the match (1s+60s); inf: no clock\n"
    "  --init-time T (10s)  --time-margin T (10ms)  --exit-grace T (500ms)   (T: 250ms, 2s, 1.5)\n"
    "  --on-fault forfeit|stop   --recover (a crash forfeits instead of stopping the run)\n"
    "  --fallback greedy|random  --ask-forced  --max-line B (4096)  --flood N (1000)\n"
    "  --json-bot NAME     that bot speaks the JSON form\n"
    "bot processes:\n"
    "  --bot-mem SIZE      address space per bot (RLIMIT_AS; 512M, 2G; none)\n"
    "  --bot-cpu SECONDS   CPU time per bot process (RLIMIT_CPU; none)\n"
    "  --bot-dir DIR       every bot runs in DIR (default: a fresh directory each, removed after)\n"
    "output:\n"
    "  -o, --out DIR       journal DIR/results.jsonl (rerun to resume), DIR/records/, DIR/logs/\n"
    "  --log-dir DIR       the bots' transcripts (with -o: DIR/logs)\n"
    "  -j, --concurrency J matches at once (1); results never depend on it\n"
    "  --json              JSON lines (the journal's) and a JSON summary on stdout\n"
    "  -q, --quiet         no progress on stderr;  --force: start the run over;  --allow-changed-bots\n"
    "  --anonymous         seat everyone as p1..pN\n"
    "  -h, --help          this help;  --version  the version\n"
    "See mtref(1) and mtref-bot(7).\n";

enum {
    OPT_PLAYERS, OPT_TABLE, OPT_TOURNAMENT, OPT_SEATING, OPT_SWAP, OPT_DEALS, OPT_FIRST, OPT_SEED, OPT_ROUNDS,
    OPT_RULES, OPT_TIME, OPT_INIT, OPT_MARGIN, OPT_GRACE, OPT_ON_FAULT, OPT_RECOVER, OPT_FALLBACK, OPT_ASK_FORCED,
    OPT_MAX_LINE, OPT_FLOOD, OPT_JSON_BOT, OPT_OUT, OPT_LOG_DIR, OPT_JOBS, OPT_JSON, OPT_QUIET, OPT_FORCE,
    OPT_ALLOW_CHANGED, OPT_ANONYMOUS, OPT_BOT_MEM, OPT_BOT_CPU, OPT_BOT_DIR,
};
static const struct cli_option options[] = {
    [OPT_PLAYERS] = {"--players", 'n', true}, [OPT_TABLE] = {"--table", 0, true},
    [OPT_TOURNAMENT] = {"--tournament", 0, true}, [OPT_SEATING] = {"--seating", 0, true},
    [OPT_SWAP] = {"--swap", 0, true}, [OPT_DEALS] = {"--deals", 0, true}, [OPT_FIRST] = {"--first-deal", 0, true},
    [OPT_SEED] = {"--seed", 0, true}, [OPT_ROUNDS] = {"--rounds", 0, true}, [OPT_RULES] = {"--rules", 0, true},
    [OPT_TIME] = {"--time", 0, true}, [OPT_INIT] = {"--init-time", 0, true},
    [OPT_MARGIN] = {"--time-margin", 0, true}, [OPT_GRACE] = {"--exit-grace", 0, true},
    [OPT_ON_FAULT] = {"--on-fault", 0, true}, [OPT_RECOVER] = {"--recover", 0, false},
    [OPT_FALLBACK] = {"--fallback", 0, true}, [OPT_ASK_FORCED] = {"--ask-forced", 0, false},
    [OPT_MAX_LINE] = {"--max-line", 0, true}, [OPT_FLOOD] = {"--flood", 0, true},
    [OPT_JSON_BOT] = {"--json-bot", 0, true}, [OPT_OUT] = {"--out", 'o', true},
    [OPT_LOG_DIR] = {"--log-dir", 0, true}, [OPT_JOBS] = {"--concurrency", 'j', true},
    [OPT_JSON] = {"--json", 0, false}, [OPT_QUIET] = {"--quiet", 'q', false}, [OPT_FORCE] = {"--force", 0, false},
    [OPT_ALLOW_CHANGED] = {"--allow-changed-bots", 0, false}, [OPT_ANONYMOUS] = {"--anonymous", 0, false},
    [OPT_BOT_MEM] = {"--bot-mem", 0, true}, [OPT_BOT_CPU] = {"--bot-cpu", 0, true},
    [OPT_BOT_DIR] = {"--bot-dir", 0, true},
};

/* "512M", "2G", "65536K", "1048576" (bytes) -> bytes, 1 MiB to 1 TiB; false when malformed. */
static bool parse_size(const char *s, int64_t *bytes)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || !(x > 0)) return false;
    double scale = 1;
    if (strcmp(end, "K") == 0 || strcmp(end, "k") == 0) scale = 1024.0;
    else if (strcmp(end, "M") == 0 || strcmp(end, "m") == 0) scale = 1024.0 * 1024;
    else if (strcmp(end, "G") == 0 || strcmp(end, "g") == 0) scale = 1024.0 * 1024 * 1024;
    else if (*end) return false;
    x *= scale;
    if (x < 1024.0 * 1024 || x > 1024.0 * 1024 * 1024 * 1024) return false;
    *bytes = (int64_t)x;
    return true;
}

/* "250ms", "2s", "1.5" (seconds), "3m" -> microseconds; false when malformed. */
static bool parse_duration(const char *s, int64_t *us)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || !(x >= 0) || x > 1e7) return false;
    double scale = 1e6;
    if (strcmp(end, "ms") == 0) scale = 1e3;
    else if (strcmp(end, "m") == 0) scale = 60e6;
    else if (strcmp(end, "s") != 0 && *end) return false;
    *us = (int64_t)llround(x * scale);
    return true;
}

static bool parse_clock(const char *s, int64_t *move_us, int64_t *bank_us)
{
    if (strcmp(s, "inf") == 0) {
        *move_us = -1;
        return true;
    }
    char move[64];
    const char *plus = strchr(s, '+');
    size_t n = plus ? (size_t)(plus - s) : strlen(s);
    if (n >= sizeof move) return false;
    memcpy(move, s, n);
    move[n] = '\0';
    if (!parse_duration(move, move_us)) return false;
    *bank_us = 0;
    return !plus || parse_duration(plus + 1, bank_us);
}

static bool parse_time(const char *s, struct match_config *c) { return parse_clock(s, &c->move_us, &c->bank_us); }

static bool parse_size(const char *s, int64_t *bytes);

/* NAME.KEY=VALUE for a bot already given (cutechess's per-engine options): 1 set,
 * 0 not such an operand (then it is a bot), -1 a bad key or value (err says). */
static int parse_bot_option(struct match_plan *p, const char *arg, char *err)
{
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (!dot || !eq || dot > eq || strcspn(arg, " \t/") < (size_t)(eq - arg)) return 0;
    int b = match_plan_find_bot(p, arg, (size_t)(dot - arg));
    if (b < 0) return 0;
    struct match_bot *bot = &p->bots[b];
    size_t klen = (size_t)(eq - dot - 1);
    const char *key = dot + 1, *value = eq + 1;
    long long n;
    bool ok = true;
    if (!bot->cmd) {
        snprintf(err, 200, "'%s': %s is a built-in, played in process, with no clock or process", arg, bot->name);
        return -1;
    }
    if (klen == 4 && memcmp(key, "time", 4) == 0) {
        ok = parse_clock(value, &bot->move_us, &bot->bank_us);
        bot->own_time = ok;
    } else if (klen == 3 && memcmp(key, "mem", 3) == 0) {
        ok = parse_size(value, &bot->limits.mem_bytes);
    } else if (klen == 3 && memcmp(key, "cpu", 3) == 0) {
        ok = cli_parse_count(value, 1, CLI_BOT_CPU_MAX, &n);
        if (ok) bot->limits.cpu_seconds = n;
    } else if (klen == 3 && memcmp(key, "dir", 3) == 0) {
        ok = *value != '\0';
        bot->dir = value;
    } else {
        snprintf(err, 200, "'%s': unknown bot option (NAME.time, NAME.mem, NAME.cpu, NAME.dir)", arg);
        return -1;
    }
    if (!ok) snprintf(err, 200, "'%s': bad value", arg);
    return ok ? 1 : -1;
}

/* Names in LIST (comma-separated) -> bot indexes. */
static int parse_names(const struct match_plan *p, const char *list, int *out, int max)
{
    int n = 0;
    while (*list) {
        size_t len = strcspn(list, ",");
        int b = match_plan_find_bot(p, list, len);
        if (b < 0 || n == max) return -1;
        out[n++] = b;
        list += len;
        if (*list == ',') list++;
    }
    return n;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct match_plan *p = calloc(1, sizeof *p);
    if (!p) return 2;
    match_plan_defaults(p);
    const char *table = NULL, *swap = NULL, *json_bots[MATCH_MAX_BOTS];
    int njson = 0;
    struct cli_parser ps;
    cli_parser_init(&ps, argc, argv, &cli_match, options, (int)(sizeof options / sizeof options[0]));
    const char *value;
    int opt, status = 0;
    long long n;
    char err[200];
    while ((opt = cli_parser_next(&ps, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: free(p); return status;
        case CLI_OPERAND: {
            int own = parse_bot_option(p, value, err);
            if (own < 0) {
                free(p);
                return cli_usage_error(&cli_match, "%s", err);
            }
            if (own > 0) break;
            if (!match_plan_add_bot(p, value, err)) {
                free(p);
                return cli_usage_error(&cli_match, "%s", err);
            }
            break;
        }
        case OPT_PLAYERS:
            if (!cli_parse_count(value, 2, RULES_MAX_PLAYERS, &n)) goto bad;
            p->players = (int)n;
            break;
        case OPT_TABLE: table = value; break;
        case OPT_TOURNAMENT:
            p->tournament_given = true;
            if (strcmp(value, "table") == 0) p->tournament = TOURNAMENT_TABLE;
            else if (strcmp(value, "roundrobin") == 0) p->tournament = TOURNAMENT_ROUNDROBIN;
            else if (strcmp(value, "gauntlet") == 0) p->tournament = TOURNAMENT_GAUNTLET;
            else goto bad;
            break;
        case OPT_SEATING:
            if (strcmp(value, "rotate") == 0) p->seating = SEATING_ROTATE;
            else if (strcmp(value, "none") == 0) p->seating = SEATING_NONE;
            else goto bad;
            break;
        case OPT_SWAP: swap = value; break;
        case OPT_DEALS:
            if (!cli_parse_count(value, 1, 100000000, &n)) goto bad;
            p->deals = (long)n;
            break;
        case OPT_FIRST:
            if (!cli_parse_count(value, 0, 1000000000, &n)) goto bad;
            p->first_deal = (long)n;
            break;
        case OPT_SEED:
            if (!cli_parse_count(value, 0, 999999999999999999LL, &n)) goto bad;
            p->seed = (uint64_t)n;
            p->seed_given = true;
            break;
        case OPT_ROUNDS:
            if (!cli_parse_count(value, 1, RULES_MAX_ROUNDS, &n)) goto bad;
            p->rounds = (int)n;
            break;
        case OPT_RULES:
            if (!cli_rules_value(&cli_match, value, p->rules, &p->nrules, &status)) {
                free(p);
                return status;
            }
            break;
        case OPT_TIME: if (!parse_time(value, &p->config)) goto bad; break;
        case OPT_INIT: if (!parse_duration(value, &p->config.init_us)) goto bad; break;
        case OPT_MARGIN: if (!parse_duration(value, &p->config.margin_us)) goto bad; break;
        case OPT_GRACE: if (!parse_duration(value, &p->config.grace_us)) goto bad; break;
        case OPT_ON_FAULT:
            if (strcmp(value, "forfeit") == 0) p->config.policy = POLICY_FORFEIT;
            else if (strcmp(value, "stop") == 0) p->config.policy = POLICY_STOP;
            else goto bad;
            break;
        case OPT_RECOVER: p->config.recover = true; break;
        case OPT_FALLBACK: {
            int k = bot_parse(value, (int)strlen(value));
            if (k < 0) goto bad;
            p->config.fallback = (enum bot_kind)k;
            break;
        }
        case OPT_ASK_FORCED: p->config.ask_forced = true; break;
        case OPT_MAX_LINE:
            if (!cli_parse_count(value, 64, 1 << 24, &n)) goto bad;
            p->config.max_line = (size_t)n;
            break;
        case OPT_FLOOD:
            if (!cli_parse_count(value, 0, 100000000, &n)) goto bad;
            p->config.flood_lines = (long)n;
            break;
        case OPT_JSON_BOT:
            if (njson == MATCH_MAX_BOTS) goto bad;
            json_bots[njson++] = value;
            break;
        case OPT_OUT: p->out_dir = value; break;
        case OPT_LOG_DIR: p->config.log_dir = value; break;
        case OPT_JOBS:
            if (!cli_parse_count(value, 1, 64, &n)) goto bad;
            p->jobs = (int)n;
            break;
        case OPT_JSON: p->json = true; break;
        case OPT_QUIET: p->quiet = true; break;
        case OPT_FORCE: p->force = true; break;
        case OPT_ALLOW_CHANGED: p->allow_changed_bots = true; break;
        case OPT_ANONYMOUS: p->anonymous = true; break;
        case OPT_BOT_MEM: if (!parse_size(value, &p->config.limits.mem_bytes)) goto bad; break;
        case OPT_BOT_CPU:
            if (!cli_parse_count(value, 1, CLI_BOT_CPU_MAX, &n)) goto bad;
            p->config.limits.cpu_seconds = n;
            break;
        case OPT_BOT_DIR: p->config.bot_dir = value; break;
        }
        continue;
    bad:
        free(p);
        return cli_usage_error(&cli_match, "bad option or value: '%s'", ps.word);
    }
    if (table && (p->ntable = parse_names(p, table, p->table, RULES_MAX_PLAYERS)) < 2) {
        free(p);
        return cli_usage_error(&cli_match, "--table: '%s' must name 2 or more of the bots given", table);
    }
    if (swap) {
        int pair[2];
        if (parse_names(p, swap, pair, 2) != 2 || pair[0] == pair[1]) {
            free(p);
            return cli_usage_error(&cli_match, "--swap: '%s' must name two different bots", swap);
        }
        p->swap_a = pair[0];
        p->swap_b = pair[1];
    }
    for (int i = 0; i < njson; i++) {
        int b = match_plan_find_bot(p, json_bots[i], strlen(json_bots[i]));
        if (b < 0 || !p->bots[b].cmd) {
            free(p);
            return cli_usage_error(&cli_match, "--json-bot: '%s' is not a bot program of this run", json_bots[i]);
        }
        p->bots[b].form = PROTO_JSON;
    }
    status = match_plan_run(p, &env->loader, stdout, stderr);
    free(p);
    return status;
}

const struct subcommand cli_match = {"match", "play bot programs against each other, with clocks and faults", usage, run};
