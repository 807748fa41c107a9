/* The command line: a table of subcommands, each with its own options, usage and run
 * function, and the small option parser they share. The only layer that picks
 * stdin, stdout and stderr and sets the exit status: the layers below write to the
 * FILEs they are handed (files of their own: selfplay --out, the journal, records and
 * logs of match, and the rules files the Lua bridge reads). */
#ifndef MTREF_CLI_H
#define MTREF_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "luarules.h"

#ifndef MTREF_VERSION
#define MTREF_VERSION "0.0.0"
#endif

#define CLI_MAX_OPERANDS 4096   /* files one command line may name */
#define CLI_PATH_SIZE 4096      /* room for a path the command line names */
/* The largest --seed of selfplay, compare and bot: eighteen nines, so that any seed
 * of at most 18 digits is taken and every one fits a long long. */
#define CLI_SEED_MAX 999999999999999999LL
#define CLI_BOT_CPU_MAX 1000000  /* seconds of CPU a bot process may be given */

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

extern const struct subcommand cli_referee, cli_check, cli_selfplay, cli_rules, cli_help;
extern const struct subcommand cli_match, cli_bot, cli_stats;
/* Looking at games: the table at a line, stepping through a record, two rule sets side by side. */
extern const struct subcommand cli_show, cli_replay, cli_diff, cli_compare;

/* The table of subcommands main runs from (not owned), for `mtref help`, the list in
 * `mtref --help` and the suggestions of option errors. main sets it first. */
void cli_set_subcommands(const struct subcommand *const *table, int n);
int cli_subcommand_count(void);
const struct subcommand *cli_subcommand_at(int i);
/* The subcommand called word, or NULL. */
const struct subcommand *cli_find_subcommand(const char *word);
/* Writes command's --help (and, for the referee, the list of subcommands) to out. */
void cli_print_help(FILE *out, const struct subcommand *command);

/* One option a subcommand takes: --name (or -c), with a value or not. */
struct cli_option {
    const char *name;       /* "--json" */
    char short_name;        /* 'k', or 0 */
    bool takes_value;
};

/* Walks argv[1..argc) of a subcommand: options as its table says (--name VALUE,
 * --name=VALUE, -c VALUE), operands (anything not starting with '-', "-" itself,
 * everything after "--"), and -h / --help, -V / --version. An unknown option is
 * refused with the nearest known one, or the subcommand it belongs to. */
struct cli_parser {
    int argc;
    char **argv;
    int next;
    bool operands_only;
    const struct cli_option *options;
    int noptions;
    const struct subcommand *command;
    const char *word;       /* the option word last met, as typed */
    const char *bundle;     /* the rest of "-kq" still to read, or NULL */
    char short_word[3];     /* "-q": the word of a flag read from a bundle */
};

enum {
    CLI_END = -1,          /* argv is done */
    CLI_OPERAND = -2,      /* *value is an operand */
    CLI_EXIT = -3,         /* --help, --version or an error was printed; exit with *status */
};

void cli_parser_init(struct cli_parser *p, int argc, char **argv, const struct subcommand *command,
                     const struct cli_option *options, int noptions);
/* cli_parser_init with the length of a static options array. */
#define CLI_PARSER_INIT(p, argc, argv, command, options) \
    cli_parser_init(p, argc, argv, command, options, (int)(sizeof(options) / sizeof((options)[0])))
/* The index of the option met (its value in *value when it takes one), or CLI_*. */
int cli_parser_next(struct cli_parser *p, const char **value, int *status);

/* Prints "mtref: " + the message + a pointer to --help on stderr; returns 2. */
int cli_usage_error(const struct subcommand *command, const char *fmt, ...);
/* The one FILE operand of command into *path: 0, or 2 after "give one FILE: 'x'"
 * when *path is already set. */
int cli_one_file(const struct subcommand *command, const char **path, const char *value);
/* A --rules FILE of the command: appended to list[0..*n); false after "too many --rules
 * files (at most 32)" with *status 2. */
bool cli_rules_value(const struct subcommand *command, const char *value, const char *list[], int *n, int *status);
/* A decimal count in [min, max], digits only; false otherwise. */
bool cli_parse_count(const char *s, long long min, long long max, long long *out);
/* The value of the option just met as a count in [min, max]; otherwise prints
 * "--games: 'x' is not a whole number from 0 to 1000000000" and returns false with
 * *status 2. */
bool cli_count_value(const struct cli_parser *p, const char *value, long long min, long long max,
                     long long *out, int *status);
/* Opens FILE ("-": stdin, fd 0) for reading; 0, or an errno (EISDIR for a directory). */
int cli_open_input(const char *path, int *fd);

#endif
