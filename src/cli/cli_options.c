/* The option parser the subcommands share, and small helpers for operands. */
#include "cli.h"
#include "nearest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_parser_init(struct cli_parser *p, int argc, char **argv, const struct subcommand *command,
                     const struct cli_option *options, int noptions)
{
    p->argc = argc;
    p->argv = argv;
    p->next = 1;
    p->operands_only = false;
    p->options = options;
    p->noptions = noptions;
    p->command = command;
    p->word = NULL;
    p->bundle = NULL;
}

/* A flag of a bundle such as "-kq": its index, or -1. */
static int short_flag(const struct cli_parser *p, char c)
{
    for (int i = 0; i < p->noptions; i++)
        if (p->options[i].short_name == c && !p->options[i].takes_value) return i;
    return -1;
}

int cli_usage_error(const struct subcommand *command, const char *fmt, ...)
{
    fputs("mtref: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (command && command->name[0]) fprintf(stderr, "\n(mtref %s --help lists the options)\n", command->name);
    else fputs("\n(mtref --help lists the options)\n", stderr);
    return 2;
}

int cli_one_file(const struct subcommand *command, const char **path, const char *value)
{
    if (*path) return cli_usage_error(command, "give one FILE: '%s'", value);
    *path = value;
    return 0;
}

bool cli_rules_value(const struct subcommand *command, const char *value, const char *list[], int *n, int *status)
{
    if (*n == RULES_MAX_FILES) {
        *status = cli_usage_error(command, "too many --rules files (at most %d)", RULES_MAX_FILES);
        return false;
    }
    list[(*n)++] = value;
    return true;
}

/* The option a word names: its index, with *value set when the word holds "=VALUE". */
static int find_option(const struct cli_parser *p, const char *word, const char **value)
{
    *value = NULL;
    for (int i = 0; i < p->noptions; i++) {
        const struct cli_option *o = &p->options[i];
        size_t len = strlen(o->name);
        if (strncmp(word, o->name, len) == 0) {
            if (word[len] == '\0') return i;
            if (word[len] == '=' && o->takes_value) {
                *value = word + len + 1;
                return i;
            }
        }
        if (o->short_name && word[0] == '-' && word[1] == o->short_name && word[2] == '\0') return i;
    }
    return -1;
}

static const struct subcommand *const *table;
static int table_size;

void cli_set_subcommands(const struct subcommand *const *t, int n)
{
    table = t;
    table_size = n;
}

int cli_subcommand_count(void) { return table_size; }
const struct subcommand *cli_subcommand_at(int i) { return i >= 0 && i < table_size ? table[i] : NULL; }

const struct subcommand *cli_find_subcommand(const char *word)
{
    for (int i = 0; i < table_size; i++)
        if (table[i]->name[0] && strcmp(table[i]->name, word) == 0) return table[i];
    return NULL;
}

void cli_print_help(FILE *out, const struct subcommand *command)
{
    fputs(command->usage, out);
    if (command->name[0]) return;
    fputs("subcommands (mtref help SUBCOMMAND, or mtref SUBCOMMAND --help, for their options):\n", out);
    for (int i = 0; i < table_size; i++)
        if (table[i]->name[0]) fprintf(out, "  %-10s %s\n", table[i]->name, table[i]->summary);
}

/* Whether a usage text lists the option: "--games" followed by a space, '=' or ','. */
static bool usage_lists(const char *usage, const char *option, size_t len)
{
    for (const char *at = strstr(usage, option); at; at = strstr(at + 1, option)) {
        char before = at == usage ? ' ' : at[-1];
        char after = at[len];
        if ((before == ' ' || before == '[' || before == ',') &&
            (after == ' ' || after == '=' || after == ',' || after == '\n' || after == ']'))
            return true;
    }
    return false;
}

/* An option this subcommand does not know: the nearest of its own, or the
 * subcommands that take it. */
static int unknown_option(const struct cli_parser *p, const char *word)
{
    size_t len = strcspn(word, "=");
    char option[64];
    snprintf(option, sizeof option, "%.*s", (int)(len < sizeof option ? len : sizeof option - 1), word);
    for (char *c = option; *c; c++)
        if (!isprint((unsigned char)*c)) *c = '?';        /* nothing raw reaches the terminal */
    const char *names[64];
    int n = 0;
    for (int i = 0; i < p->noptions && n < 60; i++) names[n++] = p->options[i].name;
    names[n++] = "--help";
    names[n++] = "--version";
    int near = nearest_of(option, names, n);
    if (near >= 0)
        return cli_usage_error(p->command, "unknown option '%s' (did you mean %s?)", option, names[near]);
    if (option[0] == '-' && option[1] == '-' && len == strlen(option)) {
        for (int i = 0; i < table_size; i++) {
            const struct subcommand *other = table[i];
            if (other == p->command || !usage_lists(other->usage, option, len)) continue;
            return cli_usage_error(p->command, "%s means nothing to mtref%s%s: it is an option of mtref%s%s", option,
                                   p->command->name[0] ? " " : "", p->command->name, other->name[0] ? " " : "",
                                   other->name);
        }
    }
    return cli_usage_error(p->command, "unknown option '%s'", option);
}

int cli_parser_next(struct cli_parser *p, const char **value, int *status)
{
    if (p->bundle && *p->bundle) {
        int index = short_flag(p, *p->bundle);
        snprintf(p->short_word, sizeof p->short_word, "-%c", *p->bundle++);
        p->word = p->short_word;
        *value = NULL;
        return index;                    /* checked whole when the bundle was met */
    }
    p->bundle = NULL;
    if (p->next >= p->argc) return CLI_END;
    const char *word = p->argv[p->next++];
    *value = word;
    if (p->operands_only || word[0] != '-' || strcmp(word, "-") == 0) return CLI_OPERAND;
    if (strcmp(word, "--") == 0) {
        p->operands_only = true;
        return cli_parser_next(p, value, status);
    }
    if (strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0) {
        cli_print_help(stdout, p->command);
        *status = fflush(stdout) == 0 ? 0 : 2;
        return CLI_EXIT;
    }
    if (strcmp(word, "-V") == 0 || strcmp(word, "--version") == 0) {
#ifdef MTREF_LIBEDIT
        printf("mtref %s (Lua %s, libedit)\n", MTREF_VERSION, luarules_version());
#else
        printf("mtref %s (Lua %s)\n", MTREF_VERSION, luarules_version());
#endif
        *status = fflush(stdout) == 0 ? 0 : 2;
        return CLI_EXIT;
    }
    p->word = word;
    /* "-kq": short flags together, as getopt reads them */
    if (word[1] != '-' && word[2] != '\0') {
        bool all = true;
        for (const char *c = word + 1; *c && all; c++) all = short_flag(p, *c) >= 0;
        if (all) {
            p->bundle = word + 1;
            return cli_parser_next(p, value, status);
        }
    }
    int index = find_option(p, word, value);
    if (index < 0) {
        size_t len = strcspn(word, "=");
        for (int i = 0; i < p->noptions; i++)
            if (word[len] == '=' && strlen(p->options[i].name) == len && strncmp(word, p->options[i].name, len) == 0) {
                *status = cli_usage_error(p->command, "%s takes no value: '%s'", p->options[i].name, word);
                return CLI_EXIT;
            }
        *status = unknown_option(p, word);
        return CLI_EXIT;
    }
    if (p->options[index].takes_value && !*value) {
        if (p->next >= p->argc) {
            *status = cli_usage_error(p->command, "%s needs a value", word);
            return CLI_EXIT;
        }
        *value = p->argv[p->next++];
    }
    return index;
}

bool cli_count_value(const struct cli_parser *p, const char *value, long long min, long long max,
                     long long *out, int *status)
{
    if (cli_parse_count(value, min, max, out)) return true;
    size_t len = p->word ? strcspn(p->word, "=") : 0;
    char shown[48];
    int cut = (int)strlen(value) > 40 ? 40 : (int)strlen(value);
    snprintf(shown, sizeof shown, "%.*s%s", cut, value, (int)strlen(value) > cut ? "..." : "");
    for (char *c = shown; *c; c++)
        if (!isprint((unsigned char)*c)) *c = '?';        /* nothing raw reaches the terminal */
    *status = cli_usage_error(p->command, "%.*s: '%s' is not a whole number from %lld to %lld", (int)len,
                              p->word ? p->word : "value", shown, min, max);
    return false;
}

bool cli_parse_count(const char *s, long long min, long long max, long long *out)
{
    if (!*s) return false;
    long long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        int d = *p - '0';
        if (v > (max - d) / 10) return false;      /* before it could overflow */
        v = v * 10 + d;
    }
    if (v < min) return false;
    *out = v;
    return true;
}

int cli_open_input(const char *path, int *fd)
{
    if (strcmp(path, "-") == 0) { *fd = 0; return 0; }
    *fd = open(path, O_RDONLY);
    if (*fd < 0) return errno;
    struct stat st;
    if (fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(*fd);
        return EISDIR;
    }
    return 0;
}
