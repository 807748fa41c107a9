/* Output, the fast JSON forms (output_json.c): the answer to an accepted line and
 * the events of a verdict, formatted into a small buffer without printf. output.h
 * includes this header; output.c and the stream writer use it. */
#ifndef MTREF_OUTPUT_JSON_H
#define MTREF_OUTPUT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

/* {"line":N,"ok":true} or with "drew":"A-B" (drew is TILE_NONE otherwise), and a newline:
 * the whole --json answer to an accepted line whose verdict has no events. _format
 * writes it into buf (OUTPUT_JSON_OK_MAX bytes) and returns its length. */
#define OUTPUT_JSON_OK_MAX 64
void output_json_ok(FILE *out, long line, tile_t drew);
size_t output_json_ok_format(char *buf, long line, tile_t drew);
/* The same, for a writer of many answers: the line number's digits are kept, and the
 * next line's (one more, nearly always) made by counting up in place. */
struct output_json_lines {
    long line;                  /* the number text holds; -1 before the first */
    size_t len;
    char text[24];
    /* ,"drew":"A-B" of each tile (at drew + 1; none at 0), so that a line's drawn tile
     * or its absence is a copy, not a jump on data that goes both ways at random */
    struct { char text[16]; size_t len; } drew[TILE_COUNT + 1];
};
void output_json_lines_init(struct output_json_lines *l);
/* The slow ways of output_json_ok_format_next, out of line: l made line's digits (a
 * carry past a 9, or a number that does not follow l's), and the rest of an answer
 * from buf[n] on (after the line number) for a line that drew a tile. */
void output_json_lines_set(struct output_json_lines *l, long line);
size_t output_json_ok_tail(char *buf, size_t n, tile_t drew);
/* Inline, as it is nearly every line `mtref --json` writes. */
static inline size_t output_json_ok_format_next(char *buf, struct output_json_lines *l, long line, tile_t drew)
{
    static const char head[8] = {'{', '"', 'l', 'i', 'n', 'e', '"', ':'};
    static const char tail[12] = {',', '"', 'o', 'k', '"', ':', 't', 'r', 'u', 'e', '}', '\n'};
    if (line < 0) return output_json_ok_format(buf, line, drew);
    /* the usual line follows the last: its last digit steps, unless it is a 9. The
     * digits are copied before that byte is stored, in l and in buf alike: a wide
     * load of bytes just stored one by one waits for the store (no forwarding). */
    bool step = line == l->line + 1 && l->line >= 0 && l->text[l->len - 1] != '9';
    if (!step) output_json_lines_set(l, line);
    memcpy(buf, head, sizeof head);
    memcpy(buf + sizeof head, l->text, 20);    /* a fixed size: one move, not a call */
    size_t n = sizeof head + l->len;
    if (step) {
        char digit = (char)(l->text[l->len - 1] + 1);
        l->text[l->len - 1] = digit;
        buf[n - 1] = digit;
        l->line = line;
    }
    if (!TILE_VALID(drew) && drew != TILE_NONE) return output_json_ok_tail(buf, n, drew);
    memcpy(buf + n, tail, sizeof tail);           /* ,"ok":true}\n, the brace and newline moved on */
    memcpy(buf + n + 10, l->drew[drew + 1].text, sizeof l->drew[0].text);
    n += 10 + l->drew[drew + 1].len;
    buf[n] = '}';
    buf[n + 1] = '\n';
    return n + 2;
}

/* The events of an accepted verdict v (round_end, eliminated, match_end), the JSON
 * lines output_response writes after its ok line, into buf (size bytes): returns
 * their length, or 0 when they do not fit or need escaping (then output_response
 * writes them). g is the game after the line. */
#define OUTPUT_JSON_EVENTS_ROOM 8192      /* enough for any table a rules file seats */
size_t output_json_events_format(char *buf, size_t size, const struct game *g, const struct verdict *v);

#endif
