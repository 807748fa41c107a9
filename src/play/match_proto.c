/* The bot protocol: the referee's messages, composed into a growing buffer (the
 * answers are parsed in match_answer.c). */
#include "match_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "output.h"
#include "protocol.h"
#include "view.h"

void mbuf_free(struct mbuf *b)
{
    if (!b) return;
    free(b->data);
    memset(b, 0, sizeof *b);
}

static bool mbuf_room(struct mbuf *b, size_t more)
{
    if (b->failed) return false;
    if (b->len + more + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more + 1) cap *= 2;
    char *p = mt_realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void mbuf_bytes(struct mbuf *b, const char *data, size_t len)
{
    if (!mbuf_room(b, len)) return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void mbuf_put(struct mbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        mbuf_bytes(b, small, (size_t)n);
        return;
    }
    if (!mbuf_room(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void mbuf_json_string(struct mbuf *b, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    mbuf_bytes(b, "\"", 1);
    while (p < end) {
        unsigned c = *p;
        if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; mbuf_bytes(b, e, 2); p++; continue; }
        if (c < 0x20 || c == 0x7f) { mbuf_put(b, "\\u%04x", c); p++; continue; }
        if (c < 0x80) { mbuf_bytes(b, (const char *)p, 1); p++; continue; }
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (need > (size_t)(end - p) || !protocol_utf8_valid((const char *)p, need)) {
            mbuf_bytes(b, "\\ufffd", 6);
            p++;
            continue;
        }
        mbuf_bytes(b, (const char *)p, need);
        p += need;
    }
    mbuf_bytes(b, "\"", 1);
}


void mbuf_num(struct mbuf *b, long long n)
{
    char digits[VIEW_DECIMAL_SIZE];
    mbuf_bytes(b, digits, view_decimal(n, digits));
}

void mbuf_tile(struct mbuf *b, tile_t t)
{
    char text[TILE_TEXT_SIZE];
    tile_format(t, text);
    mbuf_bytes(b, text, strlen(text));
}

static void mbuf_str(struct mbuf *b, const char *s) { mbuf_bytes(b, s, strlen(s)); }

static void put_tile(struct mbuf *b, tile_t t, bool json, bool first)
{
    if (json) {
        mbuf_bytes(b, first ? "\"" : ",\"", first ? 1 : 2);
        mbuf_tile(b, t);
        mbuf_bytes(b, "\"", 1);
    } else {
        mbuf_bytes(b, " ", 1);
        mbuf_tile(b, t);
    }
}

static void put_tiles(struct mbuf *b, tileset s, bool json)
{
    bool first = true;
    for (tile_t t; (t = tileset_pop(&s)) != TILE_NONE; first = false) put_tile(b, t, json, first);
}

/* A map of seats to numbers: " a 1 b 2" in text, {"a":1,"b":2} in JSON. */
static void put_map(struct mbuf *b, const struct game *g, const int64_t values[], const bool *only, bool json)
{
    bool first = true;
    if (json) mbuf_bytes(b, "{", 1);
    for (int s = 0; s < g->nplayers; s++) {
        if (only && !only[s]) continue;
        if (json) {
            mbuf_bytes(b, first ? "\"" : ",\"", first ? 1 : 2);
            mbuf_str(b, g->names[s]);
            mbuf_bytes(b, "\":", 2);
        } else {
            mbuf_bytes(b, " ", 1);
            mbuf_str(b, g->names[s]);
            mbuf_bytes(b, " ", 1);
        }
        mbuf_num(b, (long long)values[s]);
        first = false;
    }
    if (json) mbuf_bytes(b, "}", 1);
}

/* A rule name as a text token: anything but [A-Za-z0-9_.+-] becomes '_'. */
static void put_rule_token(struct mbuf *b, const char *name)
{
    mbuf_bytes(b, " ", 1);
    for (const char *p = name; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '.' || c == '+' || c == '-';
        mbuf_bytes(b, ok ? &c : "_", 1);
    }
}

void proto_hello(struct mbuf *b, enum proto_form f)
{
    if (f == PROTO_JSON) mbuf_put(b, "{\"type\":\"hello\",\"versions\":[%d]}\n", MATCH_PROTO_VERSION);
    else mbuf_put(b, "hello %d\n", MATCH_PROTO_VERSION);
}

void proto_match(struct mbuf *b, enum proto_form f, const struct game *g, const struct proto_match *m)
{
    if (f == PROTO_JSON) {
        mbuf_put(b, "{\"type\":\"match\",\"id\":\"%s\",\"seat\":\"%s\",\"players\":[", m->id, g->names[m->seat]);
        for (int s = 0; s < g->nplayers; s++) mbuf_put(b, "%s\"%s\"", s ? "," : "", g->names[s]);
        mbuf_put(b, "],\"rounds\":%d,\"rules\":[", g->rounds);
        for (int i = 0; m->rules && m->rules[i]; i++) {
            if (i) mbuf_bytes(b, ",", 1);
            mbuf_json_string(b, m->rules[i], strlen(m->rules[i]));
        }
        mbuf_put(b, "],\"clock\":");
        if (m->move_ms < 0) mbuf_put(b, "null}\n");
        else mbuf_put(b, "{\"move_ms\":%lld,\"bank_ms\":%lld}}\n", (long long)m->move_ms, (long long)m->bank_ms);
        return;
    }
    mbuf_put(b, "match %s\nplayers", m->id);
    for (int s = 0; s < g->nplayers; s++) mbuf_put(b, " %s", g->names[s]);
    mbuf_put(b, "\nseat %s\nrounds %d\nrules", g->names[m->seat], g->rounds);
    for (int i = 0; m->rules && m->rules[i]; i++) put_rule_token(b, m->rules[i]);
    if (m->move_ms < 0) mbuf_put(b, "\nclock none\n");
    else mbuf_put(b, "\nclock %lld %lld\n", (long long)m->move_ms, (long long)m->bank_ms);
}

/* The hand sizes of the seats still in, as put_map writes a map. */
static void put_sizes(struct mbuf *b, const struct game *g, bool json)
{
    int64_t sizes[RULES_MAX_PLAYERS];
    bool in[RULES_MAX_PLAYERS];
    for (int s = 0; s < g->nplayers; s++) {
        sizes[s] = tileset_count(g->hands[s]);
        in[s] = !g->eliminated[s];
    }
    put_map(b, g, sizes, in, json);
}

void proto_round(struct mbuf *b, enum proto_form f, const struct game *g, int seat)
{
    int bone = tileset_count(g->boneyard);
    if (f == PROTO_JSON) {
        mbuf_put(b, "{\"type\":\"round\",\"round\":%d,\"engine\":%d,\"first\":\"%s\",\"hand\":[", g->round, g->engine_pip,
                 g->names[g->first_seat]);
        put_tiles(b, g->hands[seat], true);
        mbuf_put(b, "],\"hand_sizes\":");
        put_sizes(b, g, true);
        mbuf_put(b, ",\"boneyard\":%d}\n", bone);
        return;
    }
    mbuf_put(b, "round %d engine %d first %s\nhand", g->round, g->engine_pip, g->names[g->first_seat]);
    put_tiles(b, g->hands[seat], false);
    mbuf_put(b, "\nsizes");
    put_sizes(b, g, false);
    mbuf_put(b, "\nboneyard %d\n", bone);
}

/* The move's record line without its drawn tile, appended to b: what
 * output_format_move writes, without a printf per line. */
void mbuf_move(struct mbuf *b, const struct game *g, const struct move *m)
{
    const char *who = g->names[m->seat];
    mbuf_bytes(b, who, strlen(who));
    if (m->kind == MOVE_PLAY) {
        char tile[TILE_TEXT_SIZE];
        tile_format(m->tile, tile);
        const char *train = game_train_name(g, m->train);
        mbuf_bytes(b, " play ", 6);
        mbuf_bytes(b, tile, strlen(tile));
        mbuf_bytes(b, " ", 1);
        mbuf_bytes(b, train, strlen(train));
    } else {
        mbuf_bytes(b, m->kind == MOVE_DRAW ? " draw" : " pass", 5);
    }
}

void proto_move(struct mbuf *b, enum proto_form f, const struct game *g, const struct move *m)
{
    if (f == PROTO_JSON) mbuf_bytes(b, "{\"type\":\"move\",\"line\":\"", 23);
    else mbuf_bytes(b, "move ", 5);
    mbuf_move(b, g, m);          /* a draw without its tile */
    if (f == PROTO_JSON) mbuf_bytes(b, "\"}\n", 3);
    else mbuf_bytes(b, "\n", 1);
}

void proto_drew(struct mbuf *b, enum proto_form f, tile_t tile)
{
    char text[TILE_TEXT_SIZE];
    tile_format(tile, text);
    if (f == PROTO_JSON) mbuf_put(b, "{\"type\":\"drew\",\"tile\":\"%s\"}\n", text);
    else mbuf_put(b, "drew %s\n", text);
}

void proto_engine_laid(struct mbuf *b, enum proto_form f, const struct game *g)
{
    char text[TILE_TEXT_SIZE];
    tile_format(tile_double(g->engine_pip), text);
    const char *who = g->names[g->engine_from];
    if (f == PROTO_JSON) mbuf_put(b, "{\"type\":\"engine\",\"player\":\"%s\",\"tile\":\"%s\"}\n", who, text);
    else mbuf_put(b, "engine %s %s\n", who, text);
}

void proto_events(struct mbuf *b, enum proto_form f, const struct game *g, const struct verdict *v,
                  const tileset hands_left[])
{
    bool json = f == PROTO_JSON;
    if (v->round_ended) {
        const struct round_report *r = &v->report;
        if (json) {
            mbuf_put(b, "{\"type\":\"round_end\",\"round\":%d,\"engine\":%d,\"reason\":\"%s\",\"out\":", r->round,
                     r->engine_pip, r->out_seat >= 0 ? "out" : "blocked");
            if (r->out_seat >= 0) mbuf_put(b, "\"%s\"", g->names[r->out_seat]);
            else mbuf_put(b, "null");
            mbuf_put(b, ",\"points\":");
            put_map(b, g, r->points, r->in_round, true);
            mbuf_put(b, ",\"totals\":");
            put_map(b, g, g->totals, 0, true);
            mbuf_put(b, ",\"shown\":{");
            bool first = true;
            for (int s = 0; s < g->nplayers; s++) {
                if (!r->in_round[s] || tileset_is_empty(hands_left[s])) continue;
                mbuf_put(b, "%s\"%s\":[", first ? "" : ",", g->names[s]);
                put_tiles(b, hands_left[s], true);
                mbuf_bytes(b, "]", 1);
                first = false;
            }
            mbuf_put(b, "}}\n");
        } else {
            mbuf_put(b, "round_end %d ", r->round);
            if (r->out_seat >= 0) mbuf_put(b, "out %s", g->names[r->out_seat]);
            else mbuf_put(b, "blocked -");
            mbuf_put(b, " points");
            put_map(b, g, r->points, r->in_round, false);
            mbuf_put(b, " totals");
            put_map(b, g, g->totals, 0, false);
            mbuf_put(b, "\n");
            for (int s = 0; s < g->nplayers; s++) {
                if (!r->in_round[s] || tileset_is_empty(hands_left[s])) continue;
                mbuf_put(b, "shown %s", g->names[s]);
                put_tiles(b, hands_left[s], false);
                mbuf_put(b, "\n");
            }
        }
    }
    for (int i = 0; i < v->neliminated; i++) {
        int s = v->eliminated[i];
        if (json) mbuf_put(b, "{\"type\":\"eliminated\",\"player\":\"%s\",\"total\":%lld}\n", g->names[s], (long long)g->totals[s]);
        else mbuf_put(b, "eliminated %s %lld\n", g->names[s], (long long)g->totals[s]);
    }
    if (v->match_ended) {
        if (json) {
            mbuf_put(b, "{\"type\":\"match_end\",\"totals\":");
            put_map(b, g, g->totals, 0, true);
            mbuf_put(b, ",\"winners\":[");
            bool first = true;
            for (int s = 0; s < g->nplayers; s++)
                if (v->winners[s]) {
                    mbuf_put(b, "%s\"%s\"", first ? "" : ",", g->names[s]);
                    first = false;
                }
            mbuf_put(b, "],\"draw\":%s}\n", v->nwinners > 1 ? "true" : "false");
        } else {
            mbuf_put(b, "match_end winners");
            for (int s = 0; s < g->nplayers; s++)
                if (v->winners[s]) mbuf_put(b, " %s", g->names[s]);
            mbuf_put(b, " totals");
            put_map(b, g, g->totals, 0, false);
            mbuf_put(b, "\n");
        }
    }
}

void proto_decision(struct mbuf *b, enum proto_form f, const struct game *g, int seat, const struct move *legal,
                    int nlegal, long id, int64_t move_ms, int64_t bank_ms)
{
    struct seat_view v;
    view_of(g, seat, &v);
    /* the view is formatted straight into b, which keeps its room from one decision
     * to the next: nothing is allocated per decision */
    if (!mbuf_room(b, VIEW_TEXT_MAX)) return;
    if (f == PROTO_JSON) {
        mbuf_put(b, "{\"type\":\"go\",\"id\":%ld,\"view\":{", id);
        if (!mbuf_room(b, VIEW_TEXT_MAX)) return;
        b->len += view_format_json(&v, b->data + b->len, b->cap - b->len);
        mbuf_put(b, "},\"legal\":[");
        for (int i = 0; i < nlegal; i++) {
            mbuf_bytes(b, i ? ",\"" : "\"", i ? 2 : 1);
            mbuf_move(b, g, &legal[i]);
            mbuf_bytes(b, "\"", 1);
        }
        mbuf_put(b, "],\"clock\":");
        if (move_ms < 0) mbuf_put(b, "null}\n");
        else mbuf_put(b, "{\"move_ms\":%lld,\"bank_ms\":%lld}}\n", (long long)move_ms, (long long)bank_ms);
    } else {
        b->len += view_format_lines(&v, b->data + b->len, b->cap - b->len);
        for (int i = 0; i < nlegal; i++) {
            mbuf_bytes(b, "legal ", 6);
            mbuf_move(b, g, &legal[i]);
            mbuf_bytes(b, "\n", 1);
        }
        mbuf_bytes(b, "go ", 3);
        mbuf_num(b, id);
        if (move_ms < 0) {
            mbuf_bytes(b, " - -\n", 5);
        } else {
            mbuf_bytes(b, " ", 1);
            mbuf_num(b, (long long)move_ms);
            mbuf_bytes(b, " ", 1);
            mbuf_num(b, (long long)bank_ms);
            mbuf_bytes(b, "\n", 1);
        }
    }
}

void proto_retired(struct mbuf *b, enum proto_form f, const char *kind, const char *detail)
{
    if (f == PROTO_JSON) {
        mbuf_put(b, "{\"type\":\"retired\",\"kind\":\"%s\",\"detail\":", kind);
        mbuf_json_string(b, detail, strlen(detail));
        mbuf_put(b, "}\n");
    } else {
        mbuf_put(b, "retired %s %s\n", kind, detail);
    }
}

void proto_bye(struct mbuf *b, enum proto_form f)
{
    if (f == PROTO_JSON) mbuf_put(b, "{\"type\":\"bye\"}\n");
    else mbuf_put(b, "bye\n");
}
