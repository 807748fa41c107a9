/* The Lua bridge: house-rule files (Lua 5.4 chunks) -> struct rules, in a sandbox.
 * The files of src/lua are the only ones that include lua.h; everything else sees
 * the bridge through this header, and rules through rules.h and its loader. */
#ifndef MTREF_LUARULES_H
#define MTREF_LUARULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rules.h"

struct luarules;

/* A bridge with no files loaded yet; NULL when out of memory. Free with luarules_free. */
struct luarules *luarules_new(void);
void luarules_free(struct luarules *lr);
/* The loader a referee session uses to turn rules files into rules. */
struct rules_loader luarules_loader(struct luarules *lr);
/* Where `rules SPELLING` would find its file: the path into path (size bytes), and
 * *by_name true when the spelling is a name found in a directory of the rules path
 * named absolutely (so it is found the same from any working directory). false when
 * no readable file answers to the spelling. */
bool luarules_find(const char *spelling, char *path, size_t size, bool *by_name);
/* The Lua version compiled in ("5.4.4"). */
const char *luarules_version(void);
/* mtref rules without a name: every rules file on the search path, with its
 * description and where it was found. Exit status. */
int luarules_list(FILE *out, FILE *err);
/* The names alone, one a line, without loading any file (for shell completion). */
int luarules_list_names(FILE *out);
/* mtref rules FILE...: prints what the files change, or their error. Exit status. */
int luarules_describe(struct luarules *lr, const char *const files[], int n, FILE *out, FILE *err);

#endif
