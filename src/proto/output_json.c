/* Output, the fixed-shape JSON objects of every accepted line and of the events:
 * formatted into a small buffer and written with one call, not through printf, as
 * they are most of what `mtref --json` writes. The same bytes as the printf forms. */
#include "output.h"

#include <string.h>

/* Writes v in decimal at p; returns the length. Two digits a step, in place. */
static size_t put_count(char *p, unsigned long v)
{
    static const char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    size_t len = 1;
    for (unsigned long rest = v; rest >= 10; rest /= 10) len++;
    char *q = p + len;
    while (v >= 100) {
        unsigned long r = v % 100;
        v /= 100;
        q -= 2;
        q[0] = pairs[2 * r];
        q[1] = pairs[2 * r + 1];
    }
    if (v >= 10) {
        q[-2] = pairs[2 * v];
        q[-1] = pairs[2 * v + 1];
    } else {
        q[-1] = (char)('0' + v);
    }
    return len;
}

#define PUT(p, literal) (memcpy((p), literal, sizeof(literal) - 1), sizeof(literal) - 1)

size_t output_json_ok_format(char *buf, long line, tile_t drew)
{
    size_t n = PUT(buf, "{\"line\":");
    if (line < 0) {                 /* never from the reader; kept exact all the same */
        buf[n++] = '-';
        n += put_count(buf + n, 0UL - (unsigned long)line);
    } else {
        n += put_count(buf + n, (unsigned long)line);
    }
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

void output_json_ok(FILE *out, long line, tile_t drew)
{
    char buf[OUTPUT_JSON_OK_MAX];
    fwrite(buf, 1, output_json_ok_format(buf, line, drew), out);
}
