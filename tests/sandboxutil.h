/* Test support for the sandbox tests: hostile rules files written to temporary
 * files, loaded through a fresh bridge, their messages checked; the mtref binary run
 * in a process of its own (hash seeds and addresses differ per process). */
#ifndef MTREF_SANDBOXUTIL_H
#define MTREF_SANDBOXUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

#define SBU_ANY_LINE (-1)        /* a line number, whichever */
#define SBU_MAYBE_LINE (-2)      /* a line number or none */

/* cmocka setup/teardown: a 60 s alarm against hangs; the file removed after. */
int sbu_setup(void **state);
int sbu_teardown(void **state);

/* Writes source (len bytes) to a fresh /tmp/mtref-sandbox-XXXXXX.lua; returns its
 * path (valid until the next write or sbu_cleanup). */
const char *sbu_write_bytes(const char *source, size_t len);
const char *sbu_write(const char *source);
/* The path of the file last written. */
const char *sbu_path(void);
void sbu_cleanup(void);

struct sbu_outcome {
    bool loaded;
    char err[RULES_MESSAGE_SIZE];
};
/* Loads the file last written as a --rules file into a fresh bridge and session. */
struct sbu_outcome sbu_load(void);

/* message is "PATH[:LINE]: ..." holding needle (when not NULL), on one line. */
void sbu_assert_message(const char *message, int line, const char *needle);
/* A file that must fail to load with such a message. */
void sbu_refused(const char *source, int line, const char *needle);
/* A file that must load. */
void sbu_harmless(const char *source);

/* Runs the mtref binary (MTREF_BINARY) with args (NULL-terminated), input on its
 * stdin; returns the exit status and stdout followed by stderr in *out (malloc'd). */
int sbu_run_mtref(const char *const args[], const char *input, char **out);

#endif
