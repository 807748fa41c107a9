/* mtref show FILE: the table at one line of a record, or at the start of a round. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_look.h"

static const char usage[] =
    "usage: mtref show [OPTIONS] FILE       the table at a line of a record (default: its end)\n"
    "options:\n"
    "  --at LINE         the table as it stood after that line\n"
    "  --round N         the table as round N is about to be played (its hands dealt)\n"
    "  --as NAME         the table as that player sees it\n"
    "  --json            the referee's JSON show object\n"
    "  --svg OUT         a picture (SVG) into OUT (- for stdout)\n"
    "  -k, --keep-going  walk past rejected lines (default: stop at the first)\n"
    "  --rules NAME      load a house-rule file (repeatable; after the record's own)\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_AT, OPT_ROUND, OPT_AS, OPT_JSON, OPT_SVG, OPT_KEEP_GOING, OPT_RULES };
static const struct cli_option options[] = {
    [OPT_AT] = {"--at", 0, true},
    [OPT_ROUND] = {"--round", 0, true},
    [OPT_AS] = {"--as", 0, true},
    [OPT_JSON] = {"--json", 0, false},
    [OPT_SVG] = {"--svg", 0, true},
    [OPT_KEEP_GOING] = {"--keep-going", 'k', false},
    [OPT_RULES] = {"--rules", 0, true},
};

struct show_ctx {
    FILE *out;
    struct cli_table_options table;
    int status;
};

static void visit(void *ctx, const struct referee *ref, const struct game *before, const struct response *resp)
{
    struct show_ctx *c = ctx;
    c->status = cli_print_table(c->out, &c->table, ref, before, resp);
}

static int show(int fd, const struct session_options *so, long at, long round, struct show_ctx *c)
{
    struct walk_index ix;
    if (!walk_index_build(fd, so, &ix)) {
        fputs("mtref: show: out of memory\n", stderr);
        return 2;
    }
    int status = 0;
    long step = round > 0 ? walk_index_round_start(&ix, (int)round) : walk_index_at_line(&ix, at);
    if (ix.read_error) {
        fprintf(stderr, "mtref: show: %s\n", strerror(ix.read_error));
        status = 2;
    } else if (step < 0 && round > 0) {
        fprintf(stderr, "mtref: show: the record never reaches round %ld\n", round);
        status = 2;
    } else if (step < 0) {
        fprintf(stderr, "mtref: show: no line answered %s\n", ix.n ? "by then" : "in the record");
        status = 2;
    } else {
        /* a rejected line stops the walk: the table is shown there, as the referee left it */
        if (!walk_to_line(fd, so, ix.steps[step].line, visit, c)) {
            fputs("mtref: show: the record changed while it was read\n", stderr);
            status = 2;
        } else {
            status = c->status ? c->status : error_code_status(ix.steps[step].code);
        }
    }
    walk_index_free(&ix);
    return status;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    const char *rules[RULES_MAX_FILES];
    const char *path = NULL, *svg = NULL;
    long long at = -1, round = 0;
    struct session_options so = {&env->loader, rules, 0, false, NULL, NULL, NULL};
    struct show_ctx c = {stdout, {OUTPUT_TEXT, NULL, false}, 0};
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_show, options);
    const char *value;
    int opt, status = 0;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND:
            if (cli_one_file(&cli_show, &path, value)) return 2;
            break;
        case OPT_AT:
            if (!cli_parse_count(value, 1, CLI_LINE_MAX, &at)) goto bad_value;
            break;
        case OPT_ROUND:
            if (!cli_parse_count(value, 1, CLI_ROUND_MAX, &round)) goto bad_value;
            break;
        case OPT_AS:
            if (!protocol_is_name(value, strlen(value))) goto bad_value;
            c.table.as = value;
            break;
        case OPT_JSON: c.table.mode = OUTPUT_JSON; break;
        case OPT_SVG: svg = value; break;
        case OPT_KEEP_GOING: so.keep_going = true; break;
        case OPT_RULES:
            if (!cli_rules_value(&cli_show, value, rules, &so.nrules, &status)) return status;
            break;
        }
        continue;
    bad_value:
        return cli_usage_error(&cli_show, "bad option or value: '%s %s'", p.word, value);
    }
    if (!path) return cli_usage_error(&cli_show, "show needs a %s", "FILE");
    if (at > 0 && round > 0) return cli_usage_error(&cli_show, "give --at or --round, not %s", "both");
    int fd, err = cli_open_record(path, &fd);
    if (err) {
        fprintf(stderr, "mtref: %s: %s\n", path, strerror(err));
        return 2;
    }
    FILE *picture = NULL;
    if (svg) {
        c.table.svg = true;
        picture = strcmp(svg, "-") == 0 ? stdout : fopen(svg, "w");
        if (!picture) {
            fprintf(stderr, "mtref: %s: %s\n", svg, strerror(errno));
            close(fd);
            return 2;
        }
        c.out = picture;
    }
    status = show(fd, &so, at > 0 ? (long)at : 0x7fffffffL, (long)round, &c);
    if (picture && picture != stdout && fclose(picture) != 0) {
        fprintf(stderr, "mtref: %s: %s\n", svg, strerror(errno));
        status = 2;
    }
    if (fflush(stdout) != 0) status = 2;
    close(fd);
    return status;
}

const struct subcommand cli_show = {"show", "the table at a line of a record, as text, JSON or SVG", usage, run};
