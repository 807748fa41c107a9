/* The variable points of the game: one structure that the canonical rules fill
 * (rules_init_canonical) and house-rule files change (the Lua bridge). The engine
 * reads only this; every point where a house rule plugs in is a field here. */
#ifndef MTREF_RULES_H
#define MTREF_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tile.h"

#define RULES_MAX_PLAYERS 16     /* the most any house rule may seat */
#define RULES_MAX_ROUNDS 63      /* largest value a `rounds N` line may ever take */
#define RULES_MESSAGE_SIZE 512   /* room for a hook's error message */
#define RULES_MAX_FILES 32       /* rules files one list may name */
/* Bounds of what a rules file may set: tile values and the out-on-double factor stay
 * small enough that a round's points (91 tiles, times the factor) and a match's
 * totals over thousands of rounds stay far inside int64_t. */
#define RULES_MAX_TILE_VALUE 1000000     /* tile values lie in -this..this */
#define RULES_MAX_FACTOR 1000            /* the out-on-double factor lies in 1..this */
/* Room for a rules file's name (NAME of NAME.lua) with its NUL: the session compares
 * names in buffers of this size and the Lua bridge keeps them so; one size for both. */
#define RULES_NAME_SIZE 256

struct game;

enum doubles_policy {
    DOUBLES_COVER_NOW,       /* [R14] the next play of the same player covers it */
    DOUBLES_ANYWHERE_LIFO,   /* doubles-anywhere: the turn goes on; queue, last played first */
    DOUBLES_ANYWHERE_FIFO,   /* the same, first played first */
};

enum draw_policy {
    DRAW_ONCE,               /* [R9] one draw per play */
    DRAW_UNTIL_PLAYABLE,     /* draw-until-playable */
};

enum scoring_policy {
    SCORING_PENALTY,         /* [R21] pips left in hand; lowest total wins */
    SCORING_POSITIVE,        /* positive-scoring: the winner of the round scores; highest wins */
};

/* What a round's scoring hook sees. */
struct round_outcome {
    int round;
    int nplayers;
    bool in_round[RULES_MAX_PLAYERS];   /* seated in this round (not eliminated) */
    int64_t hand_value[RULES_MAX_PLAYERS]; /* sum of tile values left in each hand */
    int out_seat;                       /* who went out, or -1 when blocked */
    bool out_on_double;                 /* the last tile played was a double */
};

/* The decisions of the engine a house rule may answer (besides may_play, the
 * engine, scoring and elimination hooks below). The engine works out the canonical
 * answer, and the hook, given it, returns the answer that stands:
 *   ASK_MAY_DRAW      bool  a player with no legal play may draw now [R9][R17]
 *   ASK_MAY_PASS      bool  the player to act may pass now [R10][R11]
 *   ASK_ANOTHER_PLAY  bool  the play just made gives the same player another play [R14]
 *   ASK_MUST_COVER    bool  the player to act owes the cover of an uncovered double [R15]
 *   ASK_DRAWABLE      count how many of the boneyard's tiles may be drawn (0..size) [R9][R10]
 *   ASK_BLOCKED       bool  at the end of a turn: the round is blocked [R20]
 *   ASK_MATCH_OVER    bool  after a round's points: the match ends [R3]
 *   ASK_WINNERS       mask  when the match ends: bit s set for each winning seat [R22]
 *   ASK_OPENER        seat  who opens the round, once the engine is laid [R4]
 *   ASK_LAY_ENGINE    bool  false: the engine is set aside before the deal [R5];
 *                           true: it is dealt and laid from its holder's hand */
enum rules_question {
    ASK_MAY_DRAW, ASK_MAY_PASS, ASK_ANOTHER_PLAY, ASK_MUST_COVER, ASK_DRAWABLE, ASK_BLOCKED,
    ASK_MATCH_OVER, ASK_WINNERS, ASK_OPENER, ASK_LAY_ENGINE, ASK_COUNT
};

/* Optional hooks into a house-rule script. Each returns 0 on success, or -1 after
 * writing a message ("file:line: what") into err (RULES_MESSAGE_SIZE bytes); the
 * engine then answers the move with a `rules` error. NULL means canonical. */
struct rules_hooks {
    void *ctx;
    /* The engine double's pip of round `round` (1, 2, ...); *pip holds the canonical
     * pip on entry. */
    int (*engine_pip)(void *ctx, const struct game *g, int round, int rounds, int *pip, char *err);
    /* Points of the round for each seat in the round; points[] holds the built-in
     * scoring on entry. */
    int (*round_points)(void *ctx, const struct game *g, const struct round_outcome *o, int64_t points[], char *err);
    /* Whether a seat with this total leaves the match after a round. */
    int (*eliminated)(void *ctx, const struct game *g, int seat, int64_t total, bool *out, char *err);
    /* A per-move veto: sets *allowed, and a reason into why when not allowed. */
    int (*may_play)(void *ctx, const struct game *g, int seat, tile_t tile, int train,
                    bool *allowed, char *why, char *err);
    /* A match begins under these rules (game_init, game_set_rules): the hooks' budget
     * per match starts afresh. */
    void (*match_begin)(void *ctx);
    /* A decision (see enum rules_question): *answer holds the canonical answer on entry
     * and the rules' answer on return. tile and train are the play just made
     * (ASK_ANOTHER_PLAY); for ASK_MAY_PASS, 1 or 0: whether the player can play, and
     * whether they must draw; else TILE_NONE and -1. Set only when asks[q] is true. */
    int (*ask)(void *ctx, const struct game *g, enum rules_question q, tile_t tile, int train,
               int64_t *answer, char *err);
    bool asks[ASK_COUNT];
    bool asks_per_move;      /* one of the turn's questions (may_draw .. blocked) is asked */
    bool at_round_end;       /* a hook is called when a round ends or starts (engine_pip,
                                round_points, eliminated, match_over .. lay_engine) */
};

struct rules {
    int max_pip;                               /* [R1] the set: double-max_pip, 12; 6..15 */
    tileset set_tiles;                         /* its tiles (rules_set_pips keeps the three in step) */
    int set_size;                              /* their count: 91 */
    int min_players, max_players;              /* [R2] 2..8 */
    int hand_size[RULES_MAX_PLAYERS + 1];      /* [R5] by players in the round */
    int tile_value[TILE_COUNT];                /* [R1][R21] penalty of each tile (of any set) */
    uint64_t rounds_allowed;                   /* [R3] bit r set: `rounds r` is accepted */
    int default_rounds;                        /* [R3] 13 */
    enum doubles_policy doubles;               /* [R14][R15] */
    enum draw_policy draw;                     /* [R9][R17] */
    bool first_turn_own_train;                 /* first turn of a round: own train only */
    const char *first_turn_by;                 /* the file that said so, for messages; not owned */
    const char *lay_engine_by;                 /* the file whose lay_engine hook is asked; not owned */
    bool marker_after_cover;                   /* owed cover made elsewhere also marks */
    enum scoring_policy scoring;               /* [R21][R22] */
    int out_on_double_factor;                  /* 1; 2 under double-out-doubles */
    struct rules_hooks hooks;
    const char *names;   /* rule files in force, "a, b"; NULL or "" for canonical; not owned */
    const char *const *file_names;   /* the same, one by one (nfile_names); not owned */
    int nfile_names;
};

/* Fills r with the canonical rules of rules.md. */
void rules_init_canonical(struct rules *r);

/* Chooses the set double-max_pip (TILE_SET_VALID): its tiles, their count. */
void rules_set_pips(struct rules *r, int max_pip);

/* Whether t is a tile of the set in force. */
static inline bool rules_has_tile(const struct rules *r, tile_t t) { return tileset_has(r->set_tiles, t); }

/* Checks that r is playable (sizes fit the set, ranges sane). Returns NULL when it is,
 * else a static message saying what is wrong. */
const char *rules_check(const struct rules *r);

/* Builds the rules of files[0..n), applied in order onto the canonical rules. On
 * success returns a handle that owns them, *rules pointing inside it; on failure
 * returns NULL with a message ("file:line: what") in err (RULES_MESSAGE_SIZE). */
struct rules_loader {
    void *ctx;
    void *(*load)(void *ctx, const char *const files[], int n, const struct rules **rules, char *err);
    void (*release)(void *ctx, void *handle);
};

/* The round counts r allows, largest first, as "13, 7 or 1" into buf (size bytes). */
void rules_format_rounds(const struct rules *r, char *buf, size_t size);

/* The rules file name a spelling stands for: "x", "x.lua" and "dir/x.lua" are all x.
 * Writes at most size bytes into out. */
void rules_file_name(const char *spelling, char *out, size_t size);

#endif
