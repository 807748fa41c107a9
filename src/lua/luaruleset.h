/* A rule set inside the Lua bridge: the files of one list loaded into one sandbox,
 * the rules they make, and the hooks they keep. Shared by luarules.c (loading),
 * luaread.c (reading a file's table) and luahooks.c (calls from the engine). */
#ifndef MTREF_LUARULESET_H
#define MTREF_LUARULESET_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "luasandbox.h"
#include "rules.h"

#define MAX_FILES (2 * RULES_MAX_FILES)
#define PATH_SIZE 1024
#define NAME_SIZE 256

enum hook_id { HOOK_ENGINE, HOOK_ELIMINATED, HOOK_ROUND_POINTS, HOOK_MAY_PLAY, HOOK_COUNT };
extern const char *const hook_names[HOOK_COUNT];
extern const char *const doubles_choices[3];
extern const char *const draw_choices[2];

struct ruleset {
    struct sandbox *sb;
    struct rules rules;
    int nfiles;
    char names[MAX_FILES][NAME_SIZE];       /* file names (NAME of NAME.lua) */
    char paths[MAX_FILES][PATH_SIZE];       /* where each file was found */
    char shown[MAX_FILES][PATH_SIZE];       /* how messages name it: the path given, or NAME.lua */
    char names_joined[MAX_FILES * (NAME_SIZE + 2)];
    char descriptions[MAX_FILES][160];      /* each file's description, cut */
    int hook_ref[HOOK_COUNT];               /* registry refs, LUA_NOREF when unset */
    int hook_file[HOOK_COUNT];              /* which file set the hook */
    int hook_line[HOOK_COUNT];              /* where the function is defined */
    int users;                              /* handles given out and not yet released */
    const char *name_list[MAX_FILES];       /* names[i], for rules.file_names */
};

/* Reads the table that file number `file` returned (on top of the stack) into set:
 * settings into set->rules, hook functions kept. 0, or -1 with "file:line: what". */
int luaread_table(struct ruleset *set, int file, char *err);
/* Refuses the files of set[0..loaded) that declare each other incompatible; their
 * tables sit at stack indices tables_base.. . 0, or -1 with err naming both. */
int luaread_pairs(struct ruleset *set, int tables_base, int loaded, char *err);
/* An integer result: a number with an integral value, never a numeric string; *isnum
 * says whether it was one. */
lua_Integer luaread_integer(lua_State *L, int index, int *isnum);
/* Pushes t[name] of the table at index, without metamethods; returns its type. */
int luaread_raw_field(lua_State *L, int index, const char *name);
/* Loads files[0..n) (spellings as for --rules) as one rule set; NULL with err set
 * (RULES_MESSAGE_SIZE bytes). Free with ruleset_free (NULL does nothing). */
struct ruleset *ruleset_load(const char *const files[], int n, char *err);
void ruleset_free(struct ruleset *set);
/* The i-th directory of the rules search path into dir ("" when it cannot be
 * known, such as the executable's own); false past the last. */
bool luarules_search_dir(int i, char *dir, size_t size);
/* The name on the search path nearest to name (a likely typo) into out, or "". */
void luarules_nearest_name(const char *name, char *out, size_t size);

/* Points set->rules.hooks at the Lua functions the files set. */
void luahooks_install(struct ruleset *set);

#endif
