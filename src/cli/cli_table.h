/* The referee at the table: a session read line by line from the keyboard (prompt,
 * line editing, help, undo, save) or from any input with --record or -q, written to
 * the screen of cli_screen.h (colour, wrapping, the final table of a round). */
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

#endif
