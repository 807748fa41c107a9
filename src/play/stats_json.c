/* The journal's JSON reader. */
#include "stats_json.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define JDEPTH 24

struct parser {
    struct stats_json *d;
    const char *s;
    size_t len, pos;
};

static void ws(struct parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos]) p->pos++;
}

static int new_node(struct parser *p, enum stats_json_type t)
{
    struct stats_json *d = p->d;
    if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 64;
        struct stats_json_value *v = mt_realloc(d->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        d->v = v;
        d->cap = cap;
    }
    struct stats_json_value *v = &d->v[d->n];
    memset(v, 0, sizeof *v);
    v->type = t;
    v->first = v->next = -1;
    v->start = p->pos;
    return d->n++;
}

/* Decoded strings live in one buffer; offsets are turned into pointers at the end. */
static long add_string(struct parser *p, const char *text, size_t n)
{
    struct stats_json *d = p->d;
    if (d->slen + n + 1 > d->scap) {
        size_t cap = d->scap ? d->scap : 256;
        while (cap < d->slen + n + 1) cap *= 2;
        char *s = mt_realloc(d->strings, cap);
        if (!s) return -1;
        d->strings = s;
        d->scap = cap;
    }
    long at = (long)d->slen;
    memcpy(d->strings + d->slen, text, n);
    d->strings[d->slen + n] = '\0';
    d->slen += n + 1;
    return at;
}

/* A string at p->pos; its offset in the string buffer, or -1. Escapes \uXXXX beyond
 * ASCII become '?': the journal writes none. */
static long read_str(struct parser *p)
{
    if (p->pos >= p->len || p->s[p->pos] != '"') return -1;
    p->pos++;
    char *tmp = mt_malloc(p->len - p->pos + 1);
    if (!tmp) return -1;
    size_t k = 0;
    while (p->pos < p->len) {
        char c = p->s[p->pos++];
        if (c == '"') {
            long at = add_string(p, tmp, k);
            free(tmp);
            return at;
        }
        if ((unsigned char)c < 0x20) break;
        if (c != '\\') { tmp[k++] = c; continue; }
        if (p->pos >= p->len) break;
        char e = p->s[p->pos++];
        if (e == 'u') {
            if (p->len - p->pos < 4) break;
            unsigned u = (unsigned)strtoul((char[5]){p->s[p->pos], p->s[p->pos + 1], p->s[p->pos + 2], p->s[p->pos + 3], 0}, NULL, 16);
            p->pos += 4;
            tmp[k++] = u > 0 && u < 0x80 ? (char)u : '?';
            continue;
        }
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *at = strchr(from, e);
        if (!at || !e) break;
        tmp[k++] = to[at - from];
    }
    free(tmp);
    return -1;
}

static int value(struct parser *p, int depth);

/* Children of an array or object; string offsets are kept in key (as an integer). */
static bool members(struct parser *p, int node, int depth, char close)
{
    p->pos++;
    ws(p);
    int last = -1;
    if (p->pos < p->len && p->s[p->pos] == close) { p->pos++; return true; }
    for (;;) {
        long key = -1;
        if (close == '}') {
            ws(p);
            if ((key = read_str(p)) < 0) return false;
            ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':') return false;
            p->pos++;
        }
        int child = value(p, depth + 1);
        if (child < 0) return false;
        p->d->v[child].key = (const char *)(intptr_t)(key + 1);   /* fixed up later; 0 = none */
        if (last < 0) p->d->v[node].first = child;
        else p->d->v[last].next = child;
        last = child;
        ws(p);
        if (p->pos >= p->len) return false;
        if (p->s[p->pos] == ',') { p->pos++; continue; }
        if (p->s[p->pos] == close) { p->pos++; return true; }
        return false;
    }
}

static int value(struct parser *p, int depth)
{
    ws(p);
    if (p->pos >= p->len || depth > JDEPTH) return -1;
    char c = p->s[p->pos];
    int node;
    if (c == '{' || c == '[') {
        node = new_node(p, c == '{' ? STATS_JSON_OBJ : STATS_JSON_ARR);
        if (node < 0 || !members(p, node, depth, c == '{' ? '}' : ']')) return -1;
    } else if (c == '"') {
        node = new_node(p, STATS_JSON_STR);
        long at = node < 0 ? -1 : read_str(p);
        if (at < 0) return -1;
        p->d->v[node].str = (const char *)(intptr_t)(at + 1);
    } else if (c == 't' || c == 'f' || c == 'n') {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(word);
        if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0) return -1;
        node = new_node(p, c == 'n' ? STATS_JSON_NULL : STATS_JSON_BOOL);
        if (node < 0) return -1;
        p->d->v[node].num = c == 't';
        p->pos += n;
    } else {
        char buf[40];
        size_t k = 0;
        while (p->pos + k < p->len && k < sizeof buf - 1 && strchr("-+.eE0123456789", p->s[p->pos + k]) &&
               p->s[p->pos + k])
            k++;
        if (k == 0) return -1;
        memcpy(buf, p->s + p->pos, k);
        buf[k] = '\0';
        char *end;
        double x = strtod(buf, &end);
        if (*end) return -1;
        node = new_node(p, STATS_JSON_NUM);
        if (node < 0) return -1;
        p->d->v[node].num = x;
        p->pos += k;
    }
    p->d->v[node].end = p->pos;
    return node;
}

bool stats_json_parse(struct stats_json *d, const char *line, size_t len)
{
    memset(d, 0, sizeof *d);
    struct parser p = {d, line, len, 0};
    int root = value(&p, 0);
    ws(&p);
    if (root != 0 || p.pos != len) {
        stats_json_free(d);
        return false;
    }
    for (int i = 0; i < d->n; i++) {        /* offsets -> pointers, now that strings stay put */
        intptr_t k = (intptr_t)d->v[i].key, s = (intptr_t)d->v[i].str;
        d->v[i].key = k ? d->strings + (k - 1) : NULL;
        d->v[i].str = s ? d->strings + (s - 1) : NULL;
    }
    return true;
}

void stats_json_free(struct stats_json *d)
{
    if (!d) return;
    free(d->v);
    free(d->strings);
    memset(d, 0, sizeof *d);
}

const struct stats_json_value *stats_json_get(const struct stats_json *d, const struct stats_json_value *o,
                                              const char *key)
{
    if (!o || o->type != STATS_JSON_OBJ) return NULL;
    for (int i = o->first; i >= 0; i = d->v[i].next)
        if (d->v[i].key && strcmp(d->v[i].key, key) == 0) return &d->v[i];
    return NULL;
}

const struct stats_json_value *stats_json_at(const struct stats_json *d, const struct stats_json_value *a, int index)
{
    if (!a || (a->type != STATS_JSON_ARR && a->type != STATS_JSON_OBJ)) return NULL;
    int k = 0;
    for (int i = a->first; i >= 0; i = d->v[i].next, k++)
        if (k == index) return &d->v[i];
    return NULL;
}

int stats_json_count(const struct stats_json *d, const struct stats_json_value *a)
{
    int k = 0;
    if (!a || (a->type != STATS_JSON_ARR && a->type != STATS_JSON_OBJ)) return 0;
    for (int i = a->first; i >= 0; i = d->v[i].next) k++;
    return k;
}
