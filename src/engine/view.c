/* The private view of one seat, and its two printed forms. */
#include "view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void view_of(const struct game *g, int seat, struct seat_view *v)
{
    memset(v, 0, sizeof *v);
    v->seat = seat;
    v->nplayers = g->nplayers;
    memcpy(v->names, g->names, sizeof v->names);
    v->phase = g->phase;
    v->round = g->round;
    v->rounds = g->rounds;
    v->engine_pip = g->phase == PHASE_SETUP ? -1 : g->engine_pip;
    v->turn = g->phase == PHASE_PLAYING ? g->turn : -1;
    v->draws = g->phase == PHASE_PLAYING ? g->draws : 0;
    v->boneyard = g->phase == PHASE_SETUP ? 0 : tileset_count(g->boneyard);
    for (int s = 0; s < g->nplayers; s++) {
        v->eliminated[s] = g->eliminated[s];
        v->dealt[s] = g->dealt[s];
        v->hand_size[s] = tileset_count(g->hands[s]);
        v->totals[s] = g->totals[s];
    }
    v->hand = g->hands[seat];
#ifdef MTREF_VIEW_LEAK
    /* a planted leak for the tests that must catch it (test_view_leak, and the spy bot
     * against a build of mtref with it): in odd rounds, the next seat's lowest tile
     * shows in this seat's hand */
    int next = (seat + 1) % (g->nplayers ? g->nplayers : 1);
    if (next != seat && !tileset_is_empty(g->hands[next]) && g->round % 2 == 1)
        tileset_add(&v->hand, tileset_first(g->hands[next]));
#endif
    if (g->phase == PHASE_SETUP) return;
    for (int t = 0; t < TRAIN_COUNT; t++) {
        if (t != TRAIN_MEX && (t >= g->nplayers || g->eliminated[t])) continue;
        const struct train *from = &g->trains[t];
        struct train *to = &v->trains[t];
        to->open_pip = from->open_pip;
        to->marker = from->marker;
        to->length = from->length;
        memcpy(to->tiles, from->tiles, (size_t)from->length);
    }
    v->ndoubles = g->ndoubles;
    for (int i = 0; i < g->ndoubles; i++) v->doubles[i] = g->doubles[i];
}

/* A bounded text builder: writes what fits, always NUL-terminated, counts it all. */
struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
    if (o->len >= o->size && o->size) {
        o->len = o->size - 1;       /* cut, never overflowed */
        o->buf[o->len] = '\0';
    }
}

/* The same without printf, for the hot lines (a bot gets a view per decision). */
static void put_bytes(struct out *o, const char *data, size_t n)
{
    if (!o->size) return;
    size_t room = o->size - 1 - o->len;       /* len < size always holds */
    size_t k = n < room ? n : room;
    memcpy(o->buf + o->len, data, k);
    o->len += k;
    o->buf[o->len] = '\0';
}

static void put_str(struct out *o, const char *s) { put_bytes(o, s, strlen(s)); }

size_t view_decimal(long long n, char out[VIEW_DECIMAL_SIZE])
{
    char digits[VIEW_DECIMAL_SIZE];
    int k = (int)sizeof digits;
    unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
    do digits[--k] = (char)('0' + u % 10); while ((u /= 10) != 0);
    if (n < 0) digits[--k] = '-';
    size_t len = sizeof digits - (size_t)k;
    memcpy(out, digits + k, len);
    return len;
}

static void put_num(struct out *o, long long n)
{
    char digits[VIEW_DECIMAL_SIZE];
    put_bytes(o, digits, view_decimal(n, digits));
}

/* " A-B" (sep, then the pips as given) */
static void put_pips(struct out *o, char sep, int a, int b)
{
    char text[8];
    int k = 0;
    text[k++] = sep;
    if (a >= 10) text[k++] = (char)('0' + a / 10);
    text[k++] = (char)('0' + a % 10);
    text[k++] = '-';
    if (b >= 10) text[k++] = (char)('0' + b / 10);
    text[k++] = (char)('0' + b % 10);
    put_bytes(o, text, (size_t)k);
}

const char *view_train_name(const struct seat_view *v, int t)
{
    return t == TRAIN_MEX ? "mex" : v->names[t];
}

static bool train_shown(const struct seat_view *v, int t)
{
    return t == TRAIN_MEX || (t < v->nplayers && !v->eliminated[t]);
}

/* A train's tiles as laid; in text each with the pip that touches the train first. */
static void put_train_tiles(struct out *o, const struct seat_view *v, const struct train *tr, bool json)
{
    char text[TILE_TEXT_SIZE];
    int open = v->engine_pip;
    for (int i = 0; i < tr->length; i++) {
        int far = tile_other_pip(tr->tiles[i], open);
        if (json) {         /* as `show` has them: each tile low pip first */
            tile_format(tr->tiles[i], text);
            put(o, "%s\"%s\"", i ? "," : "", text);
        } else {
            put_pips(o, ' ', open, far);
        }
        open = far;
    }
}

static void put_hand(struct out *o, tileset hand, bool json)
{
    char text[TILE_TEXT_SIZE];
    bool first = true;
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE; first = false) {
        if (json) {
            tile_format(t, text);
            put(o, "%s\"%s\"", first ? "" : ",", text);
        } else {
            put_pips(o, ' ', tile_low(t), tile_high(t));
        }
    }
}

size_t view_format_lines(const struct seat_view *v, char *buf, size_t size)
{
    struct out o = {buf, size, 0};
    if (size) buf[0] = '\0';
    put_str(&o, "view ");
    put_str(&o, v->names[v->seat]);
    put_str(&o, " round ");
    put_num(&o, v->round);
    put_str(&o, " of ");
    put_num(&o, v->rounds);
    put_str(&o, " engine ");
    if (v->engine_pip < 0) put_str(&o, "-");
    else put_num(&o, v->engine_pip);
    put_str(&o, " turn ");
    put_str(&o, v->turn >= 0 ? v->names[v->turn] : "-");
    put_str(&o, " boneyard ");
    put_num(&o, v->boneyard);
    put_str(&o, "\nhand");
    put_hand(&o, v->hand, false);
    put_str(&o, "\n");
    if (v->engine_pip >= 0) {
        for (int t = 0; t < TRAIN_COUNT; t++) {
            if (!train_shown(v, t)) continue;
            const struct train *tr = &v->trains[t];
            put_str(&o, "train ");
            put_str(&o, view_train_name(v, t));
            put_str(&o, " ");
            put_num(&o, tr->open_pip);
            put_str(&o, tr->marker ? " marked" : " unmarked");
            put_train_tiles(&o, v, tr, false);
            put_str(&o, "\n");
        }
    }
    for (int i = 0; i < v->ndoubles; i++) {
        put_str(&o, "uncovered");
        put_pips(&o, ' ', v->doubles[i].pip, v->doubles[i].pip);
        put_str(&o, " ");
        put_str(&o, view_train_name(v, v->doubles[i].train));
        put_str(&o, "\n");
    }
    put_str(&o, "sizes");
    for (int s = 0; s < v->nplayers; s++) {
        if (v->eliminated[s]) continue;
        put_str(&o, " ");
        put_str(&o, v->names[s]);
        put_str(&o, " ");
        put_num(&o, v->hand_size[s]);
    }
    put_str(&o, "\ntotals");
    for (int s = 0; s < v->nplayers; s++) {
        put_str(&o, " ");
        put_str(&o, v->names[s]);
        put_str(&o, " ");
        put_num(&o, (long long)v->totals[s]);
    }
    put_str(&o, "\n");
    return o.len;
}

size_t view_format_json(const struct seat_view *v, char *buf, size_t size)
{
    static const char *const phases[] = {"setup", "dealing", "playing", "over"};
    struct out o = {buf, size, 0};
    if (size) buf[0] = '\0';
    put(&o, "\"player\":\"%s\",\"phase\":\"%s\",\"round\":%d,\"rounds\":%d,\"engine\":", v->names[v->seat],
        phases[v->phase], v->round, v->rounds);
    if (v->engine_pip < 0) put(&o, "null");
    else put(&o, "%d", v->engine_pip);
    if (v->turn >= 0) put(&o, ",\"turn\":\"%s\"", v->names[v->turn]);
    put(&o, ",\"boneyard\":%d,\"trains\":[", v->boneyard);
    bool first = true;
    for (int t = 0; t < TRAIN_COUNT; t++) {
        if (!train_shown(v, t)) continue;
        const struct train *tr = &v->trains[t];
        put(&o, "%s{\"train\":\"%s\",\"open\":", first ? "" : ",", view_train_name(v, t));
        if (v->engine_pip < 0) put(&o, "null");
        else put(&o, "%d", tr->open_pip);
        put(&o, ",\"marker\":%s,\"tiles\":[", tr->marker ? "true" : "false");
        put_train_tiles(&o, v, tr, true);
        put(&o, "]}");
        first = false;
    }
    put(&o, "],\"uncovered\":[");
    char text[TILE_TEXT_SIZE];
    for (int i = 0; i < v->ndoubles; i++) {
        tile_format(tile_double(v->doubles[i].pip), text);
        put(&o, "%s{\"double\":\"%s\",\"train\":\"%s\"}", i ? "," : "", text, view_train_name(v, v->doubles[i].train));
    }
    put(&o, "],\"hand\":[");
    put_hand(&o, v->hand, true);
    put(&o, "],\"hand_sizes\":{");
    first = true;
    for (int s = 0; s < v->nplayers; s++) {
        if (v->eliminated[s]) continue;
        put(&o, "%s\"%s\":%d", first ? "" : ",", v->names[s], v->hand_size[s]);
        first = false;
    }
    put(&o, "},\"totals\":{");
    for (int s = 0; s < v->nplayers; s++) put(&o, "%s\"%s\":%lld", s ? "," : "", v->names[s], (long long)v->totals[s]);
    put(&o, "}");
    return o.len;
}
