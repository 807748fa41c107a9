/* Output: responses and events -> text for people or JSON lines for programs
 * (the --json contract of protocol.md). Writes to the FILE it is given. */
#ifndef MTREF_OUTPUT_H
#define MTREF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "response.h"

enum output_mode { OUTPUT_TEXT, OUTPUT_JSON };

/* Writes the response to one line, then the events it caused. g is the game after
 * the line (read only). */
void output_response(FILE *out, enum output_mode mode, const struct game *g, const struct response *resp);

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
};
void output_json_lines_init(struct output_json_lines *l);
size_t output_json_ok_format_next(char *buf, struct output_json_lines *l, long line, tile_t drew);
/* Whether output_response writes more than that one line for resp: anything but an
 * accepted line, or a verdict with events. */
bool output_is_more_than_ok(const struct response *resp);

/* The events of an accepted verdict v (round_end, eliminated, match_end), the JSON
 * lines output_response writes after its ok line, into buf (size bytes): returns
 * their length, or 0 when they do not fit or need escaping (then output_response
 * writes them). g is the game after the line. */
#define OUTPUT_JSON_EVENTS_ROOM 8192      /* enough for any table a rules file seats */
size_t output_json_events_format(char *buf, size_t size, const struct game *g, const struct verdict *v);

/* Writes s as a JSON string (quotes included); invalid UTF-8 becomes U+FFFD. */
void output_json_string(FILE *out, const char *s);

/* "ana play 12-5 mex", "ana draw", "ana pass" into buf (OUTPUT_MOVE_SIZE bytes). */
#define OUTPUT_MOVE_SIZE 48
void output_format_move(const struct game *g, const struct move *m, char *buf);

/* The end of a match, for match_end and check --json alike: "totals":{...},
 * "winners":[...],"draw":BOOL, without braces; v is the verdict that ended it. */
void output_json_result(FILE *out, const struct game *g, const struct verdict *v);
/* The winners in seat order, joined by " and ", then " wins" or " draw". */
void output_text_winners(FILE *out, const struct game *g, const struct verdict *v);

/* The totals of a finished match as "40-61-70" (winner first, then seat order). */
void output_score_line(const struct game *g, const struct verdict *v, char *buf, size_t size);

#endif
