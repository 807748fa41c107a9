/* The Lua bridge, reading: the table a rules file returns -> settings and hooks of
 * its rule set. Every access to a script's table is raw (no metamethod of a script
 * may run outside a protected, budgeted call), every value is type-checked, and a
 * key nobody knows is an error that names its line. */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "escape.h"

#include "luaruleset.h"

const char *const ruleset_hook_names[RULESET_HOOK_COUNT] = {
    "engine", "eliminated", "round_points", "may_play", "may_draw", "may_pass", "another_play", "must_cover",
    "drawable", "blocked", "match_over", "winners", "opener", "lay_engine",
};

/* t[name] without metamethods: a script's __index must never run outside the
 * budgeted, protected calls of the sandbox. Pushes the value. */
/* An integer value: a number with an integral value, never a numeric string. */
lua_Integer luaread_integer(lua_State *L, int index, int *isnum)
{
    *isnum = 0;
    if (lua_type(L, index) != LUA_TNUMBER) return 0;
    return lua_tointegerx(L, index, isnum);
}

int luaread_raw_field(lua_State *L, int index, const char *name)
{
    index = lua_absindex(L, index);
    lua_pushstring(L, name);
    return lua_rawget(L, index);
}

/* The line of the first occurrence of key as a word in the file, for messages about
 * a key of the returned table; 1 when not found. */
static int line_of_key(const char *path, const char *key)
{
    char why[100];
    FILE *f = sandbox_open_source(path, why, sizeof why);
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
    lua_Integer v = luaread_integer(L, -1, &isnum);
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
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    for (int i = 0; i < n; i++)                 /* lengths too: a NUL must not hide junk */
        if (len == strlen(choices[i]) && memcmp(s, choices[i], len) == 0) { *out = i; return 0; }
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

/* Calls the function on top for each tile of `tiles` (tile_value), in tile order, and
 * keeps the results. */
static int value_tiles(struct reading *rd, lua_State *L, tileset tiles)
{
    struct ruleset *set = rd->set;
    for (tile_t t; (t = tileset_pop(&tiles)) != TILE_NONE;) {
        lua_pushvalue(L, -1);
        lua_pushinteger(L, tile_low(t));
        lua_pushinteger(L, tile_high(t));
        if (sandbox_call(set->sb, 2, 1, set->shown[rd->file], rd->err) != 0) return -1;
        int isnum;
        lua_Integer v = luaread_integer(L, -1, &isnum);
        if (!isnum || v < -RULES_MAX_TILE_VALUE || v > RULES_MAX_TILE_VALUE) {
            char tile[TILE_TEXT_SIZE];
            tile_format(t, tile);
            snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:%d: tile_value(%d, %d) returned %s, expected an integer -%d..%d",
                     set->shown[rd->file], line_of_key(set->paths[rd->file], "tile_value"), tile_low(t), tile_high(t),
                     isnum ? "a number out of range" : luaL_typename(L, -1), RULES_MAX_TILE_VALUE, RULES_MAX_TILE_VALUE);
            lua_pop(L, 1);
            return -1;
        }
        lua_pop(L, 1);
        set->rules.tile_value[t] = (int)v;
    }
    return 0;
}

/* tile_value is asked for the tiles of the set in force when the file is read; a
 * later file that widens the set has it asked for the rest (luaread_finish). */
static int read_tile_values(struct reading *rd, lua_State *L)
{
    struct ruleset *set = rd->set;
    if (value_tiles(rd, L, set->rules.set_tiles) != 0) return -1;
    luaL_unref(L, LUA_REGISTRYINDEX, set->value_ref);
    lua_pushvalue(L, -1);
    set->value_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    set->value_file = rd->file;
    set->valued = set->rules.set_tiles;
    return 0;
}

int luaread_finish(struct ruleset *set, char *err)
{
    tileset missing = tileset_minus(set->rules.set_tiles, set->valued);
    if (set->value_ref == LUA_NOREF || tileset_is_empty(missing)) return 0;
    lua_State *L = sandbox_state(set->sb);
    struct reading rd = {set, set->value_file, err};
    lua_rawgeti(L, LUA_REGISTRYINDEX, set->value_ref);
    int rc = value_tiles(&rd, L, missing);
    lua_pop(L, 1);
    if (rc == 0) set->valued = set->rules.set_tiles;
    return rc;
}

/* max_pip = N: the set double-N (6..15). Its round counts become N + 1 (every double
 * from N-N down to 0-0), the upper half and 1, the full match the default; `rounds`
 * and `default_rounds` (read after it) may say otherwise. */
static int read_set(struct reading *rd, lua_State *L)
{
    long long v;
    if (read_integer(rd, L, "max_pip", TILE_MIN_SET_PIP, TILE_MAX_PIP, &v) != 0) return -1;
    struct rules *r = &rd->set->rules;
    int n = (int)v;
    rules_set_pips(r, n);
    r->rounds_allowed = (1ULL << (n + 1)) | (1ULL << ((n + 2) / 2)) | (1ULL << 1);
    r->default_rounds = n + 1;
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
        lua_Integer v = luaread_integer(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum || v < 0 || v > set->rules.set_size) {
            char which[80];
            snprintf(which, sizeof which, "hand_size(%d) did not return an integer 0..%d", n, set->rules.set_size);
            return fail_key(rd, "hand_size", "%s", which);
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
        lua_pop(L, 1);
        size_t len;
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : "";
        if (lua_type(L, -1) != LUA_TSTRING || len != 3 || (memcmp(k, "min", 3) != 0 && memcmp(k, "max", 3) != 0)) {
            lua_pop(L, 1);
            return fail_key(rd, "players", "%s", "only min and max may be given");
        }
    }
    /* min, then max: the first error is the same whatever the table's order */
    static const char *const bounds[] = {"min", "max"};
    for (int i = 0; i < 2; i++) {
        if (luaread_raw_field(L, -1, bounds[i]) != LUA_TNIL &&
            read_integer(rd, L, "players", 2, RULES_MAX_PLAYERS, i ? &max : &min) != 0) {
            lua_pop(L, 1);
            return -1;
        }
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

static void keep_hook(struct reading *rd, lua_State *L, enum ruleset_hook id)
{
    struct ruleset *set = rd->set;
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    set->hook_line[id] = ar.linedefined > 0 ? ar.linedefined : 1;
    lua_pushvalue(L, -1);
    set->hook_ref[id] = luaL_ref(L, LUA_REGISTRYINDEX);    /* kept by the chain, freed with the state */
    set->hook_file[id] = rd->file;
    int n = set->nchain[id]++;                              /* a file is read once: n < RULESET_MAX_FILES */
    set->chain_ref[id][n] = set->hook_ref[id];
    set->chain_file[id][n] = rd->file;
    set->chain_line[id][n] = set->hook_line[id];
}

const char *const ruleset_doubles_choices[3] = {"cover", "anywhere-lifo", "anywhere-fifo"};
const char *const ruleset_draw_choices[2] = {"once", "until-playable"};
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
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        escape_copy(rd->set->descriptions[rd->file], sizeof rd->set->descriptions[0], text, len);
        return 0;
    }
    if (strcmp(key, "incompatible") == 0) {
        if (!lua_istable(L, -1)) return fail_key(rd, key, "expected a table {[\"name\"] = \"why\"}, got %s", luaL_typename(L, -1));
        return 0;
    }
    if (strcmp(key, "max_pip") == 0) return read_set(rd, L);
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
        if (read_choice(rd, L, key, ruleset_doubles_choices, 3, &choice) != 0) return -1;
        r->doubles = (enum doubles_policy)choice;
        return 0;
    }
    if (strcmp(key, "draw") == 0) {
        if (read_choice(rd, L, key, ruleset_draw_choices, 2, &choice) != 0) return -1;
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
        if (read_integer(rd, L, key, 1, RULES_MAX_FACTOR, &v) != 0) return -1;
        r->out_on_double_factor = (int)v;
        return 0;
    }
    for (int id = 0; id < RULESET_HOOK_COUNT; id++)
        if (strcmp(key, ruleset_hook_names[id]) == 0) {
            if (read_function(rd, L, key) != 0) return -1;
            keep_hook(rd, L, (enum ruleset_hook)id);
            return 0;
        }
    return fail_key(rd, key, "%s", "unknown key (see mtref-rules(5) for the keys a rules file may set)");
}

/* Keys are read in a fixed order, so that `rounds` sees `default_rounds` and error
 * messages do not depend on table traversal order. */
static const char *const key_order[] = {
    "description", "incompatible", "max_pip", "players", "hand_size", "tile_value", "default_rounds", "rounds",
    "doubles", "draw", "first_turn", "marker_after_cover", "scoring", "out_on_double",
    "engine", "eliminated", "round_points", "may_play", "may_draw", "may_pass", "another_play", "must_cover",
    "drawable", "blocked", "match_over", "winners", "opener", "lay_engine",
};
#define NKEYS (sizeof key_order / sizeof key_order[0])

static int read_table(struct reading *rd, lua_State *L);

int luaread_table(struct ruleset *set, int file, char *err)
{
    struct reading rd = {set, file, err};
    return read_table(&rd, sandbox_state(set->sb));
}

static int read_table(struct reading *rd, lua_State *L)
{
    if (!lua_istable(L, -1)) {
        snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:1: a rules file must return a table, not %s",
                 rd->set->shown[rd->file], luaL_typename(L, -1));
        return -1;
    }
    /* unknown keys first: a typo is an error, never ignored. The one named is the
     * least in byte order, not the first the hash order meets: messages never vary;
     * keys are compared whole, so a NUL cannot hide what follows it. */
    bool other_keys = false, unknown = false;
    char first[100] = "";
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) { other_keys = true; continue; }
        size_t len;
        const char *key = lua_tolstring(L, -1, &len);
        bool known = false;
        for (size_t i = 0; i < NKEYS && !known; i++)
            known = len == strlen(key_order[i]) && memcmp(key, key_order[i], len) == 0;
        if (known) continue;
        char shown[sizeof first];
        size_t shown_len = escape_copy(shown, sizeof shown, key, len);
        if (!unknown || strcmp(shown, first) < 0) memcpy(first, shown, shown_len + 1);
        unknown = true;
    }
    if (other_keys) {
        snprintf(rd->err, RULES_MESSAGE_SIZE, "%s:1: the rules table may only have string keys", rd->set->shown[rd->file]);
        return -1;
    }
    if (unknown) return fail_key(rd, first, "%s", "unknown key (see mtref-rules(5) for the keys a rules file may set)");
    for (size_t i = 0; i < NKEYS; i++) {
        luaread_raw_field(L, -1, key_order[i]);
        int rc = lua_isnil(L, -1) ? 0 : read_key(rd, L, key_order[i]);
        lua_pop(L, 1);
        if (rc != 0) return -1;
    }
    return 0;
}

/* incompatible = {["other-file"] = "why"}: refused when both are loaded. */
int luaread_pairs(struct ruleset *set, int tables_base, int loaded, char *err)
{
    lua_State *L = sandbox_state(set->sb);
    for (int i = 0; i < loaded; i++) {
        luaread_raw_field(L, tables_base + i, "incompatible");
        if (!lua_istable(L, -1)) { lua_pop(L, 1); continue; }
        for (int j = 0; j < loaded; j++) {
            if (j == i) continue;
            luaread_raw_field(L, -1, set->names[j]);
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
