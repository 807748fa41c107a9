/* The command line: a table of subcommands, each with its own options, usage and run
 * function, and the small option parser they share. The only layer that touches
 * stdin, stdout, stderr and the exit status (files are also written by selfplay --out
 * and read by the Lua bridge). */
#ifndef MTREF_CLI_H
#define MTREF_CLI_H

#include <stdbool.h>

#include "luarules.h"

#ifndef MTREF_VERSION
#define MTREF_VERSION "0.0.0"
#endif

#define CLI_MAX_OPERANDS 4096   /* files one command line may name */
#define CLI_PATH_SIZE 4096      /* room for a path the command line names */

/* What every subcommand is handed: the Lua bridge (owned by main) and its loader. */
struct cli_env {
    struct luarules *lua;
    struct rules_loader loader;
};

struct subcommand {
    const char *name;       /* the word after mtref; "" for the referee itself */
    const char *summary;    /* one line for mtref --help */
    const char *usage;      /* the whole --help text of the subcommand */
    /* argv[0] is the subcommand's name (or "mtref"); returns the exit status */
    int (*run)(int argc, char **argv, const struct cli_env *env);
};

extern const struct subcommand cli_referee, cli_check, cli_selfplay, cli_rules;
extern const struct subcommand cli_match, cli_bot, cli_stats;

/* One option a subcommand takes: --name (or -c), with a value or not. */
struct cli_option {
    const char *name;       /* "--json" */
    char short_name;        /* 'k', or 0 */
    bool takes_value;
};

/* Walks argv[1..argc) of a subcommand: options as its table says (--name VALUE and
 * --name=VALUE), operands (anything not starting with '-', "-" itself, everything after
 * "--"), and --help / -h, --version. */
struct cli_parser {
    int argc;
    char **argv;
    int next;
    bool operands_only;
    const struct cli_option *options;
    int noptions;
    const struct subcommand *command;
    const char *word;       /* the option word last met, as typed */
};

enum {
    CLI_END = -1,          /* argv is done */
    CLI_OPERAND = -2,      /* *value is an operand */
    CLI_EXIT = -3,         /* --help, --version or an error was printed; exit with *status */
};

void cli_parser_init(struct cli_parser *p, int argc, char **argv, const struct subcommand *command,
                     const struct cli_option *options, int noptions);
/* The index of the option met (its value in *value when it takes one), or CLI_*. */
int cli_parser_next(struct cli_parser *p, const char **value, int *status);

/* Prints "mtref: " + the message + a pointer to --help on stderr; returns 2. */
int cli_usage_error(const struct subcommand *command, const char *fmt, ...);
/* A decimal count in [min, max], digits only; false otherwise. */
bool cli_parse_count(const char *s, long long min, long long max, long long *out);
/* Opens FILE ("-": stdin, fd 0) for reading; 0, or an errno (EISDIR for a directory). */
int cli_open_input(const char *path, int *fd);

#endif
