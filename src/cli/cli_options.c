/* The option parser the subcommands share, and small helpers for operands. */
#include "cli.h"

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

int cli_parser_next(struct cli_parser *p, const char **value, int *status)
{
    if (p->next >= p->argc) return CLI_END;
    const char *word = p->argv[p->next++];
    *value = word;
    if (p->operands_only || word[0] != '-' || strcmp(word, "-") == 0) return CLI_OPERAND;
    if (strcmp(word, "--") == 0) {
        p->operands_only = true;
        return cli_parser_next(p, value, status);
    }
    if (strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0) {
        fputs(p->command->usage, stdout);
        *status = 0;
        return CLI_EXIT;
    }
    if (strcmp(word, "--version") == 0) {
        printf("mtref %s (Lua %s)\n", MTREF_VERSION, luarules_version());
        *status = 0;
        return CLI_EXIT;
    }
    p->word = word;
    int index = find_option(p, word, value);
    if (index < 0) {
        *status = cli_usage_error(p->command, "bad option or value: '%s'", word);
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
