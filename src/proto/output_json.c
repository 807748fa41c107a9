/* Output, the fixed-shape JSON objects of every accepted line and of the events:
 * formatted into a small buffer and written with one call, not through printf, as
 * they are most of what `mtref --json` writes. The same bytes as the printf forms. */
#include "output_json.h"

#include <stdint.h>
#include <string.h>

static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes v in decimal at p; returns the length. Two digits a step, from the end of a
 * scratch field, then copied whole: p must have 20 bytes of room. */
static size_t put_count(char *p, unsigned long v)
{
    char digits[40];
    char *end = digits + 20, *q = end;
    while (v >= 100) {
        unsigned long r = v % 100;
        v /= 100;
        q -= 2;
        memcpy(q, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    memcpy(p, q, 20);             /* a fixed size: one move, not a call */
    return (size_t)(end - q);
}

#define PUT(p, literal) (memcpy((p), literal, sizeof(literal) - 1), sizeof(literal) - 1)

/* The rest of an ok answer, from buf[n] on (after the line number): its length. */
size_t output_json_ok_tail(char *buf, size_t n, tile_t drew)
{
    n += PUT(buf + n, ",\"ok\":true");
    if (drew != TILE_NONE) {
        n += PUT(buf + n, ",\"drew\":\"");
        tile_format(drew, buf + n);
        n += 3 + (tile_low(drew) >= 10) + (tile_high(drew) >= 10);
        buf[n++] = '"';
    }
    buf[n++] = '}';
    buf[n++] = '\n';
    return n;
}

size_t output_json_ok_format(char *buf, long line, tile_t drew)
{
    size_t n = PUT(buf, "{\"line\":");
    if (line < 0) {                 /* never from the reader; kept exact all the same */
        buf[n++] = '-';
        n += put_count(buf + n, 0UL - (unsigned long)line);
    } else {
        n += put_count(buf + n, (unsigned long)line);
    }
    return output_json_ok_tail(buf, n, drew);
}

void output_json_lines_init(struct output_json_lines *l)
{
    l->line = -1;
    l->len = 0;
    memset(l->drew, 0, sizeof l->drew);
    for (tile_t t = 0; t < TILE_COUNT; t++) {
        char *p = l->drew[t + 1].text;
        size_t n = PUT(p, ",\"drew\":\"");
        tile_format(t, p + n);
        n += strlen(p + n);
        p[n++] = '"';
        l->drew[t + 1].len = n;
    }
}

void output_json_lines_set(struct output_json_lines *l, long line)
{
    if (line == l->line + 1 && l->line >= 0) {
        size_t i = l->len;
        while (i > 0 && l->text[i - 1] == '9') l->text[--i] = '0';
        if (i > 0) {
            l->text[i - 1]++;
        } else {                     /* 99 -> 100: one digit more */
            memmove(l->text + 1, l->text, l->len);
            l->text[0] = '1';
            l->len++;
        }
    } else {
        l->len = put_count(l->text, (unsigned long)line);
    }
    l->line = line;
}

void output_json_ok(FILE *out, long line, tile_t drew)
{
    char buf[OUTPUT_JSON_OK_MAX];
    fwrite(buf, 1, output_json_ok_format(buf, line, drew), out);
}

/* --- events ------------------------------------------------------------------- */

/* A bounded builder: what does not fit marks it full, and the caller falls back. */
struct out {
    char *p, *end;
    bool full;
};

static void out_put(struct out *o, const char *s, size_t n)
{
    if (o->full || (size_t)(o->end - o->p) < n + 24) {
        o->full = true;
        return;
    }
    memcpy(o->p, s, n);
    o->p += n;
}

#define OUT_LIT(o, literal) out_put((o), literal, sizeof(literal) - 1)

static void out_str(struct out *o, const char *s) { out_put(o, s, strlen(s)); }

static void out_int(struct out *o, int64_t v)
{
    if (o->full || o->end - o->p < 24) {
        o->full = true;
        return;
    }
    if (v < 0) {
        *o->p++ = '-';
        o->p += put_count(o->p, 0UL - (unsigned long)v);
    } else {
        o->p += put_count(o->p, (unsigned long)v);
    }
}

/* {"ana":40,"bob":61}, the seats of only (when not NULL) alone: json_names_map's bytes. */
static void out_names_map(struct out *o, const struct game *g, const int64_t values[], const bool *only)
{
    OUT_LIT(o, "{");
    bool first = true;
    for (int s = 0; s < g->nplayers; s++) {
        if (only && !only[s]) continue;
        if (!first) OUT_LIT(o, ",");
        OUT_LIT(o, "\"");
        out_str(o, g->names[s]);
        OUT_LIT(o, "\":");
        out_int(o, values[s]);
        first = false;
    }
    OUT_LIT(o, "}");
}

/* Whether s goes into a JSON string as it is: printable ASCII, no quote, no backslash. */
static bool plain_ascii(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\') return false;
    return true;
}

size_t output_json_events_format(char *buf, size_t size, const struct game *g, const struct verdict *v)
{
    struct out o = {buf, buf + size, false};
    if (v->round_ended) {
        const struct round_report *r = &v->report;
        OUT_LIT(&o, "{\"event\":\"round_end\",\"round\":");
        out_int(&o, r->round);
        OUT_LIT(&o, ",\"engine\":");
        out_int(&o, r->engine_pip);
        if (r->out_seat >= 0) {
            OUT_LIT(&o, ",\"reason\":\"out\",\"out\":\"");
            out_str(&o, g->names[r->out_seat]);
            OUT_LIT(&o, "\"");
        } else {
            OUT_LIT(&o, ",\"reason\":\"blocked\",\"out\":null");
        }
        OUT_LIT(&o, ",\"points\":");
        out_names_map(&o, g, r->points, r->in_round);
        OUT_LIT(&o, ",\"totals\":");
        out_names_map(&o, g, g->totals, 0);
        OUT_LIT(&o, "}\n");
    }
    for (int i = 0; i < v->neliminated; i++) {
        int s = v->eliminated[i];
        OUT_LIT(&o, "{\"event\":\"eliminated\",\"player\":\"");
        out_str(&o, g->names[s]);
        OUT_LIT(&o, "\",\"total\":");
        out_int(&o, g->totals[s]);
        OUT_LIT(&o, "}\n");
    }
    if (v->match_ended) {
        OUT_LIT(&o, "{\"event\":\"match_end\",\"totals\":");
        out_names_map(&o, g, g->totals, 0);
        OUT_LIT(&o, ",\"winners\":[");
        bool first = true;
        for (int s = 0; s < g->nplayers; s++)
            if (v->winners[s]) {
                if (!first) OUT_LIT(&o, ",");
                OUT_LIT(&o, "\"");
                out_str(&o, g->names[s]);
                OUT_LIT(&o, "\"");
                first = false;
            }
        if (v->nwinners > 1) OUT_LIT(&o, "],\"draw\":true,\"rules\":[");
        else OUT_LIT(&o, "],\"draw\":false,\"rules\":[");
        for (int i = 0; i < g->rules->nfile_names; i++) {
            if (!plain_ascii(g->rules->file_names[i])) return 0;   /* output_json_string escapes it */
            if (i) OUT_LIT(&o, ",");
            OUT_LIT(&o, "\"");
            out_str(&o, g->rules->file_names[i]);
            OUT_LIT(&o, "\"");
        }
        OUT_LIT(&o, "]}\n");
    }
    return o.full ? 0 : (size_t)(o.p - buf);
}
