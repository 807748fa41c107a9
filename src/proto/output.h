/* Output: responses and events -> text for people or JSON lines for programs
 * (the --json contract of protocol.md). Writes to the FILE it is given. */
#ifndef MTREF_OUTPUT_H
#define MTREF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "output_json.h"
#include "response.h"

enum output_mode { OUTPUT_TEXT, OUTPUT_JSON };

/* Writes the response to one line, then the events it caused. g is the game after
 * the line (read only). */
void output_response(FILE *out, enum output_mode mode, const struct game *g, const struct response *resp);

/* Whether output_response writes more than that one line for resp: anything but an
 * accepted line, or a verdict with events (keep in step with json_events and
 * text_events in output.c). Inline: the stream writer asks it of every line. */
static inline bool output_is_more_than_ok(const struct response *resp)
{
    const struct verdict *v = &resp->verdict;
    return resp->kind != RESPONSE_VERDICT || v->code != ERR_NONE || v->round_ended || v->neliminated > 0 ||
           v->match_ended;
}

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
