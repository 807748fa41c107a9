/* Text made safe for a terminal (see escape.h). */
#include "escape.h"

#include <string.h>

/* Length of the well-formed UTF-8 sequence at s (at most len bytes), 0 if none. */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
    unsigned c = s[0];
    size_t need;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF) { need = 2; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 3; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 4; min = 0x10000; }
    else return 0;
    if (need > len) return 0;
    unsigned cp = c & (0xFF >> (need + 1));
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return need;
}

/* The escape of the character at s (escaped: its text in out, 8 bytes), or 0 and *n
 * bytes to copy as they are. */
static size_t escape_one(const unsigned char *s, size_t len, char out[8], size_t *n)
{
    static const char hex[] = "0123456789abcdef";
    unsigned c = s[0];
    *n = 1;
    if (c >= 0x20 && c < 0x7F) return 0;
    if (c < 0x80) {
        const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == 0 ? "\\0" : NULL;
        if (named) { memcpy(out, named, 3); return 2; }
        out[0] = '\\'; out[1] = 'x'; out[2] = hex[c >> 4]; out[3] = hex[c & 15]; out[4] = '\0';
        return 4;
    }
    size_t seq = utf8_sequence(s, len);
    if (seq == 2 && c == 0xC2 && s[1] < 0xA0) {       /* a C1 control: a CSI on some terminals */
        memcpy(out, "\\u00", 4);
        out[4] = hex[s[1] >> 4]; out[5] = hex[s[1] & 15]; out[6] = '\0';
        *n = 2;
        return 6;
    }
    if (seq) { *n = seq; return 0; }
    out[0] = '\\'; out[1] = 'x'; out[2] = hex[c >> 4]; out[3] = hex[c & 15]; out[4] = '\0';
    return 4;
}

void escape_write(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t plain = 0;                 /* bytes at p that need no escape, not yet written */
    while (plain < len) {
        char esc[8];
        size_t n, e = escape_one(p + plain, len - plain, esc, &n);
        if (e == 0) { plain += n; continue; }
        fwrite(p, 1, plain, out);
        fwrite(esc, 1, e, out);
        p += plain + n;
        len -= plain + n;
        plain = 0;
    }
    fwrite(p, 1, plain, out);
}

void escape_puts(FILE *out, const char *s) { escape_write(out, s, strlen(s)); }

size_t escape_copy(char *buf, size_t size, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t used = 0;
    if (size == 0) return 0;
    for (size_t i = 0; i < len;) {
        char esc[8];
        size_t n, e = escape_one(p + i, len - i, esc, &n);
        const char *text = e ? esc : s + i;
        size_t tlen = e ? e : n;
        if (used + tlen >= size) break;
        memcpy(buf + used, text, tlen);
        used += tlen;
        i += n;
    }
    buf[used] = '\0';
    return used;
}
