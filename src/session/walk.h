/* Walking a record: the session loop run over a record from its start, to list what
 * each line did or to stop at one line and look at the table there. What `show --at`,
 * `replay` and `diff` step through; the verdicts are the session's own, so a table
 * seen here is the table the referee had. */
#ifndef MTREF_WALK_H
#define MTREF_WALK_H

#include <stdbool.h>

#include "session.h"

/* What one answered line of a record did. */
struct walk_step {
    long line;                  /* its number in the record */
    enum response_kind kind;
    enum error_code code;       /* ERR_NONE: accepted (queries are always) */
    bool move;                  /* an accepted play, draw or pass */
    int round;                  /* the round being dealt or played after the line */
    int in_round;               /* the round the line was read in (before it) */
    bool round_ended;           /* the line ended a round (or the match) */
    bool match_ended;
};

/* Every answered line of a record, in order; the walk stops after the first rejected
 * line unless the options keep going, as the referee does. */
struct walk_index {
    struct walk_step *steps;    /* owned: free with walk_index_free */
    long n;
    int status;                 /* the session's exit status over what was walked */
    int read_error;             /* errno of a failed read, or 0 */
};

/* Walks the record on fd (seekable: it is read from offset 0, again at each call)
 * with the session options o (o->respond and o->ctx are ignored). Returns false when
 * out of memory or the file cannot be rewound. */
bool walk_index_build(int fd, const struct session_options *o, struct walk_index *out);
void walk_index_free(struct walk_index *ix);

/* The step of the last line at or before `line` that was not a query (`show`, `legal`:
 * they change nothing); -1 when none. */
long walk_index_at_line(const struct walk_index *ix, long line);
/* The step after which round `round` is about to be played: the last line before its
 * first move (its deal lines read), or its last line when it has no move; -1 when the
 * record never reaches it. */
long walk_index_round_start(const struct walk_index *ix, int round);

/* Called once the walk reaches the line asked for: ref is the session after it,
 * before the game as it stood before it (NULL for the first answered line; its rules
 * pointer is valid for a move of the same match only),
 * resp the line's response. All read only, valid during the call. */
typedef void (*walk_visit)(void *ctx, const struct referee *ref, const struct game *before,
                           const struct response *resp);

/* Walks fd from its start and calls visit at the answered line numbered `line`.
 * Returns false when the line was not reached (or fd cannot be rewound). */
bool walk_to_line(int fd, const struct session_options *o, long line, walk_visit visit, void *ctx);

/* Asks the session at a point of a walk a query line ("show", "show ana", "legal"),
 * changing nothing: the answer goes into resp. scratch is a caller's referee-sized
 * buffer (the query runs on a copy of ref, whose handles it borrows). */
void walk_query(const struct referee *ref, struct referee *scratch, const char *query, struct response *resp);

#endif
