/* The protocol reader's grammar: a line of text -> a command or a syntax error. */
#include "protocol.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

static const char *const keywords[] = {
    "players", "rules", "rounds", "seed", "round", "deal",
    "play", "draw", "pass", "show", "legal",
};
#define NKEYWORDS (sizeof keywords / sizeof keywords[0])

/* Parsing every line of a corpus: compare lengths before bytes. */
#define TOKEN_IS(t, literal) ((t).len == (int)sizeof(literal) - 1 && memcmp((t).text, literal, sizeof(literal) - 1) == 0)

/* The shortest and longest keywords ("seed", "players"): a token of another length is
 * no keyword, found without comparing a byte. test_protocol checks every keyword. */
#define KEYWORD_MIN_LEN ((int)sizeof "seed" - 1)
#define KEYWORD_MAX_LEN ((int)sizeof "players" - 1)

/* The largest number `rounds N` and `round N` read: far above any real round count
 * (the rules cap rounds, self-play its matches), so a bigger one is a bad number and
 * not a huge round, and far below where arithmetic on it could overflow. */
#define NUMBER_MAX ((uint64_t)1 << 40)

static int keyword_of(struct token t)
{
    if (t.len < KEYWORD_MIN_LEN || t.len > KEYWORD_MAX_LEN) return -1;
    for (size_t i = 0; i < NKEYWORDS; i++)
        if ((size_t)t.len == strlen(keywords[i]) && memcmp(t.text, keywords[i], (size_t)t.len) == 0) return (int)i;
    return -1;
}

bool protocol_is_name(const char *text, size_t len)
{
    if (len < 1 || len > GAME_NAME_MAX_LEN) return false;
    char c = text[0];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
    for (size_t i = 1; i < len; i++) {
        c = text[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    struct token t = {text, (int)len};
    return keyword_of(t) < 0 && !TOKEN_IS(t, "mex");
}

bool protocol_utf8_valid(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t need;
        unsigned min;
        if (c >= 0xC2 && c <= 0xDF) { need = 1; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { need = 2; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { need = 3; min = 0x10000; }
        else return false;
        if (len - i <= need) return false;
        unsigned cp = c & (0x3F >> need);
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += need + 1;
    }
    return true;
}

/* ASCII digits only; false when empty, not a number, or above max. */
static bool parse_number(struct token t, uint64_t max, uint64_t *out)
{
    if (t.len == 0) return false;
    uint64_t v = 0;
    for (int i = 0; i < t.len; i++) {
        char c = t.text[i];
        if (c < '0' || c > '9') return false;
        unsigned d = (unsigned)(c - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* Prints a token for an error message, cut to a readable length. */
static void say(char *err, size_t errsize, const char *what, struct token t)
{
    int shown = t.len > 40 ? 40 : t.len;
    snprintf(err, errsize, "%s '%.*s%s'", what, shown, t.text, t.len > shown ? "..." : "");
}

/* "what 'token': why", the token cut to a readable length. */
static void say_why(char *err, size_t errsize, const char *what, struct token t, const char *why)
{
    int shown = t.len > 40 ? 40 : t.len;
    snprintf(err, errsize, "%s '%.*s%s': %s", what, shown, t.text, t.len > shown ? "..." : "", why);
}

static bool fail(char *err, size_t errsize, const char *message)
{
    snprintf(err, errsize, "%s", message);
    return false;
}

/* A tile of the set double-max_pip (protocol.md: a tile outside the set in force is
 * syntax; the message names the set). */
static bool parse_tile(struct token t, int max_pip, tile_t *out, char *err, size_t errsize)
{
    *out = tile_parse(t.text, (size_t)t.len);
    if (*out != TILE_NONE && tile_high(*out) <= max_pip) return true;
    char why[80];
    snprintf(why, sizeof why, "a tile is A-B, two pips from 0 to %d (the %s set)", max_pip, tile_set_name(max_pip));
    say_why(err, errsize, "bad tile", t, why);
    return false;
}

/* Why text is not a player name: the rule of the lexical section it breaks. */
static const char *name_problem(struct token t)
{
    if (t.len > 16) return "a name is 1 to 16 characters";
    char c = t.text[0];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return "a name starts with an ASCII letter";
    for (int i = 1; i < t.len; i++) {
        c = t.text[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return "a name holds only ASCII letters, digits and _";
    }
    if (TOKEN_IS(t, "mex")) return "mex names the Mexican train";
    return "a keyword is not a name (keywords are lower case: Deal would do)";
}

static bool parse_name(struct token t, char *err, size_t errsize)
{
    if (protocol_is_name(t.text, (size_t)t.len)) return true;
    say_why(err, errsize, "bad player name", t, name_problem(t));
    return false;
}

/* Splits the line into tokens up to a comment; returns the count. */
static int tokenize(const char *line, size_t len, struct token *tokens, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
        if (i >= len || line[i] == '#') break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '#') i++;
        if (n < max) tokens[n] = (struct token){line + start, (int)(i - start)};
        n++;
    }
    return n;
}

static bool parse_setup(int keyword, struct token *tok, int n, int max_pip, struct command *cmd,
                        char *err, size_t errsize)
{
    const char *word = keywords[keyword];
    uint64_t number;
    switch (keyword) {
    case 0: /* players */
        if (n < 2) return fail(err, errsize, "players needs names, or a count");
        if (n == 2 && tok[1].len > 0 && tok[1].text[0] >= '0' && tok[1].text[0] <= '9') {
            if (!parse_number(tok[1], RULES_MAX_PLAYERS + 1, &number)) {
                say(err, errsize, "bad player count:", tok[1]);
                return false;
            }
            cmd->kind = CMD_PLAYERS;
            cmd->number = (long long)number;
            cmd->count = 0;
            return true;
        }
        if (n - 1 > RULES_MAX_PLAYERS)
            return fail(err, errsize, "too many players");
        for (int i = 1; i < n; i++) {
            if (!parse_name(tok[i], err, errsize)) return false;
            cmd->items[i - 1] = tok[i];
        }
        cmd->kind = CMD_PLAYERS;
        cmd->number = n - 1;
        cmd->count = n - 1;
        return true;
    case 1: /* rules */
        if (n < 2) return fail(err, errsize, "rules needs a file name");
        for (int i = 1; i < n; i++) cmd->items[i - 1] = tok[i];
        cmd->kind = CMD_RULES;
        cmd->count = n - 1;
        return true;
    case 2: /* rounds */
    case 4: /* round */
        if (n != 2) {
            snprintf(err, errsize, "%s takes one number", word);
            return false;
        }
        if (!parse_number(tok[1], NUMBER_MAX, &number)) {
            say(err, errsize, "bad number:", tok[1]);
            return false;
        }
        cmd->kind = keyword == 2 ? CMD_ROUNDS : CMD_ROUND;
        cmd->number = (long long)number;
        return true;
    case 3: /* seed */
        if (n != 2) return fail(err, errsize, "seed takes one number");
        if (!parse_number(tok[1], UINT64_MAX, &cmd->seed)) {
            say(err, errsize, "bad seed (0..18446744073709551615):", tok[1]);
            return false;
        }
        cmd->kind = CMD_SEED;
        return true;
    case 5: /* deal */
        if (n < 2) return fail(err, errsize, "deal needs a player name");
        if (!parse_name(tok[1], err, errsize)) return false;
        cmd->actor = tok[1];
        for (int i = 2; i < n; i++)
            if (!parse_tile(tok[i], max_pip, &cmd->tiles[i - 2], err, errsize)) return false;
        cmd->kind = CMD_DEAL;
        cmd->count = n - 2;
        return true;
    case 9: /* show [NAME]: the table, or the view of one seat */
        if (n > 2) return fail(err, errsize, "show takes at most one player name");
        cmd->actor.text = NULL;
        cmd->actor.len = 0;
        if (n == 2) {
            if (!parse_name(tok[1], err, errsize)) return false;
            cmd->actor = tok[1];
        }
        cmd->kind = CMD_SHOW;
        return true;
    case 10: /* legal */
        if (n != 1) {
            snprintf(err, errsize, "%s takes no arguments", word);
            return false;
        }
        cmd->kind = CMD_LEGAL;
        return true;
    default: /* play, draw, pass need a player first */
        snprintf(err, errsize, "%s needs a player first: NAME %s ...", word, word);
        return false;
    }
}

static bool parse_move(struct token *tok, int n, int max_pip, struct command *cmd, char *err, size_t errsize)
{
    cmd->actor = tok[0];
    if (n < 2) {
        if (TOKEN_IS(tok[0], "undo") || TOKEN_IS(tok[0], "help") || TOKEN_IS(tok[0], "quit"))
            say_why(err, errsize, "a move needs play, draw or pass after the name:", tok[0],
                    "undo, help and quit are commands at the keyboard, never lines of a record");
        else
            say(err, errsize, "a move needs play, draw or pass after the name:", tok[0]);
        return false;
    }
    if (TOKEN_IS(tok[1], "play")) {
        if (n != 4) return fail(err, errsize, "play takes a tile and a train: NAME play A-B TRAIN");
        if (!parse_tile(tok[2], max_pip, &cmd->tile, err, errsize)) return false;
        cmd->train_is_mex = TOKEN_IS(tok[3], "mex");
        if (!cmd->train_is_mex && !protocol_is_name(tok[3].text, (size_t)tok[3].len)) {
            say(err, errsize, "bad train (a player's name or mex):", tok[3]);
            return false;
        }
        cmd->train = tok[3];
        cmd->kind = CMD_PLAY;
        return true;
    }
    if (TOKEN_IS(tok[1], "draw")) {
        if (n > 3) return fail(err, errsize, "draw takes at most one tile");
        cmd->tile = TILE_NONE;
        if (n == 3 && !parse_tile(tok[2], max_pip, &cmd->tile, err, errsize)) return false;
        cmd->kind = CMD_DRAW;
        return true;
    }
    if (TOKEN_IS(tok[1], "pass")) {
        if (n != 2) return fail(err, errsize, "pass takes no arguments");
        cmd->kind = CMD_PASS;
        return true;
    }
    say(err, errsize, "unknown command", tok[1]);
    return false;
}

/* --- the fast path -------------------------------------------------------------
 * The three move shapes that make up almost every line of a record, spelled the way
 * records are written (single spaces, no comment): `NAME play A-B TRAIN`, `NAME draw
 * [A-B]`, `NAME pass`. Each byte is checked against the one class it may belong to,
 * so a line it accepts is plain ASCII without NUL: the general checks have nothing to
 * find. Anything else, well-formed or not, goes to the general parser, which gives
 * the same command or the error. */

static inline bool is_letter(unsigned char c) { return (unsigned char)((c | 0x20) - 'a') < 26; }
static inline bool is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }
static inline bool is_name_char(unsigned char c) { return is_letter(c) || is_digit(c) || c == '_'; }

/* A name at s[*i..): its end in *i; false when it is not one (or could be a keyword). */
__attribute__((always_inline)) static inline bool fast_name(const unsigned char *s, size_t len, size_t *i)
{
    size_t start = *i, k = start;
    if (k >= len || !is_letter(s[k])) return false;
    k++;
    while (k < len && is_name_char(s[k])) k++;
    size_t n = k - start;
    if (n > 16) return false;
    /* the reserved words are 3 to 7 lower-case letters: ask the general test then */
    if (n >= 3 && n <= 7 && s[start] >= 'a' && !protocol_is_name((const char *)s + start, n)) return false;
    *i = k;
    return true;
}

/* d0 or the two digits d0 d1: a choice of two values (a conditional move), not a jump */
static inline unsigned pip_of(unsigned d0, unsigned d1, unsigned two)
{
    unsigned both = d0 * 10 + d1;
    return __builtin_expect_with_probability(two, 1, 0.5) ? both : d0;
}

/* A tile of one- or two-digit pips at s[*i..), without a branch on how many digits
 * each pip has: records mix them at random, so such a branch is mispredicted on about
 * one tile in four. A mask chooses a0 or a0 * 10 + a1 (and k steps by one or two). */
__attribute__((always_inline)) static inline bool fast_tile(const unsigned char *s, size_t len, size_t *i,
                                                            unsigned max_pip, tile_t *out)
{
    size_t k = *i;
    if (k + 3 > len) return false;
    unsigned a0 = (unsigned)s[k] - '0', a1 = (unsigned)s[k + 1] - '0';
    if (a0 > 9) return false;
    unsigned two = a1 <= 9;
    unsigned a = pip_of(a0, a1, two);
    k += 1 + two;
    if (k + 2 > len || s[k] != '-') return false;
    k++;
    /* the byte after b0 is read only when it is the line's; else it counts as not a digit */
    bool inside = k + 1 < len;
    unsigned b0 = (unsigned)s[k] - '0', b1 = (unsigned)s[inside ? k + 1 : k] - '0';
    if (b0 > 9) return false;
    two = inside & (b1 <= 9);
    unsigned b = pip_of(b0, b1, two);
    k += 1 + two;
    if (a > max_pip || b > max_pip) return false;
    *out = tile_from_pips((int)a, (int)b);
    *i = k;
    return true;
}

static inline bool word_is(const unsigned char *s, const char w[4])
{
    return s[0] == (unsigned char)w[0] && s[1] == (unsigned char)w[1] && s[2] == (unsigned char)w[2] &&
           s[3] == (unsigned char)w[3];
}

/* Four bytes as one number, to compare a verb at once (the constants fold). */
static inline uint32_t load4(const void *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* The verb and what follows it, the name before it (line[0..i)) already read; tiles
 * of the set double-max_pip. The train of a play is the rest of the line, checked
 * only for mex: the caller checks it is a name (check_train). */
__attribute__((always_inline)) static inline bool parse_move_tail(const char *line, size_t len, size_t i,
                                                                  unsigned max_pip, bool check_train,
                                                                  struct command *cmd)
{
    const unsigned char *s = (const unsigned char *)line;
    if (i + 5 > len || s[i] != ' ') return false;
    uint32_t verb = load4(s + i + 1);
    cmd->actor = (struct token){line, (int)i};
    cmd->count = 0;
    i += 5;
    if (verb == load4("play")) {
        if (i >= len || s[i] != ' ') return false;
        i++;
        if (!fast_tile(s, len, &i, max_pip, &cmd->tile) || i + 1 >= len || s[i] != ' ') return false;
        size_t train = ++i;
        /* the last three bytes (len >= 6), compared at once: mex or a name, at random */
        uint32_t last3 = (uint32_t)s[len - 3] | (uint32_t)s[len - 2] << 8 | (uint32_t)s[len - 1] << 16;
        bool mex = len - train == 3 && last3 == ('m' | 'e' << 8 | 'x' << 16);
        if (check_train && !mex && (!fast_name(s, len, &i) || i != len)) return false;
        cmd->kind = CMD_PLAY;
        cmd->train = (struct token){line + train, (int)(len - train)};
        cmd->train_is_mex = mex;
        return true;
    }
    if (verb == load4("draw")) {
        cmd->tile = TILE_NONE;
        if (i < len) {
            if (s[i] != ' ') return false;
            i++;
            if (!fast_tile(s, len, &i, max_pip, &cmd->tile) || i != len) return false;
        }
        cmd->kind = CMD_DRAW;
        return true;
    }
    if (verb == load4("pass") && i == len) {
        cmd->kind = CMD_PASS;
        return true;
    }
    return false;
}

static bool parse_move_fast(const char *line, size_t len, unsigned max_pip, struct command *cmd)
{
    size_t i = 0;
    if (!fast_name((const unsigned char *)line, len, &i)) return false;
    return parse_move_tail(line, len, i, max_pip, true, cmd);
}

bool protocol_parse_move_shape(const char *line, size_t len, size_t name_len, int max_pip, struct command *cmd)
{
    assert(TILE_PIP_VALID(max_pip));
    return len < 64 && len >= 6 && parse_move_tail(line, len, name_len, (unsigned)max_pip, false, cmd);
}

/* `deal NAME A-B A-B ...`, single spaces, at least one tile, as records write it. The
 * set of the tiles is built as they are read (the engine would loop over them again). */
static bool parse_deal_fast(const char *line, size_t len, unsigned max_pip, struct command *cmd)
{
    const unsigned char *s = (const unsigned char *)line;
    if (len < 10 || !word_is(s, "deal") || s[4] != ' ') return false;
    size_t i = 5;
    if (!fast_name(s, len, &i)) return false;
    struct token actor = {line + 5, (int)(i - 5)};
    uint64_t words[3] = {0, 0, 0};
    int n = 0;
    while (i < len) {
        if (s[i] != ' ' || n == PROTOCOL_MAX_ITEMS) return false;
        i++;
        tile_t t;
        if (!fast_tile(s, len, &i, max_pip, &t)) return false;
        cmd->tiles[n++] = t;
        words[t >> 6] |= (uint64_t)1 << (t & 63);
    }
    if (n == 0) return false;
    cmd->kind = CMD_DEAL;
    cmd->actor = actor;
    cmd->count = n;
    cmd->hand = (tileset){{words[0], words[1], words[2]}};
    return true;
}

bool protocol_parse_deal_shape(const char *line, size_t len, int max_pip, struct command *cmd)
{
    assert(TILE_PIP_VALID(max_pip));
    return len <= PROTOCOL_LINE_MAX && parse_deal_fast(line, len, (unsigned)max_pip, cmd);
}

/* NUL and UTF-8 in one pass, eight bytes at a time: plain ASCII (the usual line) is
 * only tested for NUL; the UTF-8 decoder runs only once a byte >= 0x80 is seen. */
static const char *line_encoding_error(const char *line, size_t len)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, line + i, 8);
        if ((w - ones) & ~w & highs) {
            /* maybe a zero byte (the test can flag a 0x80 byte too): look closely */
            if (memchr(line + i, '\0', 8)) return "NUL byte in line";
        }
        high |= w & highs;
    }
    for (; i < len; i++) {
        if (line[i] == '\0') return "NUL byte in line";
        high |= (unsigned char)line[i] & 0x80;
    }
    if (high && !protocol_utf8_valid(line, len)) return "invalid UTF-8";
    return NULL;
}

bool protocol_parse(const char *line, size_t len, struct command *cmd, char *err, size_t errsize)
{
    return protocol_parse_set(line, len, TILE_CANONICAL_PIP, cmd, err, errsize);
}

bool protocol_parse_set(const char *line, size_t len, int max_pip, struct command *cmd, char *err, size_t errsize)
{
    assert(TILE_PIP_VALID(max_pip));
    if (len < 64 && len >= 6 && parse_move_fast(line, len, (unsigned)max_pip, cmd)) return true;
    if (len <= PROTOCOL_LINE_MAX && line[0] == 'd' && parse_deal_fast(line, len, (unsigned)max_pip, cmd)) return true;
    cmd->kind = CMD_NONE;
    cmd->count = 0;
    if (len > PROTOCOL_LINE_MAX) return fail(err, errsize, "line longer than 4096 bytes");
    const char *bad = line_encoding_error(line, len);
    if (bad) return fail(err, errsize, bad);
    struct token tok[PROTOCOL_MAX_ITEMS];
    int n = tokenize(line, len, tok, PROTOCOL_MAX_ITEMS);
    if (n == 0) return true;
    int keyword = keyword_of(tok[0]);
    if (keyword >= 0) return parse_setup(keyword, tok, n, max_pip, cmd, err, errsize);
    if (protocol_is_name(tok[0].text, (size_t)tok[0].len)) return parse_move(tok, n, max_pip, cmd, err, errsize);
    char c = tok[0].text[0];
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
        say(err, errsize, "bad command or player name:", tok[0]);
    else
        say(err, errsize, "unknown command", tok[0]);
    return false;
}
