/* The Lua bridge: house-rule files -> struct rules. Finds files on the rules path,
 * runs them in a sandbox (luasandbox.c), reads their settings, keeps their hook
 * functions, and calls them for the engine through the hooks of rules.h.
 * A rule set is one sandboxed state holding every file of a list, loaded in order:
 * a later file's settings and hooks replace an earlier one's. */
#include "luarules.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "alloc.h"
#include "engine.h"
#include "luasandbox.h"

#ifndef MTREF_RULES_DIR
#define MTREF_RULES_DIR "/usr/local/share/mtref/rules"
#endif

#define MAX_FILES (2 * REFEREE_MAX_RULE_FILES)
#define PATH_SIZE 1024
#define NAME_SIZE 256

enum hook_id { HOOK_ENGINE, HOOK_ELIMINATED, HOOK_ROUND_POINTS, HOOK_MAY_PLAY, HOOK_COUNT };
static const char *const hook_names[HOOK_COUNT] = {"engine", "eliminated", "round_points", "may_play"};

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
};

/* The bridge keeps the last few rule sets it loaded: a stream whose every match names
 * the same rules lines (one set per line read so far) loads the Lua once, not once
 * per match. */
#define CACHE_SLOTS 4
struct luarules {
    struct ruleset *cached[CACHE_SLOTS];
    char *keys[CACHE_SLOTS];            /* the file spellings, one per line */
    unsigned long last_used[CACHE_SLOTS];
    unsigned long clock;
};

struct luarules *luarules_new(void)
{
    struct luarules *lr = mt_malloc(sizeof *lr);
    if (lr) memset(lr, 0, sizeof *lr);
    return lr;
}

static void ruleset_free(struct ruleset *set);

void luarules_free(struct luarules *lr)
{
    if (!lr) return;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        ruleset_free(lr->cached[i]);
        free(lr->keys[i]);
    }
    free(lr);
}

const char *luarules_version(void) { return LUA_VERSION_MAJOR "." LUA_VERSION_MINOR "." LUA_VERSION_RELEASE; }

/* --- finding files ------------------------------------------------------- */

static bool readable_file(const char *path) { return access(path, R_OK) == 0; }

static bool try_dir(const char *dir, size_t dirlen, const char *name, char *out)
{
    if (dirlen == 0) return false;
    int n = snprintf(out, PATH_SIZE, "%.*s/%s.lua", (int)dirlen, dir, name);
    return n > 0 && n < PATH_SIZE && readable_file(out);
}

/* Rules beside the running executable: <bin>/../share/mtref/rules for a relocated
 * install, <bin>/share/mtref/rules for a build tree. */
static bool try_beside_executable(const char *name, char *out)
{
    char exe[PATH_SIZE], dir[PATH_SIZE];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    static const char *const below[] = {"/../share/mtref/rules", "/share/mtref/rules"};
    for (int i = 0; i < 2; i++) {
        snprintf(dir, sizeof dir, "%s%s", exe, below[i]);
        if (try_dir(dir, strlen(dir), name, out)) return true;
    }
    return false;
}

/* Resolves a spelling (NAME, NAME.lua, or a path) to a readable file. */
static bool resolve(const char *spelling, char *path, char *name)
{
    referee_rules_name(spelling, name, NAME_SIZE);
    if (strlen(spelling) >= PATH_SIZE - 8 || strlen(name) >= NAME_SIZE - 1) return false;   /* never cut a name */
    if (strchr(spelling, '/')) {
        snprintf(path, PATH_SIZE, "%s", spelling);
        return readable_file(path);
    }
    const char *env = getenv("MTREF_RULES_PATH");
    while (env && *env) {
        size_t len = strcspn(env, ":");
        if (try_dir(env, len, name, path)) return true;
        env += len;
        if (*env == ':') env++;
    }
    if (try_dir(MTREF_RULES_DIR, strlen(MTREF_RULES_DIR), name, path)) return true;
    if (try_beside_executable(name, path)) return true;
    if (try_dir("rules", 5, name, path)) return true;
    snprintf(path, PATH_SIZE, "%s", spelling);
    return readable_file(path);
}

/* --- reading a file's table ---------------------------------------------- */

/* t[name] without metamethods: a script's __index must never run outside the
 * budgeted, protected calls of the sandbox. Pushes the value. */
/* An integer value: a number with an integral value, never a numeric string. */
static lua_Integer integer_value(lua_State *L, int index, int *isnum)
{
    *isnum = 0;
    if (lua_type(L, index) != LUA_TNUMBER) return 0;
    return lua_tointegerx(L, index, isnum);
}

static int raw_field(lua_State *L, int index, const char *name)
{
    index = lua_absindex(L, index);
    lua_pushstring(L, name);
    return lua_rawget(L, index);
}

/* The line of the first occurrence of key as a word in the file, for messages about
 * a key of the returned table; 1 when not found. */
static int line_of_key(const char *path, const char *key)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    char buf[4096];
    int line = 1, found = 0;
    size_t klen = strlen(key);
    while (!found && fgets(buf, sizeof buf, f)) {
        for (char *p = strstr(buf, key); p && !found; p = strstr(p + 1, key)) {
            char before = p == buf ? ' ' : p[-1], after = p[klen];
            bool word_before = before == '_' || (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                               (before >= '0' && before <= '9');
            bool word_after = after == '_' || (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
                              (after >= '0' && after <= '9');
            if (!word_before && !word_after) found = line;
        }
        if (strchr(buf, '\n')) line++;
    }
    fclose(f);
    return found ? found : 1;
}

struct reading {
    struct ruleset *set;
    int file;                 /* index of the file being read */
    char *err;
};

static int fail_key(struct reading *rd, const char *key, const char *fmt, const char *detail)
{
    int line = line_of_key(rd->set->paths[rd->file], key);
    char what[300];
    snprintf(what, sizeof what, fmt, detail);
    snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:%d: %s: %s", rd->set->shown[rd->file], line, key, what);
    return -1;
}

static int read_integer(struct reading *rd, lua_State *L, const char *key, long long min, long long max, long long *out)
{
    int isnum;
    lua_Integer v = integer_value(L, -1, &isnum);
    if (!isnum) return fail_key(rd, key, "expected an integer, got %s", luaL_typename(L, -1));
    if (v < min || v > max) {
        char range[80];
        snprintf(range, sizeof range, "%lld..%lld", min, max);
        return fail_key(rd, key, "out of range %s", range);
    }
    *out = v;
    return 0;
}

static int read_choice(struct reading *rd, lua_State *L, const char *key, const char *const choices[], int n, int *out)
{
    if (lua_type(L, -1) != LUA_TSTRING) return fail_key(rd, key, "expected a string, got %s", luaL_typename(L, -1));
    const char *s = lua_tostring(L, -1);
    for (int i = 0; i < n; i++)
        if (strcmp(s, choices[i]) == 0) { *out = i; return 0; }
    char list[200] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", " : "one of ", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    return fail_key(rd, key, "expected %s", list);
}

static int read_boolean(struct reading *rd, lua_State *L, const char *key, bool *out)
{
    if (!lua_isboolean(L, -1)) return fail_key(rd, key, "expected true or false, got %s", luaL_typename(L, -1));
    *out = lua_toboolean(L, -1);
    return 0;
}

static int read_function(struct reading *rd, lua_State *L, const char *key)
{
    if (lua_type(L, -1) != LUA_TFUNCTION) return fail_key(rd, key, "expected a function, got %s", luaL_typename(L, -1));
    return 0;
}

/* Calls the function on top for every tile (tile_value) and keeps the results. */
static int read_tile_values(struct reading *rd, lua_State *L)
{
    struct ruleset *set = rd->set;
    for (tile_t t = 0; t < TILE_COUNT; t++) {
        lua_pushvalue(L, -1);
        lua_pushinteger(L, tile_low(t));
        lua_pushinteger(L, tile_high(t));
        if (sandbox_call(set->sb, 2, 1, set->shown[rd->file], rd->err) != 0) return -1;
        int isnum;
        lua_Integer v = integer_value(L, -1, &isnum);
        if (!isnum || v < -1000000 || v > 1000000) {
            char tile[TILE_TEXT_SIZE];
            tile_format(t, tile);
            snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:%d: tile_value(%d, %d) returned %s, expected an integer -1000000..1000000",
                     set->shown[rd->file], line_of_key(set->paths[rd->file], "tile_value"), tile_low(t), tile_high(t),
                     isnum ? "a number out of range" : luaL_typename(L, -1));
            lua_pop(L, 1);
            return -1;
        }
        lua_pop(L, 1);
        set->rules.tile_value[t] = (int)v;
    }
    return 0;
}

/* Calls hand_size(n) for every table size 2..16 and keeps the results. */
static int read_hand_sizes(struct reading *rd, lua_State *L)
{
    struct ruleset *set = rd->set;
    for (int n = 2; n <= RULES_MAX_PLAYERS; n++) {
        lua_pushvalue(L, -1);
        lua_pushinteger(L, n);
        if (sandbox_call(set->sb, 1, 1, set->shown[rd->file], rd->err) != 0) return -1;
        int isnum;
        lua_Integer v = integer_value(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum || v < 0 || v > TILE_COUNT) {
            char which[40];
            snprintf(which, sizeof which, "hand_size(%d)", n);
            return fail_key(rd, "hand_size", "%s did not return an integer 0..91", which);
        }
        set->rules.hand_size[n] = (int)v;
    }
    return 0;
}

static int read_players(struct reading *rd, lua_State *L)
{
    if (!lua_istable(L, -1)) return fail_key(rd, "players", "expected a table {min = N, max = N}, got %s", luaL_typename(L, -1));
    long long min = rd->set->rules.min_players, max = rd->set->rules.max_players;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        long long *slot = strcmp(k, "min") == 0 ? &min : strcmp(k, "max") == 0 ? &max : NULL;
        if (!slot) { lua_pop(L, 2); return fail_key(rd, "players", "%s", "only min and max may be given"); }
        if (read_integer(rd, L, "players", 2, RULES_MAX_PLAYERS, slot) != 0) { lua_pop(L, 2); return -1; }
        lua_pop(L, 1);
    }
    if (min > max) return fail_key(rd, "players", "%s", "min is above max");
    rd->set->rules.min_players = (int)min;
    rd->set->rules.max_players = (int)max;
    return 0;
}

static int read_rounds(struct reading *rd, lua_State *L)
{
    if (!lua_istable(L, -1)) return fail_key(rd, "rounds", "expected a list of round counts, got %s", luaL_typename(L, -1));
    uint64_t allowed = 0;
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= n && i <= 64; i++) {
        lua_rawgeti(L, -1, i);
        long long v;
        int rc = read_integer(rd, L, "rounds", 1, RULES_MAX_ROUNDS, &v);
        lua_pop(L, 1);
        if (rc != 0) return -1;
        allowed |= 1ULL << v;
    }
    if (!allowed) return fail_key(rd, "rounds", "%s", "the list is empty");
    rd->set->rules.rounds_allowed = allowed;
    if (!((allowed >> rd->set->rules.default_rounds) & 1)) {
        int lowest = 1;
        while (!((allowed >> lowest) & 1)) lowest++;
        int highest = lowest;
        for (int r = lowest; r <= RULES_MAX_ROUNDS; r++)
            if ((allowed >> r) & 1) highest = r;
        rd->set->rules.default_rounds = highest;
    }
    return 0;
}

static void keep_hook(struct reading *rd, lua_State *L, enum hook_id id)
{
    struct ruleset *set = rd->set;
    if (set->hook_ref[id] != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, set->hook_ref[id]);
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    set->hook_line[id] = ar.linedefined > 0 ? ar.linedefined : 1;
    lua_pushvalue(L, -1);
    set->hook_ref[id] = luaL_ref(L, LUA_REGISTRYINDEX);
    set->hook_file[id] = rd->file;
}

static const char *const doubles_choices[] = {"cover", "anywhere-lifo", "anywhere-fifo"};
static const char *const draw_choices[] = {"once", "until-playable"};
static const char *const first_turn_choices[] = {"any", "own-train"};
static const char *const scoring_choices[] = {"penalty", "positive"};

/* Reads one key of a file's table (key at -2, value at -1). */
static int read_key(struct reading *rd, lua_State *L, const char *key)
{
    struct rules *r = &rd->set->rules;
    long long v;
    int choice;
    if (strcmp(key, "description") == 0) {
        if (lua_type(L, -1) != LUA_TSTRING) return fail_key(rd, key, "expected a string, got %s", luaL_typename(L, -1));
        snprintf(rd->set->descriptions[rd->file], sizeof rd->set->descriptions[0], "%s", lua_tostring(L, -1));
        return 0;
    }
    if (strcmp(key, "incompatible") == 0) {
        if (!lua_istable(L, -1)) return fail_key(rd, key, "expected a table {[\"name\"] = \"why\"}, got %s", luaL_typename(L, -1));
        return 0;
    }
    if (strcmp(key, "tile_value") == 0)
        return read_function(rd, L, key) != 0 ? -1 : read_tile_values(rd, L);
    if (strcmp(key, "hand_size") == 0)
        return read_function(rd, L, key) != 0 ? -1 : read_hand_sizes(rd, L);
    if (strcmp(key, "players") == 0) return read_players(rd, L);
    if (strcmp(key, "rounds") == 0) return read_rounds(rd, L);
    if (strcmp(key, "default_rounds") == 0) {
        if (read_integer(rd, L, key, 1, RULES_MAX_ROUNDS, &v) != 0) return -1;
        r->default_rounds = (int)v;
        return 0;
    }
    if (strcmp(key, "doubles") == 0) {
        if (read_choice(rd, L, key, doubles_choices, 3, &choice) != 0) return -1;
        r->doubles = (enum doubles_policy)choice;
        return 0;
    }
    if (strcmp(key, "draw") == 0) {
        if (read_choice(rd, L, key, draw_choices, 2, &choice) != 0) return -1;
        r->draw = (enum draw_policy)choice;
        return 0;
    }
    if (strcmp(key, "first_turn") == 0) {
        if (read_choice(rd, L, key, first_turn_choices, 2, &choice) != 0) return -1;
        r->first_turn_own_train = choice == 1;
        r->first_turn_by = rd->set->names[rd->file];
        return 0;
    }
    if (strcmp(key, "scoring") == 0) {
        if (read_choice(rd, L, key, scoring_choices, 2, &choice) != 0) return -1;
        r->scoring = (enum scoring_policy)choice;
        return 0;
    }
    if (strcmp(key, "marker_after_cover") == 0) return read_boolean(rd, L, key, &r->marker_after_cover);
    if (strcmp(key, "out_on_double") == 0) {
        if (read_integer(rd, L, key, 1, 1000, &v) != 0) return -1;
        r->out_on_double_factor = (int)v;
        return 0;
    }
    for (int id = 0; id < HOOK_COUNT; id++)
        if (strcmp(key, hook_names[id]) == 0) {
            if (read_function(rd, L, key) != 0) return -1;
            keep_hook(rd, L, (enum hook_id)id);
            return 0;
        }
    return fail_key(rd, key, "%s", "unknown key (see mtref-rules(5) for the keys a rules file may set)");
}

/* Keys are read in a fixed order, so that `rounds` sees `default_rounds` and error
 * messages do not depend on table traversal order. */
static const char *const key_order[] = {
    "description", "incompatible", "players", "hand_size", "tile_value", "default_rounds", "rounds",
    "doubles", "draw", "first_turn", "marker_after_cover", "scoring", "out_on_double",
    "engine", "eliminated", "round_points", "may_play",
};
#define NKEYS (sizeof key_order / sizeof key_order[0])

static int read_table(struct reading *rd, lua_State *L)
{
    if (!lua_istable(L, -1)) {
        snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:1: a rules file must return a table, not %s",
                 rd->set->shown[rd->file], luaL_typename(L, -1));
        return -1;
    }
    /* unknown keys first: a typo is an error, never ignored */
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pop(L, 1);
            snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:1: the rules table may only have string keys", rd->set->shown[rd->file]);
            return -1;
        }
        const char *key = lua_tostring(L, -1);
        bool known = false;
        for (size_t i = 0; i < NKEYS && !known; i++) known = strcmp(key, key_order[i]) == 0;
        if (!known) {
            char copy[100];
            snprintf(copy, sizeof copy, "%s", key);
            lua_pop(L, 1);
            return fail_key(rd, copy, "%s", "unknown key (see mtref-rules(5) for the keys a rules file may set)");
        }
    }
    for (size_t i = 0; i < NKEYS; i++) {
        raw_field(L, -1, key_order[i]);
        int rc = lua_isnil(L, -1) ? 0 : read_key(rd, L, key_order[i]);
        lua_pop(L, 1);
        if (rc != 0) return -1;
    }
    return 0;
}

/* incompatible = {["other-file"] = "why"}: refused when both are loaded. */
static int check_pairs(struct ruleset *set, lua_State *L, int tables_base, int loaded, char *err)
{
    for (int i = 0; i < loaded; i++) {
        raw_field(L, tables_base + i, "incompatible");
        if (!lua_istable(L, -1)) { lua_pop(L, 1); continue; }
        for (int j = 0; j < loaded; j++) {
            if (j == i) continue;
            raw_field(L, -1, set->names[j]);
            if (!lua_isnil(L, -1)) {
                const char *why = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "they cannot combine";
                int a = i < j ? i : j, b = i < j ? j : i;
                snprintf(err, RULES_MESSAGE_SIZE, "%s:%d: %s cannot be combined with %s: %s", set->shown[i],
                         line_of_key(set->paths[i], set->names[j]), set->names[a], set->names[b], why);
                lua_pop(L, 2);
                return -1;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* --- hooks the engine calls ---------------------------------------------- */

/* Pushes the hook's function; the message prefix names its file and line. */
static void push_hook(struct ruleset *set, enum hook_id id, char *where, size_t size)
{
    lua_rawgeti(sandbox_state(set->sb), LUA_REGISTRYINDEX, set->hook_ref[id]);
    snprintf(where, size, "%s:%d", set->shown[set->hook_file[id]], set->hook_line[id]);
}

static int hook_result_error(struct ruleset *set, enum hook_id id, const char *expected, lua_State *L, char *err)
{
    char where[PATH_SIZE + 20];
    snprintf(where, sizeof where, "%s:%d", set->shown[set->hook_file[id]], set->hook_line[id]);
    snprintf(err, RULES_MESSAGE_SIZE, "%s: %s returned %s, expected %s", where, hook_names[id], luaL_typename(L, -1), expected);
    lua_pop(L, 1);
    return -1;
}

static int call_engine(void *ctx, int round, int rounds, int *pip, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[PATH_SIZE + 20];
    push_hook(set, HOOK_ENGINE, where, sizeof where);
    lua_pushinteger(L, round);
    lua_pushinteger(L, rounds);
    if (sandbox_call(set->sb, 2, 1, where, err) != 0) return -1;
    int isnum;
    lua_Integer v = integer_value(L, -1, &isnum);
    if (!isnum || v < 0 || v > TILE_MAX_PIP) return hook_result_error(set, HOOK_ENGINE, "a pip 0..12", L, err);
    lua_pop(L, 1);
    *pip = (int)v;
    return 0;
}

static int call_eliminated(void *ctx, const struct game *g, int seat, int64_t total, bool *out, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[PATH_SIZE + 20];
    push_hook(set, HOOK_ELIMINATED, where, sizeof where);
    lua_createtable(L, 0, 4);
    lua_pushstring(L, g->names[seat]);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, seat + 1);
    lua_setfield(L, -2, "seat");
    lua_pushinteger(L, (lua_Integer)total);
    lua_setfield(L, -2, "total");
    lua_pushinteger(L, g->round);
    lua_setfield(L, -2, "round");
    if (sandbox_call(set->sb, 1, 1, where, err) != 0) return -1;
    if (!lua_isboolean(L, -1)) return hook_result_error(set, HOOK_ELIMINATED, "true or false", L, err);
    *out = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return 0;
}

static int call_round_points(void *ctx, const struct game *g, const struct round_outcome *o, int64_t points[], char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[PATH_SIZE + 20];
    push_hook(set, HOOK_ROUND_POINTS, where, sizeof where);
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, o->round);
    lua_setfield(L, -2, "round");
    if (o->out_seat >= 0) lua_pushstring(L, g->names[o->out_seat]); else lua_pushnil(L);
    lua_setfield(L, -2, "out");
    lua_pushboolean(L, o->out_on_double);
    lua_setfield(L, -2, "out_on_double");
    lua_createtable(L, 0, o->nplayers);
    lua_createtable(L, o->nplayers, 0);
    for (int s = 0, n = 0; s < o->nplayers; s++) {
        if (!o->in_round[s]) continue;
        lua_pushinteger(L, (lua_Integer)o->hand_value[s]);
        lua_setfield(L, -3, g->names[s]);
        lua_pushstring(L, g->names[s]);
        lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -3, "players");
    lua_setfield(L, -2, "hands");
    if (sandbox_call(set->sb, 1, 1, where, err) != 0) return -1;
    if (!lua_istable(L, -1)) return hook_result_error(set, HOOK_ROUND_POINTS, "a table of points by name", L, err);
    for (int s = 0; s < o->nplayers; s++) {
        points[s] = 0;
        if (!o->in_round[s]) continue;
        raw_field(L, -1, g->names[s]);
        int isnum;
        lua_Integer v = integer_value(L, -1, &isnum);
        if (!isnum || v < -1000000000 || v > 1000000000) {
            snprintf(err, RULES_MESSAGE_SIZE, "%s: round_points: %s got %s, expected an integer -1e9..1e9", where,
                     g->names[s], isnum ? "a number out of range" : luaL_typename(L, -1));
            lua_pop(L, 2);
            return -1;
        }
        points[s] = v;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

static int call_may_play(void *ctx, const struct game *g, int seat, tile_t tile, int train, bool *allowed, char *why,
                         char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[PATH_SIZE + 20];
    push_hook(set, HOOK_MAY_PLAY, where, sizeof where);
    lua_createtable(L, 0, 16);
    lua_pushstring(L, g->names[seat]);
    lua_setfield(L, -2, "player");
    lua_pushinteger(L, seat + 1);
    lua_setfield(L, -2, "seat");
    lua_pushinteger(L, tile_low(tile));
    lua_setfield(L, -2, "low");
    lua_pushinteger(L, tile_high(tile));
    lua_setfield(L, -2, "high");
    lua_pushstring(L, train == TRAIN_MEX ? "mex" : g->names[train]);
    lua_setfield(L, -2, "train");
    lua_pushboolean(L, train == seat);
    lua_setfield(L, -2, "own");
    lua_pushinteger(L, g->round);
    lua_setfield(L, -2, "round");
    lua_pushboolean(L, !g->had_turn[seat]);
    lua_setfield(L, -2, "first_turn");
    lua_pushboolean(L, g->ndoubles > 0);
    lua_setfield(L, -2, "double_open");
    lua_pushboolean(L, g->trains[train].marker);
    lua_setfield(L, -2, "marked");
    lua_pushinteger(L, g->trains[train].open_pip);
    lua_setfield(L, -2, "open");
    lua_pushboolean(L, g->trains[seat].marker);
    lua_setfield(L, -2, "own_marked");
    lua_pushinteger(L, tileset_count(g->hands[seat]));
    lua_setfield(L, -2, "hand");
    lua_pushinteger(L, tileset_count(g->boneyard));
    lua_setfield(L, -2, "boneyard");
    if (sandbox_call(set->sb, 1, 2, where, err) != 0) return -1;
    if (!lua_isboolean(L, -2)) {
        lua_pop(L, 1);
        return hook_result_error(set, HOOK_MAY_PLAY, "true or false (and a reason)", L, err);
    }
    *allowed = lua_toboolean(L, -2);
    why[0] = '\0';
    if (!*allowed) {
        const char *reason = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "this play is forbidden";
        snprintf(why, RULES_MESSAGE_SIZE, "%s: %s", set->names[set->hook_file[HOOK_MAY_PLAY]], reason);
    }
    lua_pop(L, 2);
    return 0;
}

/* --- rule sets ------------------------------------------------------------ */

static void ruleset_free(struct ruleset *set)
{
    if (!set) return;
    sandbox_free(set->sb);
    free(set);
}

static struct ruleset *ruleset_load(const char *const files[], int n, char *err)
{
    struct ruleset *set = mt_malloc(sizeof *set);
    if (!set) { snprintf(err, RULES_MESSAGE_SIZE, "out of memory"); return NULL; }
    memset(set, 0, sizeof *set);
    rules_init_canonical(&set->rules);
    for (int id = 0; id < HOOK_COUNT; id++) set->hook_ref[id] = LUA_NOREF;
    set->sb = sandbox_new();
    if (!set->sb) { snprintf(err, RULES_MESSAGE_SIZE, "out of memory"); free(set); return NULL; }
    lua_State *L = sandbox_state(set->sb);
    if (n > MAX_FILES) n = MAX_FILES;
    /* same file named twice (any spelling) counts once */
    for (int i = 0; i < n; i++) {
        char path[PATH_SIZE], name[NAME_SIZE];
        if (!resolve(files[i], path, name)) {
            snprintf(err, RULES_MESSAGE_SIZE,
                     "%s: no such rules file (looked in MTREF_RULES_PATH, %s, share/mtref/rules beside mtref, ./rules)",
                     files[i], MTREF_RULES_DIR);
            ruleset_free(set);
            return NULL;
        }
        /* house-rules.md: NAME, NAME.lua and .../NAME.lua are one file; twice counts once */
        bool seen = false;
        for (int j = 0; j < set->nfiles && !seen; j++) seen = strcmp(set->names[j], name) == 0;
        if (seen) continue;
        snprintf(set->paths[set->nfiles], PATH_SIZE, "%s", path);
        if (strchr(files[i], '/')) snprintf(set->shown[set->nfiles], PATH_SIZE, "%s", files[i]);
        else snprintf(set->shown[set->nfiles], PATH_SIZE, "%s.lua", name);
        snprintf(set->names[set->nfiles], NAME_SIZE, "%s", name);
        set->nfiles++;
    }
    int base = lua_gettop(L) + 1;
    for (int i = 0; i < set->nfiles; i++) {
        if (sandbox_run_file(set->sb, set->paths[i], set->shown[i], err) != 0) goto fail;
        struct reading rd = {set, i, err};
        if (read_table(&rd, L) != 0) goto fail;
        if (check_pairs(set, L, base, i + 1, err) != 0) goto fail;
    }
    const char *problem = rules_check(&set->rules);
    if (problem) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: these rules cannot be played: %s", set->shown[set->nfiles - 1], problem);
        goto fail;
    }
    lua_settop(L, base - 1);
    size_t used = 0;
    for (int i = 0; i < set->nfiles; i++)
        used += (size_t)snprintf(set->names_joined + used, sizeof set->names_joined - used, "%s%s", i ? ", " : "",
                                 set->names[i]);
    set->rules.names = set->names_joined;
    struct rules_hooks *h = &set->rules.hooks;
    h->ctx = set;
    if (set->hook_ref[HOOK_ENGINE] != LUA_NOREF) h->engine_pip = call_engine;
    if (set->hook_ref[HOOK_ELIMINATED] != LUA_NOREF) h->eliminated = call_eliminated;
    if (set->hook_ref[HOOK_ROUND_POINTS] != LUA_NOREF) h->round_points = call_round_points;
    if (set->hook_ref[HOOK_MAY_PLAY] != LUA_NOREF) h->may_play = call_may_play;
    return set;
fail:
    ruleset_free(set);
    return NULL;
}

static char *key_of(const char *const files[], int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(files[i]) + 1;
    char *key = mt_malloc(len);
    if (!key) return NULL;
    key[0] = '\0';
    for (int i = 0; i < n; i++) {
        strcat(key, files[i]);
        strcat(key, "\n");
    }
    return key;
}

static bool in_cache(const struct luarules *lr, const struct ruleset *set)
{
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (lr->cached[i] == set) return true;
    return false;
}

static void *loader_load(void *ctx, const char *const files[], int n, const struct rules **rules, char *err)
{
    struct luarules *lr = ctx;
    char *key = key_of(files, n);
    if (!key) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    lr->clock++;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (lr->keys[i] && strcmp(key, lr->keys[i]) == 0) {
            free(key);
            lr->last_used[i] = lr->clock;
            lr->cached[i]->users++;
            *rules = &lr->cached[i]->rules;
            return lr->cached[i];
        }
    struct ruleset *set = ruleset_load(files, n, err);
    if (!set) {
        free(key);
        return NULL;
    }
    int slot = 0;                        /* the least recently used slot */
    for (int i = 1; i < CACHE_SLOTS; i++)
        if (lr->last_used[i] < lr->last_used[slot]) slot = i;
    struct ruleset *evicted = lr->cached[slot];
    free(lr->keys[slot]);
    lr->cached[slot] = set;
    lr->keys[slot] = key;
    lr->last_used[slot] = lr->clock;
    if (evicted && evicted->users == 0) ruleset_free(evicted);
    set->users = 1;
    *rules = &set->rules;
    return set;
}

static void loader_release(void *ctx, void *handle)
{
    struct luarules *lr = ctx;
    struct ruleset *set = handle;
    if (--set->users == 0 && !in_cache(lr, set)) ruleset_free(set);
}

struct rules_loader luarules_loader(struct luarules *lr)
{
    struct rules_loader l = {lr, loader_load, loader_release};
    return l;
}

/* --- mtref rules ---------------------------------------------------------- */

static void describe(const struct ruleset *set, FILE *out)
{
    struct rules canon;
    rules_init_canonical(&canon);
    const struct rules *r = &set->rules;
    fprintf(out, "rules: %s\n", set->names_joined);
    for (int i = 0; i < set->nfiles; i++) {
        fprintf(out, "  file: %s", set->paths[i]);
        if (set->descriptions[i][0]) fprintf(out, " (%s)", set->descriptions[i]);
        putc('\n', out);
    }
    bool changed = false;
    if (r->min_players != canon.min_players || r->max_players != canon.max_players) {
        fprintf(out, "  players: %d to %d (canonical 2 to 8)\n", r->min_players, r->max_players);
        changed = true;
    }
    for (int n = r->min_players; n <= r->max_players; n++)
        if (r->hand_size[n] != canon.hand_size[n]) {
            fprintf(out, "  hand size with %d players: %d (canonical %d)\n", n, r->hand_size[n], canon.hand_size[n]);
            changed = true;
        }
    int differing = 0;
    for (tile_t t = 0; t < TILE_COUNT; t++) {
        if (r->tile_value[t] == canon.tile_value[t]) continue;
        char text[TILE_TEXT_SIZE];
        tile_format(t, text);
        if (differing % 8 == 0) fputs(differing ? "\n   " : "  tile values (canonical: the pips):", out);
        fprintf(out, " %s=%d", text, r->tile_value[t]);
        differing++;
    }
    if (differing) {
        putc('\n', out);
        changed = true;
    }
    if (r->rounds_allowed != canon.rounds_allowed || r->default_rounds != canon.default_rounds) {
        fputs("  round counts:", out);
        for (int k = 1; k <= RULES_MAX_ROUNDS; k++)
            if ((r->rounds_allowed >> k) & 1) fprintf(out, " %d", k);
        fprintf(out, " (default %d; canonical 13, 7, 1)\n", r->default_rounds);
        changed = true;
    }
    if (r->doubles != canon.doubles) { fprintf(out, "  doubles: %s (canonical cover)\n", doubles_choices[r->doubles]); changed = true; }
    if (r->draw != canon.draw) { fprintf(out, "  draw: %s (canonical once)\n", draw_choices[r->draw]); changed = true; }
    if (r->first_turn_own_train) { fputs("  first turn: own train only\n", out); changed = true; }
    if (r->marker_after_cover) { fputs("  marker after an owed cover made elsewhere\n", out); changed = true; }
    if (r->scoring != canon.scoring) { fputs("  scoring: positive, the highest total wins\n", out); changed = true; }
    if (r->out_on_double_factor != 1) {
        fprintf(out, "  going out on a double multiplies the round's points by %d\n", r->out_on_double_factor);
        changed = true;
    }
    for (int id = 0; id < HOOK_COUNT; id++)
        if (set->hook_ref[id] != LUA_NOREF) {
            fprintf(out, "  hook %s: %s:%d\n", hook_names[id], set->paths[set->hook_file[id]], set->hook_line[id]);
            changed = true;
        }
    if (!changed) fputs("  changes nothing: the canonical rules stand\n", out);
}

int luarules_describe(struct luarules *lr, const char *const files[], int n, FILE *out, FILE *err)
{
    (void)lr;
    if (n == 0) {
        fputs("mtref: rules needs a NAME or PATH (e.g. mtref rules double-blank-50)\n", err);
        return 2;
    }
    char message[RULES_MESSAGE_SIZE];
    struct ruleset *set = ruleset_load(files, n, message);
    if (!set) {
        fprintf(err, "mtref: rules: %s\n", message);
        return 2;
    }
    describe(set, out);
    ruleset_free(set);
    return 0;
}
