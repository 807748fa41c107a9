/* The bot protocol's answers: one line of a bot -> hello, a move, a comment, or garbled.
 * Hostile input by design (tests/fuzz/fuzz_answer.c): bounded by len, no recursion
 * deeper than JSON_DEPTH, nothing kept after return. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "match_proto.h"
#include "protocol.h"

#define JSON_DEPTH 32
#define MAX_TOKENS 8

static void garbled(struct bot_answer *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void garbled(struct bot_answer *a, const char *fmt, ...)
{
    a->kind = ANSWER_GARBLED;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->why, sizeof a->why, fmt, ap);
    va_end(ap);
}

struct tok {
    const char *p;
    size_t n;
};

static bool tok_is(struct tok t, const char *word) { return t.n == strlen(word) && memcmp(t.p, word, t.n) == 0; }

static bool tok_digits(struct tok t, size_t max)
{
    if (t.n == 0 || t.n > max) return false;
    for (size_t i = 0; i < t.n; i++)
        if (t.p[i] < '0' || t.p[i] > '9') return false;
    return true;
}

static long long tok_number(struct tok t)
{
    long long v = 0;
    for (size_t i = 0; i < t.n; i++) v = v * 10 + (t.p[i] - '0');
    return v;
}

/* Splits on spaces and tabs; returns the count, MAX_TOKENS + 1 when there are more. */
static int split(const char *s, size_t len, struct tok *t)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i == len) break;
        size_t start = i;
        while (i < len && s[i] != ' ' && s[i] != '\t') i++;
        if (n == MAX_TOKENS) return MAX_TOKENS + 1;
        t[n].p = s + start;
        t[n].n = i - start;
        n++;
    }
    return n;
}

/* A cut, printable copy of a token for messages. */
static void shown(struct tok t, char *out, size_t size)
{
    size_t n = t.n < 24 ? t.n : 24, k = 0;
    for (size_t i = 0; i < n && k + 1 < size; i++) {
        unsigned char c = (unsigned char)t.p[i];
        out[k++] = c >= 0x21 && c < 0x7f ? (char)c : '?';
    }
    out[k] = '\0';
}

static void parse_text(const char *s, size_t len, struct bot_answer *a)
{
    struct tok t[MAX_TOKENS];
    char word[32];
    int n = split(s, len, t);
    if (n == 0) { a->kind = ANSWER_BLANK; return; }
    if (t[0].p[0] == '#') { a->kind = ANSWER_COMMENT; return; }
    if (n > MAX_TOKENS && !tok_is(t[0], "hello")) { garbled(a, "too many words for an answer"); return; }
    if (tok_is(t[0], "hello")) {
        if (n < 2 || !tok_digits(t[1], 9)) { garbled(a, "hello needs a version number"); return; }
        a->kind = ANSWER_HELLO;
        a->version = (long)tok_number(t[1]);
        return;
    }
    int i = 0;
    if (tok_digits(t[0], 18)) {
        a->id = tok_number(t[0]);
        i++;
    }
    if (i < n && !tok_is(t[i], "play") && !tok_is(t[i], "draw") && !tok_is(t[i], "pass")) {
        if (!protocol_is_name(t[i].p, t[i].n)) {
            shown(t[i], word, sizeof word);
            garbled(a, "not an answer: '%s' is neither a player nor play, draw or pass", word);
            return;
        }
        memcpy(a->seat, t[i].p, t[i].n);
        a->seat[t[i].n] = '\0';
        i++;
    }
    if (i >= n) { garbled(a, "no action: play A-B TRAIN, draw or pass"); return; }
    struct tok verb = t[i++];
    int rest = n - i;
    if (tok_is(verb, "play")) {
        if (rest != 2) { garbled(a, "play takes a tile and a train"); return; }
        a->tile = tile_parse(t[i].p, t[i].n);
        if (a->tile == TILE_NONE) {
            shown(t[i], word, sizeof word);
            garbled(a, "bad tile '%s'", word);
            return;
        }
        struct tok train = t[i + 1];
        if (!tok_is(train, "mex") && !protocol_is_name(train.p, train.n)) {
            shown(train, word, sizeof word);
            garbled(a, "bad train '%s'", word);
            return;
        }
        memcpy(a->train, train.p, train.n);
        a->train[train.n] = '\0';
        a->action = MOVE_PLAY;
    } else if (tok_is(verb, "draw")) {
        if (rest > 0) {
            garbled(a, rest == 1 && tile_parse(t[i].p, t[i].n) != TILE_NONE ? "a named draw: draw is always bare"
                                                                            : "draw takes nothing after it");
            return;
        }
        a->action = MOVE_DRAW;
    } else if (tok_is(verb, "pass")) {
        if (rest > 0) { garbled(a, "pass takes nothing after it"); return; }
        a->action = MOVE_PASS;
    } else {
        shown(verb, word, sizeof word);
        garbled(a, "unknown action '%s'", word);
        return;
    }
    a->kind = ANSWER_MOVE;
}

/* ---- a small JSON reader: one flat object, its string and number fields ---- */

struct json {
    const char *p, *end;
};

static void skip_ws(struct json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')) j->p++;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

/* Reads a string at j->p (on its quote); decoded into out (room for the raw length)
 * when out is not NULL. False on a malformed string or an escaped NUL. */
static bool read_string(struct json *j, char *out, size_t *outlen)
{
    size_t k = 0;
    if (j->p >= j->end || *j->p != '"') return false;
    j->p++;
    while (j->p < j->end) {
        unsigned char c = (unsigned char)*j->p++;
        if (c == '"') {
            if (out) out[k] = '\0';
            if (outlen) *outlen = k;
            return true;
        }
        if (c < 0x20) return false;
        if (c != '\\') {
            if (out) out[k] = (char)c;
            k++;
            continue;
        }
        if (j->p >= j->end) return false;
        char e = *j->p++;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char map[] = "\"\\/\b\f\n\r\t";
            if (out) out[k] = map[simple - "\"\\/bfnrt"];
            k++;
            continue;
        }
        if (e != 'u' || j->end - j->p < 4) return false;
        int u = hex4(j->p);
        j->p += 4;
        if (u <= 0) return false;                 /* bad hex, or an escaped NUL */
        if (u >= 0xD800 && u <= 0xDBFF) {         /* a surrogate pair */
            if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u') return false;
            int lo = hex4(j->p + 2);
            if (lo < 0xDC00 || lo > 0xDFFF) return false;
            j->p += 6;
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        } else if (u >= 0xDC00 && u <= 0xDFFF) {
            return false;
        }
        char utf[4];
        int n;
        if (u < 0x80) { utf[0] = (char)u; n = 1; }
        else if (u < 0x800) { utf[0] = (char)(0xC0 | u >> 6); utf[1] = (char)(0x80 | (u & 0x3F)); n = 2; }
        else if (u < 0x10000) {
            utf[0] = (char)(0xE0 | u >> 12); utf[1] = (char)(0x80 | ((u >> 6) & 0x3F));
            utf[2] = (char)(0x80 | (u & 0x3F)); n = 3;
        } else {
            utf[0] = (char)(0xF0 | u >> 18); utf[1] = (char)(0x80 | ((u >> 12) & 0x3F));
            utf[2] = (char)(0x80 | ((u >> 6) & 0x3F)); utf[3] = (char)(0x80 | (u & 0x3F)); n = 4;
        }
        /* an escape is at least 6 raw bytes and decodes to at most 4: out has room */
        if (out) memcpy(out + k, utf, (size_t)n);
        k += (size_t)n;
    }
    return false;
}

static bool skip_value(struct json *j, int depth);

static bool skip_container(struct json *j, int depth, char close)
{
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) { j->p++; return true; }
    for (;;) {
        if (close == '}') {
            if (!read_string(j, NULL, NULL)) return false;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') return false;
            j->p++;
        }
        if (!skip_value(j, depth + 1)) return false;
        skip_ws(j);
        if (j->p >= j->end) return false;
        if (*j->p == ',') { j->p++; skip_ws(j); continue; }
        if (*j->p == close) { j->p++; return true; }
        return false;
    }
}

static bool skip_value(struct json *j, int depth)
{
    skip_ws(j);
    if (j->p >= j->end || depth > JSON_DEPTH) return false;
    char c = *j->p;
    if (c == '"') return read_string(j, NULL, NULL);
    if (c == '{') return skip_container(j, depth, '}');
    if (c == '[') return skip_container(j, depth, ']');
    const char *start = j->p;
    while (j->p < j->end && strchr("-+.eE0123456789truefalsn", *j->p) && *j->p) j->p++;
    return j->p > start;
}

/* A JSON integer at j->p (digits only, up to 18). */
static bool read_int(struct json *j, long long *out)
{
    const char *start = j->p;
    long long v = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9' && j->p - start < 18) v = v * 10 + (*j->p++ - '0');
    if (j->p == start || (j->p < j->end && strchr(".eE0123456789", *j->p) && *j->p)) return false;
    *out = v;
    return true;
}

static void parse_json(const char *s, size_t len, struct bot_answer *a)
{
    struct json j = {s, s + len};
    char *move = NULL, type[16] = "";
    size_t move_len = 0;
    long long id = -1, version = -1;
    bool ok = false;
    skip_ws(&j);
    j.p++;                                   /* the '{' the caller saw */
    skip_ws(&j);
    if (j.p < j.end && *j.p == '}') { j.p++; ok = true; goto done; }
    for (;;) {
        char key[16];
        size_t key_len;
        struct json at = j;
        if (!read_string(&at, NULL, &key_len)) goto done;
        if (key_len < sizeof key) read_string(&j, key, &key_len);
        else { j = at; key[0] = '\0'; }
        skip_ws(&j);
        if (j.p >= j.end || *j.p != ':') goto done;
        j.p++;
        skip_ws(&j);
        if (strcmp(key, "move") == 0 && j.p < j.end && *j.p == '"' && !move) {
            move = mt_malloc(len + 1);
            if (!move || !read_string(&j, move, &move_len)) goto done;
        } else if (strcmp(key, "type") == 0 && j.p < j.end && *j.p == '"') {
            struct json peek = j;
            size_t n;
            if (!read_string(&peek, NULL, &n)) goto done;
            if (n < sizeof type) read_string(&j, type, &n);
            else j = peek;
        } else if (strcmp(key, "id") == 0 && j.p < j.end && *j.p >= '0' && *j.p <= '9') {
            if (!read_int(&j, &id)) goto done;
        } else if (strcmp(key, "version") == 0 && j.p < j.end && *j.p >= '0' && *j.p <= '9') {
            if (!read_int(&j, &version) || version > 999999999) goto done;
        } else if (!skip_value(&j, 1)) {
            goto done;
        }
        skip_ws(&j);
        if (j.p < j.end && *j.p == ',') { j.p++; skip_ws(&j); continue; }
        if (j.p < j.end && *j.p == '}') { j.p++; ok = true; }
        break;
    }
done:
    skip_ws(&j);
    if (!ok || j.p != j.end) {
        garbled(a, "not one JSON object");
    } else if (strcmp(type, "hello") == 0) {
        if (version < 0) garbled(a, "hello needs a version number");
        else { a->kind = ANSWER_HELLO; a->version = (long)version; }
    } else if (!move) {
        garbled(a, "a JSON answer needs a \"move\"");
    } else if (memchr(move, '\0', move_len) || !protocol_utf8_valid(move, move_len)) {
        garbled(a, "NUL or invalid UTF-8 in the move");
    } else {
        parse_text(move, move_len, a);
        if (a->kind == ANSWER_HELLO || a->kind == ANSWER_BLANK || a->kind == ANSWER_COMMENT)
            garbled(a, "the \"move\" holds no move");
        else if (a->kind == ANSWER_MOVE && id >= 0) {
            if (a->id >= 0 && a->id != id) garbled(a, "two different ids");
            else a->id = id;
        }
    }
    free(move);
}

void match_proto_parse_answer(const char *line, size_t len, enum match_proto_form f, struct bot_answer *a)
{
    memset(a, 0, sizeof *a);
    a->id = -1;
    a->tile = TILE_NONE;
    if (memchr(line, '\0', len)) { garbled(a, "NUL byte in the line"); return; }
    if (!protocol_utf8_valid(line, len)) { garbled(a, "invalid UTF-8"); return; }
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (f == MATCH_PROTO_JSON && i < len && line[i] == '{') parse_json(line + i, len - i, a);
    else parse_text(line, len, a);
}

bool match_proto_answer_move(const struct game *g, const struct bot_answer *a, struct move *m, struct verdict *v)
{
    verdict_reset(v);
    m->kind = a->action;
    m->tile = a->action == MOVE_PLAY ? a->tile : TILE_NONE;
    m->train = 0;
    m->seat = g->turn;
    if (a->seat[0]) {
        m->seat = game_find_player(g, a->seat, (int)strlen(a->seat));
        if (m->seat < 0) {
            verdict_fail(v, ERR_UNKNOWN_PLAYER, "R2", "%s is not at the table", a->seat);
            return false;
        }
    }
    if (a->action == MOVE_PLAY) {
        if (strcmp(a->train, "mex") == 0) {
            m->train = TRAIN_MEX;
        } else {
            m->train = game_find_player(g, a->train, (int)strlen(a->train));
            if (m->train < 0) {
                verdict_fail(v, ERR_UNKNOWN_PLAYER, "R2", "%s is not at the table", a->train);
                return false;
            }
        }
    }
    return true;
}
