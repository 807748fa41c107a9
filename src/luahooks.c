/* The Lua bridge, calls: the engine's hooks (rules.h) as calls into the Lua
 * functions of a rule set, each in the sandbox with a fresh budget, their results
 * type-checked. The tables they receive are fresh copies: a read-only view. */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "engine.h"
#include "luaruleset.h"


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
    lua_Integer v = luaread_integer(L, -1, &isnum);
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
        luaread_raw_field(L, -1, g->names[s]);
        int isnum;
        lua_Integer v = luaread_integer(L, -1, &isnum);
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

void luahooks_install(struct ruleset *set)
{
    struct rules_hooks *h = &set->rules.hooks;
    h->ctx = set;
    if (set->hook_ref[HOOK_ENGINE] != LUA_NOREF) h->engine_pip = call_engine;
    if (set->hook_ref[HOOK_ELIMINATED] != LUA_NOREF) h->eliminated = call_eliminated;
    if (set->hook_ref[HOOK_ROUND_POINTS] != LUA_NOREF) h->round_points = call_round_points;
    if (set->hook_ref[HOOK_MAY_PLAY] != LUA_NOREF) h->may_play = call_may_play;
}
