/* mtref compare --rules A --rules B: what a rule set does to self-played matches, side
 * by side with another on the same seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_look.h"
#include "compare.h"

static const char usage[] =
    "usage: mtref compare [OPTIONS] --rules A --rules B\n"
    "                                       self-play under two rule sets on the same seeds\n"
    "options:\n"
    "  --rules LIST      one side's rules: names or paths separated by commas, or\n"
    "                    canonical; the first --rules is side A, the second side B\n"
    "                    (given once: A is canonical)\n"
    "  --games G         matches per side (100)\n"
    "  --players N  --rounds R  --seed S  --bots LIST   as for mtref selfplay\n"
    "  --json            one JSON object\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_RULES, OPT_GAMES, OPT_PLAYERS, OPT_ROUNDS, OPT_SEED, OPT_BOTS, OPT_JSON };
static const struct cli_option options[] = {
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_GAMES] = {"--games", 0, true},
    [OPT_PLAYERS] = {"--players", 0, true},
    [OPT_ROUNDS] = {"--rounds", 0, true},
    [OPT_SEED] = {"--seed", 0, true},
    [OPT_BOTS] = {"--bots", 0, true},
    [OPT_JSON] = {"--json", 0, false},
};

#define COMPARE_MAX_GAMES 10000000LL

struct side {
    struct cli_rules_side rules;
    struct compare_tally tally;
};

static void text_rules(char *buf, size_t size, const struct side *s)
{
    size_t used = 0;
    buf[0] = '\0';
    if (s->rules.nfiles == 0) snprintf(buf, size, "canonical");
    for (int i = 0; i < s->rules.nfiles && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "," : "", s->rules.files[i]);
}

/* "123.4 [118.0, 128.8]" or "12.5% [9.1, 16.3]" */
static void format_figure(char *buf, size_t size, struct compare_figure f, bool share, bool signed_value)
{
    double k = share ? 100 : 1;
    snprintf(buf, size, signed_value ? "%+.*f%s [%+.*f, %+.*f]" : "%.*f%s [%.*f, %.*f]", share ? 1 : 2,
             f.value * k, share ? "%" : "", share ? 1 : 2, f.low * k, share ? 1 : 2, f.high * k);
}

static void print_text(const struct selfplay_options *o, const struct side *a, const struct side *b)
{
    char ra[200], rb[200], fa[64], fb[64], fd[64];
    text_rules(ra, sizeof ra, a);
    text_rules(rb, sizeof rb, b);
    printf("%ld matches per side, %d players, seed %llu; 95%% intervals in brackets\n", o->games, o->players,
           (unsigned long long)o->seed);
    printf("A: %s (%ld rounds)\nB: %s (%ld rounds)\n", ra, a->tally.rounds, rb, b->tally.rounds);
    printf("%-24s %-26s %-26s %s\n", "", "A", "B", "B - A");
    for (int row = 0; row < COMPARE_ROWS; row++) {
        bool share = compare_row_is_share((enum compare_row)row);
        format_figure(fa, sizeof fa, compare_figure_of(&a->tally, (enum compare_row)row), share, false);
        format_figure(fb, sizeof fb, compare_figure_of(&b->tally, (enum compare_row)row), share, false);
        format_figure(fd, sizeof fd, compare_difference(&a->tally, &b->tally, (enum compare_row)row), share, true);
        printf("%-24s %-26s %-26s %s\n", compare_row_name((enum compare_row)row), fa, fb, fd);
    }
}

static void json_figure(struct compare_figure f)
{
    printf("{\"value\":%.6g,\"low\":%.6g,\"high\":%.6g}", f.value, f.low, f.high);
}

static const char *const json_keys[COMPARE_ROWS] = {
    "mean_total", "spread", "blocked", "moves_per_round", "first_seat_wins", "doubles_left",
};

static void json_side(const struct side *s)
{
    fputs("{\"rules\":[", stdout);
    for (int i = 0; i < s->rules.nfiles; i++) {
        if (i) putchar(',');
        output_json_string(stdout, s->rules.files[i]);
    }
    printf("],\"matches\":%ld,\"rounds\":%ld,\"doubles\":%ld", s->tally.matches, s->tally.rounds, s->tally.doubles);
    for (int row = 0; row < COMPARE_ROWS; row++) {
        printf(",\"%s\":", json_keys[row]);
        json_figure(compare_figure_of(&s->tally, (enum compare_row)row));
    }
    putchar('}');
}

static void print_json(const struct selfplay_options *o, const struct side *a, const struct side *b)
{
    printf("{\"games\":%ld,\"players\":%d,\"seed\":%llu,\"a\":", o->games, o->players, (unsigned long long)o->seed);
    json_side(a);
    fputs(",\"b\":", stdout);
    json_side(b);
    fputs(",\"difference\":{", stdout);
    for (int row = 0; row < COMPARE_ROWS; row++) {
        printf("%s\"%s\":", row ? "," : "", json_keys[row]);
        json_figure(compare_difference(&a->tally, &b->tally, (enum compare_row)row));
    }
    fputs("}}\n", stdout);
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    struct side *sides = calloc(2, sizeof *sides);
    if (!sides) return 2;
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.games = 100;
    int nsides = 0;
    bool json = false;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_compare, options);
    const char *value;
    int opt, status = 0;
    long long n;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: goto done;
        case CLI_OPERAND:
            status = cli_usage_error(&cli_compare, "compare takes no FILE: '%s'", value);
            goto done;
        case OPT_RULES:
            if ((status = cli_rules_option(&cli_compare, value, &sides[0].rules, &sides[1].rules, &nsides))) goto done;
            break;
        case OPT_GAMES:
            if (!cli_parse_count(value, 1, COMPARE_MAX_GAMES, &n)) goto bad_value;
            o.games = (long)n;
            break;
        case OPT_PLAYERS:
            if (!cli_parse_count(value, 2, RULES_MAX_PLAYERS, &n)) goto bad_value;
            o.players = (int)n;
            break;
        case OPT_ROUNDS:
            if (!cli_parse_count(value, 1, RULES_MAX_ROUNDS, &n)) goto bad_value;
            o.rounds = (int)n;
            break;
        case OPT_SEED:
            if (!cli_parse_count(value, 0, CLI_SEED_MAX, &n)) goto bad_value;
            o.seed = (uint64_t)n;
            break;
        case OPT_BOTS:
            if (!selfplay_parse_bots(value, &o)) goto bad_value;
            break;
        case OPT_JSON: json = true; break;
        }
        continue;
    bad_value:
        status = cli_usage_error(&cli_compare, "bad option or value: '%s %s'", p.word, value);
        goto done;
    }
    if (nsides == 0) {
        status = cli_usage_error(&cli_compare, "compare needs --rules (%s)", "one or two");
        goto done;
    }
    cli_rules_sides_finish(&sides[0].rules, &sides[1].rules, nsides);    /* one list: against the canonical rules */
    for (int k = 0; k < 2 && status == 0; k++) {
        char err[RULES_MESSAGE_SIZE] = "";
        status = compare_tally_run(&o, &env->loader, sides[k].rules.files, sides[k].rules.nfiles, &sides[k].tally, err);
        if (status) fprintf(stderr, "mtref: compare: side %c: %s\n", k ? 'B' : 'A', err);
    }
    if (status == 0) {
        if (json) print_json(&o, &sides[0], &sides[1]);
        else print_text(&o, &sides[0], &sides[1]);
        if (fflush(stdout) != 0) status = 2;
    }
done:
    free(sides);
    return status;
}

const struct subcommand cli_compare = {"compare", "self-play under two rule sets on the same seeds", usage, run};
