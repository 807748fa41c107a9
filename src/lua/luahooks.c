/* The Lua bridge, calls: the engine's hooks (rules.h) as calls into the Lua
 * functions of a rule set, each in the sandbox with a fresh budget, their results
 * type-checked. The tables they receive are fresh copies: a read-only view. */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "engine.h"
#include "luaruleset.h"


/* Sets t[key] = value in the table on top of the stack (a fresh table of ours). */
static void field_integer(lua_State *L, const char *key, lua_Integer value)
{
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

static void field_boolean(lua_State *L, const char *key, int value)
{
    lua_pushboolean(L, value);
    lua_setfield(L, -2, key);
}

static void field_string(lua_State *L, const char *key, const char *value)
{
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

/* Pushes the hook's function; the message prefix names its file and line. */
static void push_hook(struct ruleset *set, enum ruleset_hook id, char *where, size_t size)
{
    lua_rawgeti(sandbox_state(set->sb), LUA_REGISTRYINDEX, set->hook_ref[id]);
    snprintf(where, size, "%s:%d", set->shown[set->hook_file[id]], set->hook_line[id]);
}

static int hook_result_error(struct ruleset *set, enum ruleset_hook id, const char *expected, lua_State *L, char *err)
{
    char where[RULESET_PATH_SIZE + 20];
    snprintf(where, sizeof where, "%s:%d", set->shown[set->hook_file[id]], set->hook_line[id]);
    snprintf(err, RULES_MESSAGE_SIZE, "%s: %s returned %s, expected %s", where, ruleset_hook_names[id], luaL_typename(L, -1), expected);
    lua_pop(L, 1);
    return -1;
}

static int call_engine(void *ctx, int round, int rounds, int *pip, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[RULESET_PATH_SIZE + 20];
    push_hook(set, RULESET_HOOK_ENGINE, where, sizeof where);
    lua_pushinteger(L, round);
    lua_pushinteger(L, rounds);
    if (sandbox_call(set->sb, 2, 1, where, err) != 0) return -1;
    int isnum;
    lua_Integer v = luaread_integer(L, -1, &isnum);
    if (!isnum || v < 0 || v > TILE_MAX_PIP) return hook_result_error(set, RULESET_HOOK_ENGINE, "a pip 0..12", L, err);
    lua_pop(L, 1);
    *pip = (int)v;
    return 0;
}

static int call_eliminated(void *ctx, const struct game *g, int seat, int64_t total, bool *out, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[RULESET_PATH_SIZE + 20];
    push_hook(set, RULESET_HOOK_ELIMINATED, where, sizeof where);
    lua_createtable(L, 0, 4);
    field_string(L, "name", g->names[seat]);
    field_integer(L, "seat", seat + 1);
    field_integer(L, "total", (lua_Integer)total);
    field_integer(L, "round", g->round);
    if (sandbox_call(set->sb, 1, 1, where, err) != 0) return -1;
    if (!lua_isboolean(L, -1)) return hook_result_error(set, RULESET_HOOK_ELIMINATED, "true or false", L, err);
    *out = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return 0;
}

static int call_round_points(void *ctx, const struct game *g, const struct round_outcome *o, int64_t points[], char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    char where[RULESET_PATH_SIZE + 20];
    push_hook(set, RULESET_HOOK_ROUND_POINTS, where, sizeof where);
    lua_createtable(L, 0, 4);
    field_integer(L, "round", o->round);
    if (o->out_seat >= 0) lua_pushstring(L, g->names[o->out_seat]); else lua_pushnil(L);
    lua_setfield(L, -2, "out");
    field_boolean(L, "out_on_double", o->out_on_double);
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
    if (!lua_istable(L, -1)) return hook_result_error(set, RULESET_HOOK_ROUND_POINTS, "a table of points by name", L, err);
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
    char where[RULESET_PATH_SIZE + 20];
    push_hook(set, RULESET_HOOK_MAY_PLAY, where, sizeof where);
    lua_createtable(L, 0, 16);
    field_string(L, "player", g->names[seat]);
    field_integer(L, "seat", seat + 1);
    field_integer(L, "low", tile_low(tile));
    field_integer(L, "high", tile_high(tile));
    field_string(L, "train", train == TRAIN_MEX ? "mex" : g->names[train]);
    field_boolean(L, "own", train == seat);
    field_integer(L, "round", g->round);
    field_boolean(L, "first_turn", !g->had_turn[seat]);
    field_boolean(L, "double_open", g->ndoubles > 0);
    field_boolean(L, "marked", g->trains[train].marker);
    field_integer(L, "open", g->trains[train].open_pip);
    field_boolean(L, "own_marked", g->trains[seat].marker);
    field_integer(L, "hand", tileset_count(g->hands[seat]));
    field_integer(L, "boneyard", tileset_count(g->boneyard));
    if (sandbox_call(set->sb, 1, 2, where, err) != 0) return -1;
    if (!lua_isboolean(L, -2)) {
        lua_pop(L, 1);
        return hook_result_error(set, RULESET_HOOK_MAY_PLAY, "true or false (and a reason)", L, err);
    }
    *allowed = lua_toboolean(L, -2);
    why[0] = '\0';
    if (!*allowed) {
        const char *reason = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "this play is forbidden";
        snprintf(why, RULES_MESSAGE_SIZE, "%s: %s", set->names[set->hook_file[RULESET_HOOK_MAY_PLAY]], reason);
    }
    lua_pop(L, 2);
    return 0;
}

/* --- every call in protected mode --------------------------------------------
 * The pushes above allocate, and an allocation can fail (the memory cap, or a real
 * shortage): outside a protected call Lua would panic and abort the referee. Each
 * hook therefore runs whole inside sandbox_protect; a failure is the hook's error. */

struct hook_call {
    struct ruleset *set;
    enum ruleset_hook id;
    const struct game *g;
    const struct round_outcome *o;
    int a, b;                 /* round and rounds; seat and train; seat */
    tile_t tile;
    int64_t total;
    int *pip;
    bool *out;
    int64_t *points;
    char *why, *err;
    bool returned;            /* the body ran to its end (else a Lua error stopped it) */
};

static int hook_body(void *ud)
{
    struct hook_call *c = ud;
    int rc = -1;
    switch (c->id) {
    case RULESET_HOOK_ENGINE: rc = call_engine(c->set, c->a, c->b, c->pip, c->err); break;
    case RULESET_HOOK_ELIMINATED: rc = call_eliminated(c->set, c->g, c->a, c->total, c->out, c->err); break;
    case RULESET_HOOK_ROUND_POINTS: rc = call_round_points(c->set, c->g, c->o, c->points, c->err); break;
    case RULESET_HOOK_MAY_PLAY: rc = call_may_play(c->set, c->g, c->a, c->tile, c->b, c->out, c->why, c->err); break;
    default: break;
    }
    c->returned = true;
    return rc;
}

static int protected_hook(struct hook_call *c)
{
    char what[RULES_MESSAGE_SIZE];
    int rc = sandbox_protect(c->set->sb, hook_body, c, "", what);
    if (rc != 0 && !c->returned)     /* the hook's place, formatted only when it failed */
        snprintf(c->err, RULES_MESSAGE_SIZE, "%s:%d%s", c->set->shown[c->set->hook_file[c->id]],
                 c->set->hook_line[c->id], what);
    return rc;
}

static int protected_engine(void *ctx, int round, int rounds, int *pip, char *err)
{
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_ENGINE, .a = round, .b = rounds, .pip = pip, .err = err};
    return protected_hook(&c);
}

static int protected_eliminated(void *ctx, const struct game *g, int seat, int64_t total, bool *out, char *err)
{
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_ELIMINATED, .g = g, .a = seat, .total = total, .out = out,
                          .err = err};
    return protected_hook(&c);
}

static int protected_round_points(void *ctx, const struct game *g, const struct round_outcome *o, int64_t points[],
                                  char *err)
{
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_ROUND_POINTS, .g = g, .o = o, .points = points, .err = err};
    return protected_hook(&c);
}

static int protected_may_play(void *ctx, const struct game *g, int seat, tile_t tile, int train, bool *allowed,
                              char *why, char *err)
{
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_MAY_PLAY, .g = g, .a = seat, .b = train, .tile = tile,
                          .out = allowed, .why = why, .err = err};
    return protected_hook(&c);
}

void luahooks_install(struct ruleset *set)
{
    struct rules_hooks *h = &set->rules.hooks;
    h->ctx = set;
    if (set->hook_ref[RULESET_HOOK_ENGINE] != LUA_NOREF) h->engine_pip = protected_engine;
    if (set->hook_ref[RULESET_HOOK_ELIMINATED] != LUA_NOREF) h->eliminated = protected_eliminated;
    if (set->hook_ref[RULESET_HOOK_ROUND_POINTS] != LUA_NOREF) h->round_points = protected_round_points;
    if (set->hook_ref[RULESET_HOOK_MAY_PLAY] != LUA_NOREF) h->may_play = protected_may_play;
}
