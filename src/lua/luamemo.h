/* The answer memo of a may_play hook: what the hook answered after which reads of the
 * move and the view, so that a play whose every field it read has the same value
 * again gets the same answer without a call. Part of the Lua bridge (luahooks.c). */
#ifndef MTREF_LUAMEMO_H
#define MTREF_LUAMEMO_H

#include <stdbool.h>

#include "luaview.h"

struct luamemo;

/* NULL when out of memory. The caller owns the memo; luamemo_free(NULL) does nothing. */
struct luamemo *luamemo_new(void);
void luamemo_free(struct luamemo *m);
/* Forgets every answer (a new match: other names behind the same seats). */
void luamemo_clear(struct luamemo *m);
/* The answer remembered for the play the view is open on: true with *allowed, the
 * reason of a refusal (*reason, valid until the next luamemo_add or _clear) and the
 * instructions the call cost; false when there is none. */
bool luamemo_find(const struct luamemo *m, const struct luaview *vw, bool *allowed, const char **reason,
                  long *cost);
/* Remembers an answer given after reads[0..n), in order. A record that contradicts
 * what is remembered (the hook is not a function of what it read) turns the memo off
 * for good. */
void luamemo_add(struct luamemo *m, const struct luaview_read *reads, int n, bool allowed, const char *reason,
                 long cost);

#endif
