/* The screen at the table: lines wrapped at the terminal's width with indentation,
 * colour for what matters now (the player to act, marked trains, the uncovered
 * double, errors, events), and the prompt. Only for a terminal: anything else gets
 * the bytes the referee wrote. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli_screen.h"
#include "engine.h"

#define SGR_ERROR "\033[1;31m"
#define SGR_ACTOR "\033[1;32m"
#define SGR_MARKED "\033[33m"
#define SGR_DOUBLE "\033[1;35m"
#define SGR_EVENT "\033[1m"
#define SGR_OFF "\033[0m"

void cli_screen_init(struct screen *s, FILE *out)
{
    int fd = fileno(out);
    bool tty = fd >= 0 && isatty(fd);
    const char *no_colour = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    s->colour = tty && !(no_colour && no_colour[0]) && !(term && strcmp(term, "dumb") == 0);
    s->width = 0;
    struct winsize ws;
    if (tty && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) s->width = ws.ws_col;
    else if (tty) s->width = 80;
}

static bool starts(const char *line, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(line, prefix, n) == 0;
}

/* needle in seg[0..n), or NULL (memmem is not POSIX). */
static const char *find(const char *seg, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(seg + i, needle, k) == 0) return seg + i;
    return NULL;
}

/* Where a continuation of the line starts: under the text after "legal: ", else four
 * columns in from the line's own indentation. */
static size_t indent_of(const char *line, size_t len)
{
    size_t lead = 0;
    while (lead < len && line[lead] == ' ') lead++;
    if (starts(line + lead, len - lead, "legal: ")) return lead + 7;
    if (starts(line, len, "ok legal: ")) return 10;
    return lead + 4;
}

/* One segment of a line, coloured as the line's kind asks. */
static void put_segment(const struct screen *s, FILE *out, const char *kind_line, size_t kind_len, const char *seg,
                        size_t n, bool first)
{
    if (!s->colour) {
        fwrite(seg, 1, n, out);
        return;
    }
    const char *whole = NULL;
    if (starts(kind_line, kind_len, "  uncovered double ")) whole = SGR_DOUBLE;
    else if (starts(kind_line, kind_len, "round ") && find(kind_line, kind_len, " over (")) whole = SGR_EVENT;
    else if (starts(kind_line, kind_len, "match over: ") || find(kind_line, kind_len, " is eliminated with "))
        whole = SGR_EVENT;
    if (whole) {
        fputs(whole, out);
        fwrite(seg, 1, n, out);
        fputs(SGR_OFF, out);
        return;
    }
    if (first && starts(seg, n, "error line ")) {
        fputs(SGR_ERROR "error" SGR_OFF, out);
        fwrite(seg + 5, 1, n - 5, out);
        return;
    }
    const char *to_play = first ? find(seg, n, " to play, boneyard ") : NULL;
    if (to_play && starts(seg, n, "  ")) {
        fwrite(seg, 1, 2, out);
        fputs(SGR_ACTOR, out);
        fwrite(seg + 2, 1, (size_t)(to_play - seg) - 2, out);
        fputs(SGR_OFF, out);
        fwrite(to_play, 1, n - (size_t)(to_play - seg), out);
        return;
    }
    const char *marked = first && starts(seg, n, "  train ") ? find(seg, n, " marked |") : NULL;
    if (marked) {
        fwrite(seg, 1, (size_t)(marked - seg) + 1, out);
        fputs(SGR_MARKED "marked" SGR_OFF, out);
        fwrite(marked + 7, 1, n - (size_t)(marked - seg) - 7, out);
        return;
    }
    fwrite(seg, 1, n, out);
}

static void write_line(const struct screen *s, FILE *out, const char *line, size_t len)
{
    size_t width = s->width > 0 ? (size_t)s->width : 0;
    if (!width || len <= width) {
        put_segment(s, out, line, len, line, len, true);
        putc('\n', out);
        return;
    }
    size_t indent = indent_of(line, len);
    if (indent > width / 2) indent = 4;
    size_t at = 0;
    bool first = true;
    while (at < len) {
        size_t room = first ? width : width - indent;
        size_t n = len - at;
        if (n > room) {
            n = room;
            while (n > 0 && line[at + n] != ' ') n--;      /* break at the last space that fits */
            if (n == 0) n = room;
        }
        if (!first) fprintf(out, "%*s", (int)indent, "");
        put_segment(s, out, line, len, line + at, n, first);
        putc('\n', out);
        at += n;
        while (at < len && line[at] == ' ') at++;
        first = false;
    }
}

void cli_screen_write(const struct screen *s, FILE *out, const char *text, size_t len)
{
    if (!s->colour && !s->width) {
        fwrite(text, 1, len, out);
        return;
    }
    size_t at = 0;
    while (at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        write_line(s, out, text + at, n);
        at += n + (nl ? 1 : 0);
    }
}

void cli_screen_prompt(const struct screen *s, const struct game *g, char *buf, size_t size)
{
    const char *on = s->colour ? "\001" SGR_ACTOR "\002" : "", *off = s->colour ? "\001" SGR_OFF "\002" : "";
    if (g->nplayers == 0) snprintf(buf, size, "set-up> ");
    else if (game_is_over(g)) snprintf(buf, size, "match over (players starts the next)> ");
    else if (g->phase == PHASE_SETUP && !g->seeded) snprintf(buf, size, "set-up> ");
    else if (game_needs_deal(g) && !g->seeded) snprintf(buf, size, "deal round %d> ", g->round);
    else {
        struct game snap;
        game_snapshot(g, &snap);
        snprintf(buf, size, "round %d, %s%s%s to play> ", snap.round, on, snap.names[snap.turn], off);
    }
}
