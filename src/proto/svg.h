/* The table as a picture: one SVG drawing of a game state, dominoes drawn with their
 * pips. Pure formatting: a game in, text out; no fonts or bitmaps are embedded, so a
 * picture stays a few kilobytes and opens in any browser. */
#ifndef MTREF_SVG_H
#define MTREF_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"

#define SVG_NOTES 4

struct svg_options {
    int as_seat;                /* -1: every hand face up; else only this seat's */
    long line;                  /* the record line the table stands after; 0: none */
    tile_t highlight;           /* a tile in a hand to ring (the one being played), or TILE_NONE */
    int highlight_seat;
    bool round_over;            /* the table as a round ended: nobody is to play */
    const char *notes[SVG_NOTES];   /* lines of text under the title (escaped here); NULL ends */
};

/* Options that draw every hand face up, with no line, highlight or notes. */
void svg_options_default(struct svg_options *o);

/* Whether the picture shows seat's hand face up: every hand, or only the viewer's.
 * What a viewer's picture shows of the hands comes from the engine's per-seat view
 * (view_of): the other hands' sizes, and the viewer's own tiles. */
bool svg_hand_visible(const struct game *g, const struct svg_options *o, int seat);

/* Writes the drawing of g (read only; a snapshot with its round dealt, see
 * game_snapshot) as a complete SVG document to out. Byte for byte the same for the
 * same game and options. */
void svg_write(FILE *out, const struct game *g, const struct svg_options *o);

/* Writes s with XML's special characters escaped, control bytes as '?', and invalid
 * UTF-8 as U+FFFD: safe inside an element or a quoted attribute. */
void svg_escape(FILE *out, const char *s);

#endif
