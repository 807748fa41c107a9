/* Test support: run protocol text through a real session and look at the result. */
#ifndef MTREF_TESTUTIL_H
#define MTREF_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine.h"
#include "output.h"
#include "referee.h"
#include "stream.h"

/* A session with the Lua loader and --rules files (may be NULL/0); free with tu_free. */
struct referee *tu_session(const char *const rules[], int nrules);
void tu_free(struct referee *ref);

/* Feeds the lines of text (separated by \n) to ref; fails the test at the first
 * rejected line, naming it. */
void tu_feed(struct referee *ref, const char *text);
/* Feeds one line and returns its verdict code (the session is left as after it). */
enum error_code tu_line(struct referee *ref, const char *line);
/* The full verdict of the last tu_line. */
const struct verdict *tu_last(void);

/* Runs a whole record through stream_run; returns the exit status and the output
 * (malloc'd, caller frees) in *out. */
int tu_run(const char *record, bool json, bool keep_going, const char *const rules[], int nrules, char **out);

/* Reads a file under tests/ (MTREF_TEST_DIR); malloc'd, NUL-terminated; NULL if absent. */
char *tu_read_test_file(const char *relative, size_t *len);

#endif
