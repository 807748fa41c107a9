/* The referee at the table: a session read line by line from the keyboard (prompt,
 * line editing, help, undo, save) or from any input with --record or -q, and the
 * screen it writes to (colour, wrapping, the final table of a round). */
#ifndef MTREF_CLI_TABLE_H
#define MTREF_CLI_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "referee.h"

struct table_options {
    enum output_mode mode;
    bool keep_going;
    bool keyboard;                   /* stdin is a terminal: prompt, keyboard commands */
    bool quiet;                      /* -q: no answer for an accepted line (errors, events, queries stay) */
    const char *record_path;         /* --record FILE, or NULL */
    const char *const *rules_files;  /* --rules, not owned */
    int nrules;
    const char *name;                /* the input, for messages */
};

/* Referees fd (not closed) to stdout as the options say; the exit status of
 * protocol.md (2 also for a record that cannot be written). */
int cli_table_run(int fd, const struct table_options *o, const struct rules_loader *loader);

/* The screen: colour and wrapping for a terminal, nothing for anything else. */
struct screen {
    bool colour;                     /* a terminal, and NO_COLOR unset or empty */
    int width;                       /* wrap at this many columns; 0: never */
};
void cli_screen_init(struct screen *s, FILE *out);
/* Writes text (lines ending in \n) to out, each line wrapped with indentation and
 * coloured as its kind of line asks (errors, the player to act, marked trains, the
 * uncovered double, events). */
void cli_screen_write(const struct screen *s, FILE *out, const char *text, size_t len);
/* The prompt for the game's state: "ana to play> ", "set-up> ", ...; libedit's
 * markers around colour codes when colour is on. */
void cli_screen_prompt(const struct screen *s, const struct game *g, char *buf, size_t size);

#endif
