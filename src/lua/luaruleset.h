/* A rule set inside the Lua bridge: the files of one list loaded into one sandbox,
 * the rules they make, and the hooks they keep. Shared by luarules.c (loading),
 * luaread.c (reading a file's table) and luahooks.c (calls from the engine);
 * luacatalog.c takes only its path size. */
#ifndef MTREF_LUARULESET_H
#define MTREF_LUARULESET_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "luamemo.h"
#include "luasandbox.h"
#include "luaview.h"
#include "rules.h"

#define RULESET_MAX_FILES (2 * RULES_MAX_FILES)
#define RULESET_PATH_SIZE 1024

/* The hooks, in the order a file's keys are read; the ones after RULESET_HOOK_MAY_PLAY answer
 * the engine's questions (rules.h, enum rules_question, in the same order). */
enum ruleset_hook {
    RULESET_HOOK_ENGINE, RULESET_HOOK_ELIMINATED, RULESET_HOOK_ROUND_POINTS, RULESET_HOOK_MAY_PLAY,
    RULESET_HOOK_MAY_DRAW, RULESET_HOOK_MAY_PASS, RULESET_HOOK_ANOTHER_PLAY, RULESET_HOOK_MUST_COVER, RULESET_HOOK_DRAWABLE, RULESET_HOOK_BLOCKED,
    RULESET_HOOK_MATCH_OVER, RULESET_HOOK_WINNERS, RULESET_HOOK_OPENER, RULESET_HOOK_LAY_ENGINE, RULESET_HOOK_COUNT
};
#define RULESET_HOOK_FIRST_QUESTION RULESET_HOOK_MAY_DRAW
extern const char *const ruleset_hook_names[RULESET_HOOK_COUNT];
extern const char *const ruleset_doubles_choices[3];
extern const char *const ruleset_draw_choices[2];

struct ruleset {
    struct sandbox *sb;
    struct rules rules;
    int nfiles;
    char names[RULESET_MAX_FILES][RULES_NAME_SIZE];       /* file names (NAME of NAME.lua) */
    char paths[RULESET_MAX_FILES][RULESET_PATH_SIZE];       /* where each file was found */
    char shown[RULESET_MAX_FILES][RULESET_PATH_SIZE];       /* how messages name it: the path given, or NAME.lua */
    char names_joined[RULESET_MAX_FILES * (RULES_NAME_SIZE + 2)];
    char descriptions[RULESET_MAX_FILES][160];      /* each file's description, cut */
    int hook_ref[RULESET_HOOK_COUNT];               /* the last file's hook: registry ref, LUA_NOREF when unset */
    int hook_file[RULESET_HOOK_COUNT];              /* which file set the hook */
    int hook_line[RULESET_HOOK_COUNT];              /* where the function is defined */
    int users;                              /* handles given out and not yet released */
    const char *name_list[RULESET_MAX_FILES];       /* names[i], for rules.file_names */
    /* every file's hook, in load order: vetoes all apply, answers chain */
    int nchain[RULESET_HOOK_COUNT];
    int chain_ref[RULESET_HOOK_COUNT][RULESET_MAX_FILES];
    int chain_file[RULESET_HOOK_COUNT][RULESET_MAX_FILES];
    int chain_line[RULESET_HOOK_COUNT][RULESET_MAX_FILES];
    const char *chain_where[RULESET_HOOK_COUNT][RULESET_MAX_FILES];   /* "file:line", a string kept in the registry */
    struct luaview view;
    struct luamemo *play_memo[RULESET_MAX_FILES];   /* may_play's answers, per link (NULL: none kept) */
    /* the last tile_value function read, and the tiles it has valued */
    int value_ref;                          /* registry ref, LUA_NOREF when none */
    int value_file;
    tileset valued;
};

/* Reads the table that file number `file` returned (on top of the stack) into set:
 * settings into set->rules, hook functions kept. 0, or -1 with "file:line: what". */
int luaread_table(struct ruleset *set, int file, char *err);
/* Refuses the files of set[0..loaded) that declare each other incompatible; their
 * tables sit at stack indices tables_base.. . 0, or -1 with err naming both. */
/* After every file is read: asks the last tile_value for the tiles of the set in force
 * it was not asked for (a later file chose a larger set). 0, or -1 with err. */
int luaread_finish(struct ruleset *set, char *err);
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

/* Points set->rules.hooks at the Lua functions the files set. */
void luahooks_install(struct ruleset *set);

#endif
