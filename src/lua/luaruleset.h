/* A rule set inside the Lua bridge: the files of one list loaded into one sandbox,
 * the rules they make, and the hooks they keep. Shared by luarules.c (loading),
 * luaread.c (reading a file's table) and luahooks.c (calls from the engine). */
#ifndef MTREF_LUARULESET_H
#define MTREF_LUARULESET_H

#include <lua.h>

#include "luasandbox.h"
#include "luaview.h"
#include "rules.h"

#define MAX_FILES (2 * RULES_MAX_FILES)
#define PATH_SIZE 1024
#define NAME_SIZE 256

/* The hooks, in the order a file's keys are read; the ones after HOOK_MAY_PLAY answer
 * the engine's questions (rules.h, enum rules_question, in the same order). */
enum hook_id {
    HOOK_ENGINE, HOOK_ELIMINATED, HOOK_ROUND_POINTS, HOOK_MAY_PLAY,
    HOOK_MAY_DRAW, HOOK_MAY_PASS, HOOK_ANOTHER_PLAY, HOOK_MUST_COVER, HOOK_DRAWABLE, HOOK_BLOCKED,
    HOOK_MATCH_OVER, HOOK_WINNERS, HOOK_OPENER, HOOK_LAY_ENGINE, HOOK_COUNT
};
#define HOOK_FIRST_QUESTION HOOK_MAY_DRAW
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
    int hook_ref[HOOK_COUNT];               /* the last file's hook: registry ref, LUA_NOREF when unset */
    int hook_file[HOOK_COUNT];              /* which file set the hook */
    int hook_line[HOOK_COUNT];              /* where the function is defined */
    int users;                              /* handles given out and not yet released */
    const char *name_list[MAX_FILES];       /* names[i], for rules.file_names */
    /* every file's hook, in load order: vetoes all apply, answers chain */
    int nchain[HOOK_COUNT];
    int chain_ref[HOOK_COUNT][MAX_FILES];
    int chain_file[HOOK_COUNT][MAX_FILES];
    int chain_line[HOOK_COUNT][MAX_FILES];
    const char *chain_where[HOOK_COUNT][MAX_FILES];   /* "file:line", a string kept in the registry */
    struct luaview view;
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
/* Points set->rules.hooks at the Lua functions the files set. */
void luahooks_install(struct ruleset *set);

#endif
