/* Line assembly: the bytes a bot writes, in whatever chunks its reads return, made
 * into lines, with a hard limit on a line's length. */
#ifndef MTREF_LINE_ASM_H
#define MTREF_LINE_ASM_H

#include <stdbool.h>
#include <stddef.h>

/* Line assembly: bytes in any chunks -> lines without their "\n" (and a "\r" before
 * it). A line longer than max is reported once, as soon as max is passed, with
 * too_long set and the bytes seen so far; the rest up to its newline is dropped.
 * At most max + 1 bytes are ever held. */
typedef void line_fn(void *ctx, const char *line, size_t len, bool too_long);
struct line_asm {
    char *buf;
    size_t len, max;
    bool skipping;
};
bool line_asm_init(struct line_asm *a, size_t max);
void line_asm_free(struct line_asm *a);
void line_asm_feed(struct line_asm *a, const char *data, size_t n, line_fn *emit, void *ctx);
/* Bytes of an unfinished line held (or being skipped). */
bool line_asm_pending(const struct line_asm *a);

#endif
