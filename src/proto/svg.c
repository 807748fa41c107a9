/* The table as an SVG picture: trains as rows of dominoes with their pips, open
 * ends, markers, the uncovered doubles, hands, and the state of the match.
 *
 * Each pip face of the set (0..12 in double-twelve) is defined once and reused (<use>), so a full table is a
 * few kilobytes. Coordinates are whole pixels and every number is printed as an
 * integer, so the same table gives the same bytes on every machine (the golden
 * pictures of the tests rely on it). */
#include "svg.h"

#include <string.h>

#include "protocol.h"
#include "view.h"

#define HALF 24                 /* a domino's half is a HALF x HALF square */
#define GAP 4                   /* between dominoes */
#define MARGIN 16
#define LABEL_W 128             /* the names' column */
#define TRAIN_ROW 56            /* a train's row: room for an upright double */
#define HAND_ROW 36
#define MIN_WIDTH 720

/* Pip centres in a half, in tenths of a pixel (3 x 3 grid up to 9, 3 x 4 up to 12,
 * 3 x 5 above, for the sets up to double-fifteen). */
static const short pip_xy[TILE_PIPS][TILE_MAX_PIP][2] = {
    [1] = {{120, 120}},
    [2] = {{60, 60}, {180, 180}},
    [3] = {{60, 60}, {120, 120}, {180, 180}},
    [4] = {{60, 60}, {180, 60}, {60, 180}, {180, 180}},
    [5] = {{60, 60}, {180, 60}, {120, 120}, {60, 180}, {180, 180}},
    [6] = {{60, 60}, {180, 60}, {60, 120}, {180, 120}, {60, 180}, {180, 180}},
    [7] = {{60, 60}, {180, 60}, {60, 120}, {120, 120}, {180, 120}, {60, 180}, {180, 180}},
    [8] = {{60, 60}, {120, 60}, {180, 60}, {60, 120}, {180, 120}, {60, 180}, {120, 180}, {180, 180}},
    [9] = {{60, 60}, {120, 60}, {180, 60}, {60, 120}, {120, 120}, {180, 120}, {60, 180}, {120, 180}, {180, 180}},
    [10] = {{60, 45}, {60, 95}, {60, 145}, {60, 195}, {180, 45}, {180, 95}, {180, 145}, {180, 195},
            {120, 95}, {120, 145}},
    [11] = {{60, 45}, {60, 95}, {60, 145}, {60, 195}, {180, 45}, {180, 95}, {180, 145}, {180, 195},
            {120, 45}, {120, 120}, {120, 195}},
    [12] = {{60, 45}, {60, 95}, {60, 145}, {60, 195}, {120, 45}, {120, 95}, {120, 145}, {120, 195},
            {180, 45}, {180, 95}, {180, 145}, {180, 195}},
    [13] = {{60, 40}, {60, 80}, {60, 120}, {60, 160}, {60, 200}, {180, 40}, {180, 80}, {180, 120}, {180, 160},
            {180, 200}, {120, 60}, {120, 120}, {120, 180}},
    [14] = {{60, 40}, {60, 80}, {60, 120}, {60, 160}, {60, 200}, {180, 40}, {180, 80}, {180, 120}, {180, 160},
            {180, 200}, {120, 40}, {120, 95}, {120, 145}, {120, 200}},
    [15] = {{60, 40}, {60, 80}, {60, 120}, {60, 160}, {60, 200}, {120, 40}, {120, 80}, {120, 120}, {120, 160},
            {120, 200}, {180, 40}, {180, 80}, {180, 120}, {180, 160}, {180, 200}},
};

/* One colour per pip count, as double-twelve sets colour them: tells 11 from 12 at a glance. */
static const char *const pip_colour[TILE_PIPS] = {
    "#000", "#1f5fbf", "#1a8a3a", "#c62828", "#6a3d9a", "#d66a00", "#00796b",
    "#7b4f1d", "#c2185b", "#37474f", "#283593", "#8e0000", "#2e7d32", "#ad1457", "#4527a0", "#ef6c00",
};

void svg_options_default(struct svg_options *o)
{
    memset(o, 0, sizeof *o);
    o->as_seat = -1;
    o->highlight = TILE_NONE;
    o->highlight_seat = -1;
}

bool svg_hand_visible(const struct game *g, const struct svg_options *o, int seat)
{
    return o->as_seat < 0 || o->as_seat >= g->nplayers || o->as_seat == seat;
}

/* What the picture shows of seat s's hand: its size, and its tiles face up (none for
 * a hand the viewer may not see). With a viewer both come from the engine's per-seat
 * view, so the picture cannot show what that view does not. */
static tileset hand_seen(const struct game *g, const struct svg_options *o, int s, int *size)
{
    if (svg_hand_visible(g, o, s) && o->as_seat < 0) {
        *size = tileset_count(g->hands[s]);
        return g->hands[s];
    }
    struct seat_view v;
    view_of(g, o->as_seat, &v);
    *size = v.hand_size[s];
    return s == o->as_seat ? v.hand : tileset_empty();
}

void svg_escape(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c < 0x80) {
            if (c == '&') fputs("&amp;", out);
            else if (c == '<') fputs("&lt;", out);
            else if (c == '>') fputs("&gt;", out);
            else if (c == '"') fputs("&quot;", out);
            else if (c == '\'') fputs("&apos;", out);
            else putc(c < 0x20 || c == 0x7f ? '?' : (int)c, out);
            p++;
            continue;
        }
        size_t len = strlen((const char *)p);
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (need > len || !protocol_utf8_valid((const char *)p, need)) {
            fputs("\xEF\xBF\xBD", out);
            p++;
            continue;
        }
        fwrite(p, 1, need, out);
        p += need;
    }
}

static bool seat_in_play(const struct game *g, int t)
{
    return t == TRAIN_MEX || (t < g->nplayers && !g->eliminated[t]);
}

static bool on_table(const struct game *g) { return g->phase == PHASE_PLAYING || g->phase == PHASE_DEALING; }

static void write_defs(FILE *out, int max_pip)
{
    fputs("<defs>\n", out);
    for (int pip = 0; pip <= max_pip; pip++) {
        fprintf(out, "<g id=\"p%d\" fill=\"%s\">", pip, pip_colour[pip]);
        for (int i = 0; i < pip; i++)
            fprintf(out, "<circle cx=\"%d.%d\" cy=\"%d.%d\" r=\"%s\"/>", pip_xy[pip][i][0] / 10,
                    pip_xy[pip][i][0] % 10, pip_xy[pip][i][1] / 10, pip_xy[pip][i][1] % 10,
                    pip > 12 ? "1.7" : pip > 9 ? "2" : "2.5");
        fputs("</g>\n", out);
    }
    /* the marker a player puts on their train (R11): a little red house */
    fputs("<g id=\"marker\"><polygon points=\"0,7 8,0 16,7 16,18 0,18\" fill=\"#d32f2f\" stroke=\"#7f0000\"/>"
          "</g>\n</defs>\n", out);
}

/* A domino at (x, y): first/second are the pips of its left (top) and right (bottom)
 * halves. Returns its width. */
static int domino(FILE *out, int x, int y, int first, int second, bool upright, const char *extra_class)
{
    char text[TILE_TEXT_SIZE];
    tile_format(tile_from_pips(first, second), text);
    int w = upright ? HALF : 2 * HALF, h = upright ? 2 * HALF : HALF;
    fprintf(out, "<g transform=\"translate(%d,%d)\"><title>%s</title>", x, y, text);
    fprintf(out, "<rect class=\"t%s%s\" width=\"%d\" height=\"%d\" rx=\"4\"/>", extra_class ? " " : "",
            extra_class ? extra_class : "", w, h);
    if (upright) fprintf(out, "<path class=\"s\" d=\"M3 %dH%d\"/>", HALF, HALF - 3);
    else fprintf(out, "<path class=\"s\" d=\"M%d 3V%d\"/>", HALF, HALF - 3);
    if (first) fprintf(out, "<use xlink:href=\"#p%d\"/>", first);
    if (second) fprintf(out, "<use xlink:href=\"#p%d\" %s=\"%d\"/>", second, upright ? "y" : "x", HALF);
    fputs("</g>\n", out);
    return w;
}

static void text_at(FILE *out, int x, int y, const char *cls, const char *s)
{
    fprintf(out, "<text x=\"%d\" y=\"%d\"%s%s%s>", x, y, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    svg_escape(out, s);
    fputs("</text>\n", out);
}

static bool is_uncovered(const struct game *g, int t, int index)
{
    const struct train *tr = &g->trains[t];
    if (index != tr->length - 1) return false;       /* an uncovered double ends its train */
    for (int i = 0; i < g->ndoubles; i++)
        if (g->doubles[i].train == t && tile_double(g->doubles[i].pip) == tr->tiles[index]) return true;
    return false;
}

/* The width a train's row needs after the names' column. */
static int train_width(const struct game *g, const struct train *tr)
{
    int w = HALF + GAP;                                  /* the engine's end */
    for (int i = 0; i < tr->length; i++) w += (tile_is_double(tr->tiles[i]) ? HALF : 2 * HALF) + GAP;
    (void)g;
    return w + HALF + 220;                               /* the open end and its note */
}

static void draw_train(FILE *out, const struct game *g, int t, int y)
{
    const struct train *tr = &g->trains[t];
    char note[96];
    int mid = y + TRAIN_ROW / 2;
    text_at(out, MARGIN, mid + 5, "n", game_train_name(g, t));
    if (tr->marker)
        fprintf(out, "<use xlink:href=\"#marker\" x=\"%d\" y=\"%d\"><title>marker: open to all</title></use>\n",
                MARGIN + LABEL_W - 30, mid - 9);
    int x = MARGIN + LABEL_W;
    /* the engine's side this train starts from */
    fprintf(out, "<g transform=\"translate(%d,%d)\"><title>engine %d-%d</title><rect class=\"e\" width=\"%d\" "
            "height=\"%d\" rx=\"4\"/>", x, mid - HALF / 2, g->engine_pip, g->engine_pip, HALF, HALF);
    if (g->engine_pip) fprintf(out, "<use xlink:href=\"#p%d\"/>", g->engine_pip);
    fputs("</g>\n", out);
    x += HALF + GAP;
    int open = g->engine_pip;
    for (int i = 0; i < tr->length; i++) {
        tile_t tile = tr->tiles[i];
        int far = tile_other_pip(tile, open);
        bool dbl = tile_is_double(tile);
        x += domino(out, x, dbl ? mid - HALF : mid - HALF / 2, open, far, dbl, is_uncovered(g, t, i) ? "u" : NULL)
             + GAP;
        open = far;
    }
    fprintf(out, "<rect class=\"o\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\"><title>open end %d"
            "</title></rect>\n", x, mid - HALF / 2, HALF, HALF, tr->open_pip);
    snprintf(note, sizeof note, "%d", tr->open_pip);
    text_at(out, x + HALF / 2, mid + 5, "c", note);
    x += HALF + 2 * GAP;
    if (tr->length && is_uncovered(g, t, tr->length - 1)) {
        /* several (doubles-anywhere rules): the queue's head is covered first */
        int head = g->rules->doubles == DOUBLES_ANYWHERE_LIFO ? g->ndoubles - 1 : 0;
        bool first = g->ndoubles < 2 || g->doubles[head].train == t;
        snprintf(note, sizeof note, "uncovered double %d-%d: %s", open, open,
                 first ? "must be covered" : "queued, covered in its turn");
        text_at(out, x, mid + 5, "w", note);
    } else if (tr->marker) {
        text_at(out, x, mid + 5, NULL, "marked: open to all");
    }
}

static void draw_hand(FILE *out, const struct game *g, const struct svg_options *o, int s, int y)
{
    char label[64];
    int mid = y + HAND_ROW / 2;
    int n;
    tileset hand = hand_seen(g, o, s, &n);
    if (g->phase == PHASE_PLAYING && g->turn == s && !o->round_over)
        fprintf(out, "<polygon class=\"turn\" points=\"%d,%d %d,%d %d,%d\"><title>to play</title></polygon>\n",
                MARGIN - 12, mid - 6, MARGIN - 2, mid, MARGIN - 12, mid + 6);
    text_at(out, MARGIN, mid + 5, "n", g->names[s]);
    snprintf(label, sizeof label, "%d", n);
    text_at(out, MARGIN + LABEL_W - 36, mid + 5, "k", label);
    int x = MARGIN + LABEL_W;
    if (!g->dealt[s] && g->phase == PHASE_DEALING) {
        text_at(out, x, mid + 5, NULL, "not dealt yet");
        return;
    }
    if (!svg_hand_visible(g, o, s)) {
        for (int i = 0; i < n; i++, x += 2 * HALF + GAP)
            fprintf(out, "<rect class=\"b\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\"/>\n", x,
                    mid - HALF / 2, 2 * HALF, HALF);
        return;
    }
    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
        bool ring = s == o->highlight_seat && t == o->highlight;
        x += domino(out, x, mid - HALF / 2, tile_low(t), tile_high(t), false, ring ? "h" : NULL) + GAP;
    }
}

static int hand_width(const struct game *g, int s) { return tileset_count(g->hands[s]) * (2 * HALF + GAP); }

static const char *rules_text(const struct game *g)
{
    return g->rules->names && g->rules->names[0] ? g->rules->names : "canonical";
}

void svg_write(FILE *out, const struct game *g, const struct svg_options *o)
{
    char text[256];
    int nnotes = 0;
    while (nnotes < SVG_NOTES && o->notes[nnotes]) nnotes++;
    bool table = on_table(g);
    int width = MIN_WIDTH, y0 = MARGIN + 18 + 24 + 20 * nnotes + 34, height = y0;
    if (table) {
        for (int t = 0; t < TRAIN_COUNT; t++) {
            if (!seat_in_play(g, t)) continue;
            int w = MARGIN + LABEL_W + train_width(g, &g->trains[t]);
            if (w > width) width = w;
            height += TRAIN_ROW;
        }
        height += 28;
        for (int s = 0; s < g->nplayers; s++) {
            if (g->eliminated[s]) continue;
            int w = MARGIN * 2 + LABEL_W + hand_width(g, s);
            if (w > width) width = w;
            height += HAND_ROW;
        }
    } else {
        height += 28;
    }
    height += 28 + 28 + MARGIN;

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"14\">\n",
            width, height, width, height);
    snprintf(text, sizeof text, "Mexican Train, round %d of %d", g->round, g->rounds);
    fputs("<title>", out);
    svg_escape(out, text);
    if (o->line > 0) fprintf(out, ", after line %ld", o->line);
    fputs("</title>\n", out);
    fputs("<style>.t{fill:#fffdf6;stroke:#333;stroke-width:1.5}.s{stroke:#999;stroke-width:1}"
          ".e{fill:#d9d4c7;stroke:#777}.o{fill:none;stroke:#555;stroke-dasharray:3 3}"
          ".u{stroke:#f57c00;stroke-width:4}.h{stroke:#1565c0;stroke-width:4}"
          ".b{fill:#455a64;stroke:#263238}.turn{fill:#1565c0}"
          ".n{font-weight:bold}.k{fill:#555}.c{text-anchor:middle;fill:#555}.w{fill:#e65100;font-weight:bold}"
          ".h1{font-size:18px;font-weight:bold}.sec{font-weight:bold;fill:#555}</style>\n", out);
    write_defs(out, g->rules->max_pip);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#eef3ea\"/>\n", width, height);

    int y = MARGIN + 18;
    if (g->phase == PHASE_SETUP) snprintf(text, sizeof text, "Round %d of %d, set-up", g->round, g->rounds);
    else snprintf(text, sizeof text, "Round %d of %d, engine %d-%d", g->round, g->rounds, g->engine_pip, g->engine_pip);
    text_at(out, MARGIN, y, "h1", text);
    y += 24;
    fprintf(out, "<text x=\"%d\" y=\"%d\">Rules: ", MARGIN, y);
    svg_escape(out, rules_text(g));
    if (o->line > 0) fprintf(out, ". After line %ld", o->line);
    if (o->round_over) fprintf(out, ". The round is over, boneyard %d", tileset_count(g->boneyard));
    else if (g->phase == PHASE_PLAYING) {
        fputs(". ", out);
        svg_escape(out, g->names[g->turn]);
        fprintf(out, " to play, boneyard %d", tileset_count(g->boneyard));
    }
    else if (g->phase == PHASE_DEALING) fprintf(out, ". Waiting for the deal, boneyard %d", tileset_count(g->boneyard));
    fputs(".</text>\n", out);
    for (int i = 0; i < nnotes; i++) {
        y += 20;
        text_at(out, MARGIN, y, i == 0 ? "n" : NULL, o->notes[i]);
    }
    y = y0;
    if (table) {
        text_at(out, MARGIN, y - 6, "sec", "Trains");
        for (int t = 0; t < TRAIN_COUNT; t++) {
            if (!seat_in_play(g, t)) continue;
            draw_train(out, g, t, y);
            y += TRAIN_ROW;
        }
        y += 28;
        if (o->as_seat >= 0 && o->as_seat < g->nplayers) {
            snprintf(text, sizeof text, "Hands, as %s sees them", g->names[o->as_seat]);
            text_at(out, MARGIN, y - 8, "sec", text);
        } else {
            text_at(out, MARGIN, y - 8, "sec", "Hands");
        }
        for (int s = 0; s < g->nplayers; s++) {
            if (g->eliminated[s]) continue;
            draw_hand(out, g, o, s, y);
            y += HAND_ROW;
        }
    } else {
        y += 8;
        text_at(out, MARGIN, y, NULL, g->phase == PHASE_OVER ? "The match is over."
                                      : g->nplayers ? "Waiting for the deal." : "Waiting for players.");
        y += 20;
    }
    y += 24;
    fprintf(out, "<text x=\"%d\" y=\"%d\"><tspan class=\"n\">Totals:</tspan>", MARGIN, y);
    for (int s = 0; s < g->nplayers; s++) {
        fputs(s ? ", " : " ", out);
        svg_escape(out, g->names[s]);
        fprintf(out, " %lld%s", (long long)g->totals[s], g->eliminated[s] ? " (out)" : "");
    }
    fputs("</text>\n", out);
    y += 28;
    fprintf(out, "<use xlink:href=\"#marker\" x=\"%d\" y=\"%d\"/>", MARGIN, y - 14);
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"k\">marker</text>", MARGIN + 22, y);
    fprintf(out, "<rect class=\"o\" x=\"%d\" y=\"%d\" width=\"18\" height=\"18\" rx=\"3\"/>", MARGIN + 90, y - 14);
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"k\">open end</text>", MARGIN + 114, y);
    fprintf(out, "<rect class=\"t u\" x=\"%d\" y=\"%d\" width=\"18\" height=\"18\" rx=\"3\"/>", MARGIN + 196, y - 14);
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"k\">uncovered double</text>", MARGIN + 220, y);
    fprintf(out, "<rect class=\"b\" x=\"%d\" y=\"%d\" width=\"18\" height=\"18\" rx=\"3\"/>", MARGIN + 350, y - 14);
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"k\">hidden tile</text>\n", MARGIN + 374, y);
    fputs("</svg>\n", out);
}
