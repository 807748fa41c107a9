/* The rules files there are (luacatalog.c): the search path and every NAME.lua on
 * it, below the loading of luarules.c, which lists them and finds names there. Part of
 * the Lua bridge. */
#ifndef MTREF_LUACATALOG_H
#define MTREF_LUACATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "luaruleset.h"

#define LUACATALOG_MAX 1024         /* files listed; a search path holds a few dozen */

struct luacatalog_entry {
    char name[RULES_NAME_SIZE];
    char path[RULESET_PATH_SIZE];
    int dir;                        /* position on the search path */
    bool hidden;                    /* an earlier directory has the same name */
};

/* The i-th directory of the rules search path into dir ("" when it cannot be
 * known, such as the executable's own); false past the last. */
bool luacatalog_search_dir(int i, char *dir, size_t size);
/* The name on the search path nearest to name (a likely typo) into out, or "". */
void luacatalog_nearest_name(const char *name, char *out, size_t size);
/* Every regular NAME.lua of every search directory into out[0..max), by name then
 * search order; returns how many. */
int luacatalog_collect(struct luacatalog_entry *out, int max);

#endif
