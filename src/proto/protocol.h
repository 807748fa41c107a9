/* The protocol reader's grammar: one line of text -> one command, or a syntax error.
 * Knows the lexical rules of protocol.md (tokens, tiles, names, numbers, UTF-8),
 * nothing of the game. */
#ifndef MTREF_PROTOCOL_H
#define MTREF_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "tile.h"

#define PROTOCOL_LINE_MAX 4096          /* bytes, without the line ending */
#define PROTOCOL_MAX_ITEMS (PROTOCOL_LINE_MAX / 2 + 1)   /* tokens a line can hold */

enum command_kind {
    CMD_NONE,        /* blank or comment-only: no response */
    CMD_PLAYERS, CMD_RULES, CMD_ROUNDS, CMD_SEED, CMD_ROUND,
    CMD_DEAL, CMD_PLAY, CMD_DRAW, CMD_PASS, CMD_SHOW, CMD_LEGAL,
};

/* A slice of the line the command was parsed from: valid while that line is. */
struct token {
    const char *text;
    int len;
};

struct command {
    enum command_kind kind;
    struct token actor;          /* deal, play, draw, pass: the player named; show: NAME or len 0 */
    struct token train;          /* play: a player's name or "mex" */
    bool train_is_mex;
    tile_t tile;                 /* play; draw (TILE_NONE when bare) */
    long long number;            /* rounds, round, players N (count form) */
    uint64_t seed;
    int count;                   /* players names, rules files, deal tiles */
    struct token items[PROTOCOL_MAX_ITEMS];   /* players names, rules files */
    tile_t tiles[PROTOCOL_MAX_ITEMS];         /* deal tiles, as read */
    tileset hand;                /* deal, from protocol_parse_deal_shape only: the tiles' set */
};

/* Parses line[0..len) (no line ending) into cmd. Returns true on success; on a
 * syntax error returns false and writes a message into err (errsize bytes).
 * Checks NUL bytes, UTF-8 (overlong forms and surrogates are invalid) and length
 * over the whole line, comments included. */
bool protocol_parse(const char *line, size_t len, struct command *cmd, char *err, size_t errsize);
/* The same for the set double-max_pip (rules.h, max_pip): a tile with a pip above it is a
 * syntax error that names the set. protocol_parse reads the canonical double-twelve. */
bool protocol_parse_set(const char *line, size_t len, int max_pip, struct command *cmd, char *err, size_t errsize);

/* protocol_parse_set for a line known to start with a valid player name of name_len
 * bytes (a seated player's): true when it is one of the move shapes records are
 * written in (`NAME play A-B TRAIN`, `NAME draw [A-B]`, `NAME pass`, single spaces),
 * with cmd as protocol_parse_set fills it, except that the train of a play is the
 * rest of the line, not checked to be a name: the caller takes the line only when
 * cmd->train_is_mex or the train is a seated player's name (a valid name), and asks
 * protocol_parse_set otherwise. false means only "ask protocol_parse_set". */
bool protocol_parse_move_shape(const char *line, size_t len, size_t name_len, int max_pip, struct command *cmd);

/* protocol_parse_set for a `deal NAME A-B ...` line spelled as records write it
 * (single spaces, no comment, at most PROTOCOL_MAX_ITEMS tiles of double-max_pip):
 * true with cmd as protocol_parse_set fills it, and cmd->hand the set of the tiles
 * (for game_deal_hand); false means only "ask protocol_parse_set". */
bool protocol_parse_deal_shape(const char *line, size_t len, int max_pip, struct command *cmd);

/* Whether text is a valid player name: [A-Za-z][A-Za-z0-9_]{0,15}, not a keyword or mex. */
bool protocol_is_name(const char *text, size_t len);

/* Whether the bytes are well-formed UTF-8. */
bool protocol_utf8_valid(const char *text, size_t len);

#endif
