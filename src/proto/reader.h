/* The line reader: bytes from a file descriptor -> lines, in constant memory.
 * Reads whatever the descriptor has (a pipe answers line by line, never waits to
 * fill a buffer); a line over the limit is skipped to its end and reported as such,
 * never truncated silently or kept whole. */
#ifndef MTREF_READER_H
#define MTREF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define READER_BUFFER_SIZE 65536

struct reader {
    int fd;
    size_t limit;              /* longest line kept, without its ending */
    char *buf;                 /* owned: READER_BUFFER_SIZE + limit + 1 bytes */
    size_t start, end;         /* unread bytes are buf[start..end) */
    bool eof;
    int error;                 /* errno of a failed read, or 0 */
    long line_number;
    void (*before_wait)(void *ctx);   /* called before a read that may block */
    void *ctx;
};

struct line {
    const char *text;          /* without "\n" or "\r\n"; valid until the next call */
    size_t len;
    bool too_long;             /* the line had more than limit bytes; text is empty */
    long number;               /* 1-based */
};

/* Prepares r to read fd (not owned). Returns false when out of memory. */
bool reader_open(struct reader *r, int fd, size_t limit);
/* Frees the buffer; the descriptor stays open. reader_close on a closed reader is a no-op. */
void reader_close(struct reader *r);
/* Reads the next line. Returns false at end of input or on a read error (r->error). */
bool reader_next(struct reader *r, struct line *out);

/* The first "\n" of p[0..avail), or NULL. Nearly every line of a record is under 32
 * bytes: two 16-byte compares and one jump find its end, where a call to memchr
 * costs as much as refereeing the line's move. */
static inline const char *reader_find_newline(const char *p, size_t avail)
{
#if defined(__SSE2__)
    if (avail >= 32) {
        const __m128i nl = _mm_set1_epi8('\n');
        __m128i first = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i second = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        unsigned lo = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(first, nl));
        unsigned hi = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(second, nl));
        unsigned found = lo | hi << 16;
        if (found) return p + __builtin_ctz(found);
        return memchr(p + 32, '\n', avail - 32);
    }
#endif
    return memchr(p, '\n', avail);
}

/* reader_next, the usual case inline: a whole line already in the buffer. */
static inline bool reader_next_quick(struct reader *r, struct line *out)
{
    char *base = r->buf + r->start;
    size_t avail = r->end - r->start;
    const char *nl = avail ? reader_find_newline(base, avail) : NULL;
    size_t len = nl ? (size_t)(nl - base) : 0;
    if (!nl || len > r->limit) return reader_next(r, out);
    r->start += len + 1;
    if (len > 0 && base[len - 1] == '\r') len--;
    out->text = base;
    out->len = len;
    out->too_long = false;
    out->number = ++r->line_number;
    return true;
}

/* The next line of text[0..len), a block of whole lines already in memory (its last
 * line may lack its newline, as the last line of an input may), from *pos (start at
 * 0), with reader_next's rules: "\n" or "\r\n" ends a line, a line of more than limit
 * bytes is too_long. out->number is left to the caller. False at the block's end. */
static inline bool reader_next_in(const char *text, size_t len, size_t *pos, size_t limit, struct line *out)
{
    if (*pos >= len) return false;
    const char *p = text + *pos;
    size_t avail = len - *pos;
    const char *nl = reader_find_newline(p, avail);
    size_t n = nl ? (size_t)(nl - p) : avail;
    *pos += nl ? n + 1 : n;
    if (nl && n > 0 && p[n - 1] == '\r') n--;
    out->text = p;
    out->too_long = n > limit;
    out->len = out->too_long ? 0 : n;
    return true;
}

#endif
