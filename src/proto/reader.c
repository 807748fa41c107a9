/* The line reader: bytes from a descriptor -> lines, in constant memory. */
#include "reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

bool reader_open(struct reader *r, int fd, size_t limit)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->limit = limit;
    r->buf = mt_malloc(READER_BUFFER_SIZE + limit + 1);
    return r->buf != NULL;
}

void reader_close(struct reader *r)
{
    if (!r) return;
    free(r->buf);
    r->buf = NULL;
}

/* Moves unread bytes to the front and reads more; false at end of input or error. */
static bool fill(struct reader *r)
{
    if (r->eof) return false;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    size_t room = READER_BUFFER_SIZE + r->limit + 1 - r->end;
    if (r->before_wait) r->before_wait(r->ctx);
    for (;;) {
        ssize_t got = read(r->fd, r->buf + r->end, room);
        if (got > 0) { r->end += (size_t)got; return true; }
        if (got == 0) { r->eof = true; return false; }
        if (errno == EINTR) continue;
        r->error = errno;
        r->eof = true;
        return false;
    }
}

/* Skips to just past the next newline (or end of input). */
static void skip_line(struct reader *r)
{
    for (;;) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (nl) { r->start = (size_t)(nl - r->buf) + 1; return; }
        r->start = r->end;
        if (!fill(r)) return;
    }
}

bool reader_next(struct reader *r, struct line *out)
{
    size_t scanned = 0;
    for (;;) {
        size_t avail = r->end - r->start;
        char *base = r->buf + r->start;
        char *nl = memchr(base + scanned, '\n', avail - scanned);
        size_t len = nl ? (size_t)(nl - base) : avail;
        bool cr = len > 0 && base[len - 1] == '\r' && nl;
        size_t content = cr ? len - 1 : len;
        if (content > r->limit && (nl || avail > r->limit + 1)) {
            /* over the limit: report it, drop it without keeping it */
            out->text = base;
            out->len = 0;
            out->too_long = true;
            out->number = ++r->line_number;
            if (nl) r->start += len + 1; else skip_line(r);
            return true;
        }
        if (nl) {
            out->text = base;
            out->len = content;
            out->too_long = false;
            out->number = ++r->line_number;
            r->start += len + 1;
            return true;
        }
        scanned = avail;        /* fill keeps the unread bytes: no need to rescan them */
        if (!fill(r)) {
            if (r->end - r->start == 0) return false;
            /* a last line without its newline: a CR there is no line ending, as
             * only "\r\n" is one, so it is kept like any lone CR */
            base = r->buf + r->start;
            len = r->end - r->start;
            out->text = base;
            out->too_long = len > r->limit;
            out->len = out->too_long ? 0 : len;
            out->number = ++r->line_number;
            r->start = r->end;
            return true;
        }
    }
}
