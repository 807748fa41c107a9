/* Text that came from input, a rules file or a bot, made safe for a terminal: every
 * byte that could move the cursor, change a colour or a title, or end a line is
 * written as an escape, so one response stays one line and shows what it holds. */
#ifndef MTREF_ESCAPE_H
#define MTREF_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Escaped: the C0 controls and DEL (as \n, \r, \t, \0 or \xHH), the C1 controls in
 * UTF-8 (U+0080..U+009F, as \u0080..\u009f) and bytes that are not well-formed UTF-8
 * (as \xHH). Everything else, backslashes included, is written as it is. */

/* Writes s[0..len) escaped to out. */
void escape_write(FILE *out, const char *s, size_t len);
/* The same for a NUL-terminated string. */
void escape_puts(FILE *out, const char *s);
/* Escapes s[0..len) into buf (size bytes, NUL-terminated, never an escape cut in
 * two); returns the length written. */
size_t escape_copy(char *buf, size_t size, const char *s, size_t len);

#endif
