/* A refereeing session: lines in, responses out, precedence of protocol.md. */
#include "referee.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static char *copy_text(const char *s, size_t len)
{
    char *p = mt_malloc(len + 1);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static void release(struct referee *ref, void **handle)
{
    if (*handle && ref->loader.release) ref->loader.release(ref->loader.ctx, *handle);
    *handle = NULL;
}

static void free_files(char **files, int *n)
{
    for (int i = 0; i < *n; i++) free(files[i]);
    *n = 0;
}

/* Loads match files then cli files; returns the handle or NULL with err set. */
static void *load_rules(struct referee *ref, char *const match_files[], int nmatch,
                        const struct rules **rules, char *err)
{
    const char *files[2 * RULES_MAX_FILES];
    int n = 0;
    for (int i = 0; i < nmatch; i++) files[n++] = match_files[i];
    for (int i = 0; i < ref->ncli_files; i++) files[n++] = ref->cli_files[i];
    if (n == 0) {
        *rules = &ref->canonical;
        return NULL;
    }
    if (!ref->loader.load) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: house rules are not available in this build", files[0]);
        return NULL;
    }
    return ref->loader.load(ref->loader.ctx, files, n, rules, err);
}

bool referee_init(struct referee *ref, const struct rules_loader *loader,
                  const char *const cli_files[], int n, char *err)
{
    memset(ref, 0, sizeof *ref);
    rules_init_canonical(&ref->canonical);
    ref->loader = *loader;
    ref->cli_rules = &ref->canonical;
    game_init(&ref->game, ref->cli_rules);
    if (n > RULES_MAX_FILES) {
        snprintf(err, RULES_MESSAGE_SIZE, "at most %d rules files", RULES_MAX_FILES);
        return false;
    }
    for (int i = 0; i < n; i++) {
        char *copy = copy_text(cli_files[i], strlen(cli_files[i]));
        if (!copy) {
            snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
            return false;
        }
        ref->cli_files[ref->ncli_files++] = copy;
    }
    if (n > 0) {
        const struct rules *rules = 0;
        ref->cli_handle = load_rules(ref, 0, 0, &rules, err);
        if (!ref->cli_handle) return false;
        ref->cli_rules = rules;
        game_init(&ref->game, rules);
    }
    return true;
}

void referee_free(struct referee *ref)
{
    if (!ref) return;
    release(ref, &ref->match_handle);
    release(ref, &ref->cli_handle);
    free_files(ref->match_files, &ref->nmatch_files);
    free_files(ref->cli_files, &ref->ncli_files);
}

static void new_match(struct referee *ref)
{
    release(ref, &ref->match_handle);
    free_files(ref->match_files, &ref->nmatch_files);
    game_init(&ref->game, ref->cli_rules);
}

/* `rules FILE...` during set-up: the match's files grow, the whole list reloads. */
static void add_rules(struct referee *ref, const struct command *cmd, struct verdict *v)
{
    char *files[RULES_MAX_FILES];
    int n = ref->nmatch_files, added = 0;
    memcpy(files, ref->match_files, (size_t)n * sizeof files[0]);
    for (int i = 0; i < cmd->count; i++) {
        char name[RULES_NAME_SIZE], other[RULES_NAME_SIZE];
        char *spelled = copy_text(cmd->items[i].text, (size_t)cmd->items[i].len);
        if (!spelled) { verdict_fail(v, ERR_RULES, 0, "out of memory"); goto undo; }
        rules_file_name(spelled, name, sizeof name);
        bool seen = false;
        for (int j = 0; j < n && !seen; j++) {
            rules_file_name(files[j], other, sizeof other);
            seen = strcmp(name, other) == 0;
        }
        if (seen) { free(spelled); continue; }     /* naming a file twice counts once */
        if (n == RULES_MAX_FILES) {
            free(spelled);
            verdict_fail(v, ERR_RULES, 0, "at most %d rules files", RULES_MAX_FILES);
            goto undo;
        }
        files[n++] = spelled;
        added++;
    }
    if (added == 0) { verdict_reset(v); return; }
    const struct rules *rules = 0;
    char err[RULES_MESSAGE_SIZE] = "";
    void *handle = load_rules(ref, files, n, &rules, err);
    if (!handle) {
        verdict_fail(v, ERR_RULES, 0, "%s", err);
        goto undo;
    }
    game_set_rules(&ref->game, rules, v);
    if (v->code != ERR_NONE) {
        release(ref, &handle);
        goto undo;
    }
    release(ref, &ref->match_handle);      /* only now: the game no longer reads them */
    ref->match_handle = handle;
    memcpy(ref->match_files, files, (size_t)n * sizeof files[0]);
    ref->nmatch_files = n;
    return;
undo:
    for (int i = ref->nmatch_files; i < ref->nmatch_files + added; i++) free(files[i]);
}

static void set_players(struct game *g, const struct command *cmd, struct verdict *v)
{
    char generated[RULES_MAX_PLAYERS][8];
    char spelled[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];
    const char *names[RULES_MAX_PLAYERS];
    int n = (int)cmd->number;
    if (cmd->count == 0) {               /* players N -> p1..pN */
        if (n > RULES_MAX_PLAYERS) n = RULES_MAX_PLAYERS + 1;
        for (int i = 0; i < n && i < RULES_MAX_PLAYERS; i++) {
            snprintf(generated[i], sizeof generated[i], "p%d", i + 1);
            names[i] = generated[i];
        }
    } else {
        for (int i = 0; i < n; i++) {
            snprintf(spelled[i], sizeof spelled[i], "%.*s", cmd->items[i].len, cmd->items[i].text);
            names[i] = spelled[i];
        }
    }
    game_set_players(g, n, names, v);
}

/* Names are a few bytes long: compared in line, the player to act first (the actor of
 * nearly every line), then the other seats. */
static inline bool seat_named(const char *stored, struct token name)
{
    if (name.len > GAME_NAME_MAX_LEN || stored[name.len] != '\0') return false;
    for (int i = 0; i < name.len; i++)
        if (stored[i] != name.text[i]) return false;
    return true;
}

static int find_seat(const struct game *g, struct token name)
{
    if (g->nplayers && seat_named(g->names[g->turn], name)) return g->turn;
    for (int s = 0; s < g->nplayers; s++)
        if (seat_named(g->names[s], name)) return s;
    return -1;
}

static int seat_of(const struct referee *ref, struct token name, struct verdict *v)
{
    int seat = find_seat(&ref->game, name);
    if (seat < 0)
        verdict_fail(v, ERR_UNKNOWN_PLAYER, "R2", "%.*s is not at the table", name.len, name.text);
    return seat;
}

static void setup_command(struct referee *ref, const struct command *cmd, struct verdict *v)
{
    static const char *const words[] = {
        [CMD_PLAYERS] = "players", [CMD_RULES] = "rules", [CMD_ROUNDS] = "rounds", [CMD_SEED] = "seed",
    };
    bool over = game_is_over(&ref->game);
    if (over && cmd->kind != CMD_PLAYERS && cmd->kind != CMD_RULES) {
        verdict_fail(v, ERR_GAME_OVER, "R24", "the match is over: a players line starts the next");
        return;
    }
    if (!over && !game_setup_open(&ref->game)) {
        verdict_fail(v, ERR_SETUP_CLOSED, 0, "%s: set-up is closed once play began", words[cmd->kind]);
        return;
    }
    if (over && cmd->kind == CMD_RULES) {
        /* rules after a match: a fresh match under the --rules and these files; a line
         * that fails leaves the ended match as it was */
        struct game ended = ref->game;
        void *ended_handle = ref->match_handle;
        char *ended_files[RULES_MAX_FILES];
        int nended = ref->nmatch_files;
        memcpy(ended_files, ref->match_files, (size_t)nended * sizeof ended_files[0]);
        ref->match_handle = NULL;
        ref->nmatch_files = 0;
        game_init(&ref->game, ref->cli_rules);
        add_rules(ref, cmd, v);
        if (v->code != ERR_NONE) {
            release(ref, &ref->match_handle);
            free_files(ref->match_files, &ref->nmatch_files);
            ref->game = ended;
            ref->match_handle = ended_handle;
            memcpy(ref->match_files, ended_files, (size_t)nended * sizeof ended_files[0]);
            ref->nmatch_files = nended;
            return;
        }
        release(ref, &ended_handle);
        free_files(ended_files, &nended);
        ref->match_touched = true;
        return;
    }
    if (over) {
        /* players after a match: a fresh match under the --rules alone */
        struct game fresh;
        game_init(&fresh, ref->cli_rules);
        set_players(&fresh, cmd, v);
        if (v->code != ERR_NONE) return;
        new_match(ref);
        ref->game = fresh;
        ref->match_touched = true;
        return;
    }
    ref->match_touched = true;
    switch (cmd->kind) {
    case CMD_PLAYERS: set_players(&ref->game, cmd, v); break;
    case CMD_RULES: add_rules(ref, cmd, v); break;
    case CMD_ROUNDS: game_set_rounds(&ref->game, (int)cmd->number, v); break;   /* <= RULES_MAX_ROUNDS: checked */
    default: game_set_seed(&ref->game, cmd->seed, v); break;
    }
}

/* Syntax errors of set-up values (a table the rules do not seat, a name given twice,
 * rounds the rules refuse) and a bare draw without a seed: checked before anything
 * else, game-over and setup-closed included, as syntax comes first. */
static bool syntax_in_context(struct referee *ref, const struct command *cmd, struct verdict *v)
{
    const struct rules *r = game_is_over(&ref->game) ? ref->cli_rules : ref->game.rules;
    if (cmd->kind == CMD_PLAYERS && (cmd->number < r->min_players || cmd->number > r->max_players)) {
        verdict_fail(v, ERR_SYNTAX, "R2", "%lld players: the table seats %d to %d",
                     cmd->number, r->min_players, r->max_players);
        return false;
    }
    for (int i = 0; cmd->kind == CMD_PLAYERS && i < cmd->count; i++)
        for (int j = 0; j < i; j++)
            if (cmd->items[i].len == cmd->items[j].len &&
                memcmp(cmd->items[i].text, cmd->items[j].text, (size_t)cmd->items[i].len) == 0) {
                verdict_fail(v, ERR_SYNTAX, "R2", "%.*s is named twice", cmd->items[i].len, cmd->items[i].text);
                return false;
            }
    if (cmd->kind == CMD_ROUNDS && (cmd->number < 1 || cmd->number > RULES_MAX_ROUNDS ||
                                    !((ref->game.rules->rounds_allowed >> cmd->number) & 1))) {
        char allowed[200];
        rules_format_rounds(ref->game.rules, allowed, sizeof allowed);
        verdict_fail(v, ERR_SYNTAX, "R3", "a match cannot have %lld rounds under these rules: %s", cmd->number,
                     allowed);
        return false;
    }
    if (cmd->kind == CMD_DRAW && cmd->tile == TILE_NONE && !ref->game.seeded) {
        verdict_fail(v, ERR_SYNTAX, "R23", "draw must name the tile: this match has no seed");
        return false;
    }
    return true;
}

/* An accepted move touches the match; one that ends it closes it for the counts. */
static void note_move(struct referee *ref, const struct verdict *v)
{
    if (v->code != ERR_NONE) return;
    ref->match_touched = !v->match_ended;
    if (v->match_ended) ref->matches_ended++;
}

static void move_command(struct referee *ref, const struct command *cmd, struct verdict *v)
{
    struct game *g = &ref->game;
    if (game_is_over(g)) {
        verdict_fail(v, ERR_GAME_OVER, "R24", "the match is over");
        return;
    }
    if (cmd->kind == CMD_ROUND) {
        game_assert_round(g, cmd->number, v);
        return;
    }
    int seat = seat_of(ref, cmd->actor, v);
    if (seat < 0) return;
    if (cmd->kind == CMD_DEAL) {
        game_deal(g, seat, cmd->tiles, cmd->count, v);
        if (v->code == ERR_NONE) ref->match_touched = true;
        return;
    }
    struct move m = {MOVE_PASS, seat, cmd->tile, 0};
    if (cmd->kind == CMD_PLAY) {
        m.kind = MOVE_PLAY;
        /* a play on one's own train names the actor twice: no second lookup */
        bool own = cmd->train.len == cmd->actor.len;
        for (int i = 0; own && i < cmd->actor.len; i++) own = cmd->train.text[i] == cmd->actor.text[i];
        m.train = cmd->train_is_mex ? TRAIN_MEX : own ? seat : seat_of(ref, cmd->train, v);
        if (m.train < 0) return;
    } else if (cmd->kind == CMD_DRAW) {
        m.kind = MOVE_DRAW;
    }
    game_move(g, &m, v);
    note_move(ref, v);
}

/* The moves of the player to act, on the table as the referee would deal it. */
static int legal_moves(const struct referee *ref, struct response *resp, struct verdict *v)
{
    if (game_is_over(&ref->game) || ref->game.nplayers == 0) return 0;
    struct game snap;
    game_snapshot(&ref->game, &snap);
    return game_legal_moves_checked(&snap, resp->legal, GAME_MAX_LEGAL, v);
}

/* `legal`: a query, but a per-move hook that fails while answering it is reported. */
static void list_legal(const struct referee *ref, struct response *resp)
{
    int n = legal_moves(ref, resp, &resp->verdict);
    resp->kind = n < 0 ? RESPONSE_VERDICT : RESPONSE_LEGAL;
    resp->nlegal = n < 0 ? 0 : n;
}

static void handle_line(struct referee *ref, const char *text, size_t len, bool too_long, long number,
                        struct response *resp);

/* --- names as words -------------------------------------------------------------
 * A seat's name is stored zero-padded (game_set_players copies it with strncpy), so
 * its first 8 bytes, read as one number, equal the first n bytes of a line read the
 * same way and cut to n bytes exactly when the name is those n bytes and no longer.
 * A NUL among the line's bytes would match the padding: a name of exactly n bytes
 * (its byte n-1 not NUL) rules that out. Any other spelling of a name makes a compare
 * fail, and the line goes to the grammar. */

static inline uint64_t load8(const void *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t load4_wide(const void *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
/* the first 8 bytes of p[0..len) (len >= 4), zeros after the line when it is shorter:
 * two 4-byte loads, the second at p + 4 for a long line, so no jump on the length */
static inline uint64_t load_head(const char *p, size_t len)
{
    size_t n = len < 8 ? len : 8;
    return load4_wide(p) << 32 | load4_wide(p + n - 4) << (8 * (8 - n));
}
/* the last n (1..8) bytes of p[0..len) (len >= 8), then zeros */
static inline uint64_t load_last(const char *p, size_t len, size_t n) { return load8(p + len - 8) << (8 * (8 - n)); }
/* the first byte, in memory order, that is not zero (w is not 0) */
static inline size_t first_nonzero(uint64_t w) { return (size_t)__builtin_clzll(w) / 8; }
static inline unsigned byte_at(uint64_t w, size_t i) { return (unsigned)(w >> (56 - 8 * i)) & 0xFF; }
#else
static inline uint64_t load_head(const char *p, size_t len)
{
    size_t n = len < 8 ? len : 8;
    return load4_wide(p) | load4_wide(p + n - 4) << (8 * (n - 4));
}
static inline uint64_t load_last(const char *p, size_t len, size_t n) { return load8(p + len - 8) >> (8 * (8 - n)); }
static inline size_t first_nonzero(uint64_t w) { return (size_t)__builtin_ctzll(w) / 8; }
static inline unsigned byte_at(uint64_t w, size_t i) { return (unsigned)(w >> (8 * i)) & 0xFF; }
#endif

/* Whether seat s is named by the n bytes (1..8) in w (zeros after them): the three
 * tests joined without a jump, so the one branch on the answer is the caller's. */
static inline bool seat_word(const struct game *g, int s, uint64_t w, size_t n)
{
    const char *name = g->names[s];
    return (load8(name) == w) & (name[n - 1] != '\0') & (name[n] == '\0');
}

/* The train of a play named by the last n bytes of text[0..len) (len >= 8): the
 * Mexican when mex, else a seat, the player to act's first; -1 when no seat is named
 * so. */
static int train_at_end(const struct game *g, const char *text, size_t len, struct token name, bool mex)
{
    if (mex) return TRAIN_MEX;
    size_t n = (size_t)name.len;
    if (n > 8) {
        /* a name of exactly n bytes: find_seat alone would take a NUL for the padding */
        int seat = find_seat(g, name);
        return seat >= 0 && g->names[seat][n - 1] != '\0' ? seat : -1;
    }
    uint64_t w = load_last(text, len, n);
    if (seat_word(g, g->turn, w, n)) return g->turn;
    for (int s = 0; s < g->nplayers; s++)
        if (seat_word(g, s, w, n)) return s;
    return -1;
}

/* The length of the name of the player to act when text starts with it and a space;
 * 0 when it does not. The first byte where the line and the padded name differ is
 * where the name must end and the space stand. */
static size_t actor_length(const struct game *g, const char *text, size_t len)
{
    const char *name = g->names[g->turn];
    uint64_t head = load_head(text, len);
    uint64_t diff = head ^ load8(name);
    if (diff) {
        size_t n = first_nonzero(diff);
        if (n == 0) return 0;
        return ((byte_at(head, n) == ' ') & (name[n] == '\0') & (name[n - 1] != '\0')) ? n : 0;
    }
    size_t n = 0;                               /* a name of 8 bytes or more */
    while (n < len && name[n] && name[n] == text[n]) n++;
    return !name[n] && n < len && text[n] == ' ' ? n : 0;
}

/* The fast path of a record's lines: a move of the player to act, named first and
 * spelled as records write it. Gives what handle_line gives, or false for anything it
 * does not take (then handle_line reads the line afresh). */
/* fast_move and fast_deal stay out of line: referee_line is then small enough to be
 * inlined into the session loops (its many callers would keep a larger one out), which
 * costs fewer instructions a line than inlining these two into it. */
__attribute__((noinline)) static bool fast_move(struct referee *ref, const char *text, size_t len, long number,
                                                 struct response *resp)
{
    struct game *g = &ref->game;
    /* a move of a round in play: the first of a seeded round, which deals it, and a
     * move once the match is over go to handle_line */
    if (g->phase != PHASE_PLAYING || len < 6 || len >= 64) return false;
    size_t n = actor_length(g, text, len);
    struct command *cmd = &ref->cmd;
    if (n == 0 || !protocol_parse_move_shape(text, len, n, g->rules->max_pip, cmd)) return false;
    int seat = g->turn;
    struct verdict *v = &resp->verdict;
    struct move m = {MOVE_PASS, seat, cmd->tile, 0};
    bool made;
    switch (cmd->kind) {
    case CMD_PLAY:
        /* the train is taken only when it names a seat: a seated name is a valid one */
        m.kind = MOVE_PLAY;
        m.train = train_at_end(g, text, len, cmd->train, cmd->train_is_mex);
        if (m.train < 0) return false;
        made = game_play_quick(g, m.train, m.tile, v);
        break;
    case CMD_DRAW:
        if (cmd->tile == TILE_NONE && !g->seeded) return false;   /* a syntax error */
        m.kind = MOVE_DRAW;
        made = game_draw_quick(g, m.tile, v);
        break;
    default:
        made = game_pass_quick(g, v);
        break;
    }
    resp->line = number;
    resp->kind = RESPONSE_VERDICT;
    resp->nlegal = 0;
    if (!made) game_move(g, &m, v);
    note_move(ref, v);
    return true;
}

/* The fast path of a record's deal lines: `deal NAME A-B ...` spelled as records write
 * it, for a seated name while the match is not over (then the set in force is the
 * match's). Gives what handle_line gives, or false (then handle_line reads the line). */
__attribute__((noinline)) static bool fast_deal(struct referee *ref, const char *text, size_t len, long number,
                                                 struct response *resp)
{
    struct game *g = &ref->game;
    if (len < 10 || memcmp(text, "deal ", 5) != 0 || g->nplayers == 0 || game_is_over(g)) return false;
    struct command *cmd = &ref->cmd;
    if (!protocol_parse_deal_shape(text, len, g->rules->max_pip, cmd)) return false;
    int seat = find_seat(g, cmd->actor);
    if (seat < 0) return false;
    resp->line = number;
    resp->kind = RESPONSE_VERDICT;
    resp->nlegal = 0;
    struct verdict *v = &resp->verdict;
    game_deal_hand(g, seat, cmd->hand, cmd->tiles, cmd->count, v);
    if (v->code == ERR_NONE) ref->match_touched = true;
    return true;
}

void referee_line(struct referee *ref, const char *text, size_t len, bool too_long, long number,
                  struct response *resp)
{
    if (too_long || (!fast_move(ref, text, len, number, resp) && !fast_deal(ref, text, len, number, resp)))
        handle_line(ref, text, len, too_long, number, resp);
    if (resp->kind == RESPONSE_VERDICT && resp->verdict.code != ERR_NONE) {
        /* what the player could do instead; a hook failing here changes nothing */
        struct verdict ignored;
        int n = legal_moves(ref, resp, &ignored);
        resp->nlegal = n < 0 ? 0 : n;
    }
}

static void handle_line(struct referee *ref, const char *text, size_t len, bool too_long, long number,
                        struct response *resp)
{
    struct verdict *v = &resp->verdict;
    struct command *cmd = &ref->cmd;
    resp->line = number;
    resp->kind = RESPONSE_VERDICT;
    resp->nlegal = 0;
    verdict_reset(v);
    char err[200];
    if (too_long) {
        verdict_fail(v, ERR_SYNTAX, 0, "line longer than %d bytes", PROTOCOL_LINE_MAX);
        return;
    }
    /* the set in force: the match's, or once it is over the next one's (as players N) */
    int max_pip = (ref->game.phase == PHASE_OVER ? ref->cli_rules : ref->game.rules)->max_pip;
    if (!protocol_parse_set(text, len, max_pip, cmd, err, sizeof err)) {
        verdict_fail(v, ERR_SYNTAX, 0, "%s", err);
        return;
    }
    if (!syntax_in_context(ref, cmd, v)) return;
    switch (cmd->kind) {
    case CMD_NONE: resp->kind = RESPONSE_NONE; return;
    case CMD_SHOW:
        resp->show_view = cmd->actor.len > 0;
        if (resp->show_view && (resp->show_seat = seat_of(ref, cmd->actor, v)) < 0) return;
        resp->kind = RESPONSE_SHOW;
        return;
    case CMD_LEGAL: list_legal(ref, resp); return;
    case CMD_PLAYERS: case CMD_RULES: case CMD_ROUNDS: case CMD_SEED:
        setup_command(ref, cmd, v);
        return;
    default:
        move_command(ref, cmd, v);
        return;
    }
}
