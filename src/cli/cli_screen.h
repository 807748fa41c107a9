/* The screen at the table (cli_screen.c): colour and wrapping for a terminal, nothing
 * for anything else, and the prompt. Below the table that writes to it (cli_table.c). */
#ifndef MTREF_CLI_SCREEN_H
#define MTREF_CLI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct game;

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
