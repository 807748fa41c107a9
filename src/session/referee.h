/* A refereeing session: protocol lines in, one response per line out, over a
 * stream of matches. Turns commands into engine calls with the precedence of
 * protocol.md; knows nothing of I/O, output formats or Lua (rules files are loaded
 * through the loader the caller provides). */
#ifndef MTREF_REFEREE_H
#define MTREF_REFEREE_H

#include <stdbool.h>

#include "engine.h"
#include "protocol.h"
#include "response.h"
#include "verdict.h"

struct referee {
    struct game game;
    struct rules canonical;
    struct rules_loader loader;
    /* --rules files, applied after a record's own */
    char *cli_files[RULES_MAX_FILES];
    int ncli_files;
    void *cli_handle;
    const struct rules *cli_rules;
    /* the match's own rules lines */
    char *match_files[RULES_MAX_FILES];
    int nmatch_files;
    void *match_handle;
    /* bookkeeping for check */
    long matches_ended;
    bool match_touched;          /* a set-up line or move since the last match ended */
    struct command cmd;          /* scratch space for the line being read */
};

/* Prepares a session. loader may have a NULL load (then any rules file is a `rules`
 * error). cli_files[0..n) are the --rules files; on failure to load them returns
 * false with err set. Free with referee_free (also after a failure). */
bool referee_init(struct referee *ref, const struct rules_loader *loader,
                  const char *const cli_files[], int n, char *err);
void referee_free(struct referee *ref);

/* Handles one line (text[0..len), no line ending; too_long: the reader dropped it).
 * Fills resp; a rejected line leaves the session as it was. */
void referee_line(struct referee *ref, const char *text, size_t len, bool too_long, long number,
                  struct response *resp);

#endif
