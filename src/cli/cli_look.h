/* What show, replay, diff and compare share: a record opened so that it can be walked
 * again and again, the words of a line, the --rules LIST of one side (diff, compare),
 * and the table at a point of a walk printed as text, JSON or a picture. */
#ifndef MTREF_CLI_LOOK_H
#define MTREF_CLI_LOOK_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "rules.h"
#include "walk.h"

/* Opens FILE ("-": stdin) so that it can be read from its start again: a pipe or a
 * terminal is first copied into an unnamed temporary file. 0, or an errno. */
int cli_open_record(const char *path, int *fd);

/* The line a command was read from, in the protocol's words, for people (control
 * bytes shown as '?'): "ana play 5-12 mex", "deal ana (15 tiles)". */
void cli_describe_command(const struct command *cmd, char *buf, size_t size);

/* Rules for one side of diff or compare: "a,b,c" or "canonical" (no file). Fills
 * files[0..*n) with pointers into storage (a copy of list, at most size bytes).
 * False when there are too many or a name is empty. */
bool cli_split_rules(const char *list, char *storage, size_t size, const char *files[], int *n);

/* The rules of one side of diff or compare, from a --rules LIST. */
#define CLI_RULES_LIST_SIZE 4096
struct cli_rules_side {
    char storage[CLI_RULES_LIST_SIZE];
    const char *files[RULES_MAX_FILES];     /* pointers into storage */
    int nfiles;
};

struct subcommand;

/* One --rules LIST of command: the first fills side a, the second side b; *nsides
 * counts them. 0, or 2 after a usage error (a third list, a bad list). */
int cli_rules_option(const struct subcommand *command, const char *value, struct cli_rules_side *a,
                     struct cli_rules_side *b, int *nsides);
/* After the options: with one list, that list is side b and side a the canonical rules. */
void cli_rules_sides_finish(struct cli_rules_side *a, struct cli_rules_side *b, int nsides);

/* The round numbers show --round and replay's "go to round" take: any a person may
 * type; one that no match of the record reaches is said to be so, not refused. */
#define CLI_ROUND_MAX 1000000
/* The line numbers show --at takes. */
#define CLI_LINE_MAX 1000000000000LL

/* How to print a table. */
struct cli_table_options {
    enum output_mode mode;
    const char *as;            /* a player's name: their view, or NULL */
    bool svg;                  /* a picture instead of mode */
};

/* Prints the table at a point of a walk (walk_visit's arguments) to out: text, the
 * JSON `show` object of the referee, or the SVG picture. The line's own verdict is
 * printed first when it was rejected (JSON) or always (text, picture notes). Returns 0,
 * or 2 with a message on stderr when --as names nobody at the table. */
int cli_print_table(FILE *out, const struct cli_table_options *o, const struct referee *ref,
                    const struct game *before, const struct response *resp);

#endif
