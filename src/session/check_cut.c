/* Where check --jobs cuts a stream: walking the lines back from a chunk's end. */
#define _GNU_SOURCE               /* memrchr */
#include "check_cut.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* pread of exactly len bytes at offset; false with *err set (EIO when the file has
 * become shorter meanwhile) */
size_t check_read_upto(int fd, char *buf, size_t len, off_t offset, int *err)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, buf + got, len - got, offset + (off_t)got);
        if (n > 0) {
            got += (size_t)n;
            continue;
        }
        if (n == 0) break;
        if (errno == EINTR) continue;
        *err = errno;
        break;
    }
    return got;
}

bool check_read_at(int fd, char *buf, size_t len, off_t offset, int *err)
{
    int e = 0;
    if (check_read_upto(fd, buf, len, offset, &e) == len) return true;
    *err = e ? e : EIO;
    return false;
}

/* Whether a line starting at s (before end) is a `players` line as records write it. */
static bool players_at(const char *s, const char *end)
{
    if (end - s < 8 || memcmp(s, "players", 7) != 0) return false;
    return s[7] == ' ' || s[7] == '\t';
}

static bool rules_at(const char *s, const char *end)
{
    return end - s >= 6 && memcmp(s, "rules", 5) == 0 && (s[5] == ' ' || s[5] == '\t');
}

/* Where to cut text[0..len) (more follows): just before its last `players` line past
 * the start, and before the `rules` lines right above it; else after its last newline;
 * 0 when it holds no newline. The lines are walked back from the end, one memrchr
 * each: a match is far shorter than a chunk, so the walk stops within the last match
 * or so, where a search forward reads the whole tail of the chunk. *whole: the cut is
 * before a `players` line and the walk up its `rules` lines ended on another line of
 * text (not at text[0], which may be the middle of a line when text is a window). */
size_t check_cut_point(const char *text, size_t len, bool *whole)
{
    const char *end = text + len;
    const char *found = NULL;
    *whole = false;
    /* the line after the newline at nl; the first line (text[0]) does not count: a
     * cut there would leave the chunk before empty */
    for (const char *nl = memrchr(text, '\n', len); nl;
         nl = nl > text ? memrchr(text, '\n', (size_t)(nl - text)) : NULL) {
        if (players_at(nl + 1, end)) {
            found = nl + 1;
            break;
        }
    }
    if (found) {
        /* take the match's `rules` lines (and the comments among them) along */
        const char *cut = found;
        while (cut > text + 1) {
            const char *prev = memrchr(text, '\n', (size_t)(cut - 1 - text));
            const char *line = prev ? prev + 1 : text;
            if (line == text) break;
            if (!rules_at(line, end) && line[0] != '#') {
                *whole = true;
                break;
            }
            cut = line;
        }
        return (size_t)(cut - text);
    }
    const char *nl = memrchr(text, '\n', len);
    return nl ? (size_t)(nl + 1 - text) : 0;
}

/* The cut of the chunk of a regular file that starts at offset pos (chunk_bytes
 * long, and more follows), found by reading only windows at its end into win
 * (chunk_bytes long), each twice the one before until one holds a `players` line
 * with the lines above it; the whole chunk, cut after its last newline, when none
 * does. 0: no such cut (the file ends within the chunk, a read failed, or no line
 * ends in it): the caller reads on as from a pipe. */
size_t check_cut_in_file(int fd, off_t pos, size_t chunk_bytes, char *win)
{
    for (size_t w = chunk_bytes < 32768 ? chunk_bytes : 32768;; w = 2 * w < chunk_bytes ? 2 * w : chunk_bytes) {
        off_t from = pos + (off_t)(chunk_bytes - w);
        int err = 0;
        if (!check_read_at(fd, win, w, from, &err)) return 0;
        bool whole;
        size_t cut = check_cut_point(win, w, &whole);
        /* the window's first byte starts a line only when it is the chunk's */
        if (cut > 0 && (whole || w == chunk_bytes)) return chunk_bytes - w + cut;
        if (w == chunk_bytes) return 0;
    }
}

