/* The bot protocol, version 1 (mtref-bot(7)): the referee's messages to a bot, composed
 * per seat from the game and its private view, in text lines or JSON lines, and the
 * parser of a bot's answers (match_answer.c). Nothing here does I/O: messages go into
 * a growing buffer the caller writes to a pipe, answers come in as assembled lines. */
#ifndef MTREF_MATCH_PROTO_H
#define MTREF_MATCH_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "verdict.h"

#define MATCH_PROTO_VERSION 1

enum proto_form { PROTO_TEXT, PROTO_JSON };

/* A growing text buffer; failed is set (and nothing more appended) when memory runs out. */
struct mbuf {
    char *data;
    size_t len, cap;
    bool failed;
};
void mbuf_free(struct mbuf *b);
void mbuf_put(struct mbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mbuf_bytes(struct mbuf *b, const char *data, size_t len);
/* n in decimal, a tile ("3-12"), a move's record line without a drawn tile
 * ("ana play 3-12 mex", "ana draw"), without printf: these are the hot parts of
 * every message and record line. */
void mbuf_num(struct mbuf *b, long long n);
void mbuf_tile(struct mbuf *b, tile_t t);
void mbuf_move(struct mbuf *b, const struct game *g, const struct move *m);
/* s as a JSON string, quotes included; bytes that are not valid UTF-8 become U+FFFD. */
void mbuf_json_string(struct mbuf *b, const char *s, size_t len);

/* What a seat is told about the match at its start. */
struct proto_match {
    const char *id;                  /* opaque, unrelated to the deal */
    int seat;
    const char *const *rules;        /* rule names in force (NULL-terminated list, may be empty) */
    int64_t move_ms, bank_ms;        /* < 0: no limit */
};

/* Referee -> bot messages; each appends whole lines ("\n"-terminated). */
void proto_hello(struct mbuf *b, enum proto_form f);
void proto_match(struct mbuf *b, enum proto_form f, const struct game *g, const struct proto_match *m);
/* Round start, after the deal: engine, who opens, the seat's hand, sizes, boneyard. */
void proto_round(struct mbuf *b, enum proto_form f, const struct game *g, int seat);
/* A move everyone sees: the record line, a draw without its tile. */
void proto_move(struct mbuf *b, enum proto_form f, const struct game *g, const struct move *m);
/* The drawn tile, to its drawer only. */
void proto_drew(struct mbuf *b, enum proto_form f, tile_t tile);
/* The engine laid from the hand of g->engine_from (a house rule): to every bot, as
 * the tile leaves a hand without a move of its holder. */
void proto_engine_laid(struct mbuf *b, enum proto_form f, const struct game *g);
/* The events a move caused: round_end with every hand's leftover tiles (hands_left:
 * the hands when the round ended), eliminated, match_end. */
void proto_events(struct mbuf *b, enum proto_form f, const struct game *g, const struct verdict *v,
                  const tileset hands_left[]);
/* A decision: the seat's view, its legal actions, then go. */
void proto_decision(struct mbuf *b, enum proto_form f, const struct game *g, int seat, const struct move *legal,
                    int nlegal, long id, int64_t move_ms, int64_t bank_ms);
/* The bot has forfeited the match (best effort, before it is shut down). */
void proto_retired(struct mbuf *b, enum proto_form f, const char *kind, const char *detail);
void proto_bye(struct mbuf *b, enum proto_form f);

/* A bot's line, parsed. */
enum answer_kind {
    ANSWER_BLANK,        /* empty or spaces: ignored */
    ANSWER_COMMENT,      /* starts with '#': logged, never an answer */
    ANSWER_HELLO,        /* hello VERSION [free text] */
    ANSWER_MOVE,         /* [ID] [SEAT] play A-B TRAIN | draw | pass */
    ANSWER_GARBLED,      /* anything else: why says what */
};
struct bot_answer {
    enum answer_kind kind;
    long version;                        /* hello */
    long long id;                        /* move: the decision id echoed, or -1 */
    char seat[GAME_NAME_MAX_LEN + 1];         /* move: the seat named, or "" */
    enum move_kind action;
    tile_t tile;                         /* play */
    char train[GAME_NAME_MAX_LEN + 1];        /* play: a player's name or "mex" */
    char why[120];                       /* garbled */
};
/* Parses one line (no line ending) of a text or JSON bot. A JSON bot may also send a
 * text line. NUL bytes, invalid UTF-8, unknown words, bad tiles and a named draw are
 * ANSWER_GARBLED. Never reads past len. */
void proto_parse_answer(const char *line, size_t len, enum proto_form f, struct bot_answer *a);

/* The move an ANSWER_MOVE stands for at g (the seat to act when it names none).
 * Returns false with v set (unknown-player [R2]) when a name is not at the table;
 * the engine judges the rest. */
bool proto_answer_move(const struct game *g, const struct bot_answer *a, struct move *m, struct verdict *v);

#endif
