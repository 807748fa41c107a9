/* The Lua bridge, calls: the engine's hooks (rules.h) as calls into the Lua
 * functions of a rule set, each in the sandbox with a fresh budget, their results
 * type-checked. Several files' hooks of one name combine: every may_play veto
 * applies, and the hooks that answer are chained in load order, each given the
 * answer so far (the canonical one first). Hooks read the game through the view of
 * luaview.c; the per-round tables (a player, an outcome, points) are fresh copies. */
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

/* Pushes link i of the hook's chain; where names its file and line for messages
 * (made once at install: a call formats nothing unless it fails). */
static void push_link(struct ruleset *set, enum ruleset_hook id, int i, const char **where)
{
    lua_rawgeti(sandbox_state(set->sb), LUA_REGISTRYINDEX, set->chain_ref[id][i]);
    *where = set->chain_where[id][i];
}

/* Calls link i (function and nargs arguments pushed) with the view open on g. */
static int call_link(struct ruleset *set, const struct game *g, int seat, tile_t tile, int train, int nargs,
                     int nresults, const char *where, char *err)
{
    luaview_begin(&set->view, g, seat, tile, train);
    int rc = sandbox_call(set->sb, nargs, nresults, where, err);
    luaview_end(&set->view);
    return rc;
}

/* A result of the wrong type or range (on top, popped): a `rules` error naming the hook. */
static int bad_result(enum ruleset_hook id, const char *where, const char *expected, lua_State *L, char *err)
{
    const char *got = luaL_typename(L, -1);
    int isnum;
    if (lua_type(L, -1) == LUA_TNUMBER) {
        luaread_integer(L, -1, &isnum);
        got = isnum ? "a number out of range" : "a number that is not an integer";
    }
    snprintf(err, RULES_MESSAGE_SIZE, "%s: %s returned %s, expected %s", where, ruleset_hook_names[id], got, expected);
    lua_pop(L, 1);
    return -1;
}

static int call_engine(void *ctx, const struct game *g, int round, int rounds, int *pip, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    const char *where;
    for (int i = 0; i < set->nchain[RULESET_HOOK_ENGINE]; i++) {
        push_link(set, RULESET_HOOK_ENGINE, i, &where);
        lua_pushinteger(L, round);
        lua_pushinteger(L, rounds);
        luaview_push(L, &set->view);
        lua_pushinteger(L, *pip);
        if (call_link(set, g, -1, TILE_NONE, -1, 4, 1, where, err) != 0) return -1;
        int isnum;
        lua_Integer v = luaread_integer(L, -1, &isnum);
        if (!isnum || v < 0 || v > g->rules->max_pip) {
            char range[64];
            snprintf(range, sizeof range, "a pip 0..%d (the %s set)", g->rules->max_pip, tile_set_name(g->rules->max_pip));
            return bad_result(RULESET_HOOK_ENGINE, where, range, L, err);
        }
        lua_pop(L, 1);
        *pip = (int)v;
    }
    return 0;
}

static int call_eliminated(void *ctx, const struct game *g, int seat, int64_t total, bool *out, char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    const char *where;
    *out = false;
    for (int i = 0; i < set->nchain[RULESET_HOOK_ELIMINATED]; i++) {
        push_link(set, RULESET_HOOK_ELIMINATED, i, &where);
        lua_createtable(L, 0, 4);
        field_string(L, "name", g->names[seat]);
        field_integer(L, "seat", seat + 1);
        field_integer(L, "total", (lua_Integer)total);
        field_integer(L, "round", g->round);
        luaview_push(L, &set->view);
        lua_pushboolean(L, *out);
        if (call_link(set, g, seat, TILE_NONE, -1, 3, 1, where, err) != 0) return -1;
        if (!lua_isboolean(L, -1)) return bad_result(RULESET_HOOK_ELIMINATED, where, "true or false", L, err);
        *out = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

static void push_outcome(lua_State *L, const struct game *g, const struct round_outcome *o)
{
    lua_createtable(L, 0, 5);
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
}

static int call_round_points(void *ctx, const struct game *g, const struct round_outcome *o, int64_t points[], char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    const char *where;
    for (int i = 0; i < set->nchain[RULESET_HOOK_ROUND_POINTS]; i++) {
        push_link(set, RULESET_HOOK_ROUND_POINTS, i, &where);
        push_outcome(L, g, o);
        luaview_push(L, &set->view);
        lua_createtable(L, 0, o->nplayers);
        for (int s = 0; s < o->nplayers; s++) {
            if (!o->in_round[s]) continue;
            lua_pushinteger(L, (lua_Integer)points[s]);
            lua_setfield(L, -2, g->names[s]);
        }
        if (call_link(set, g, -1, TILE_NONE, -1, 3, 1, where, err) != 0) return -1;
        if (!lua_istable(L, -1)) return bad_result(RULESET_HOOK_ROUND_POINTS, where, "a table of points by name", L, err);
        int64_t got[RULES_MAX_PLAYERS] = {0};
        for (int s = 0; s < o->nplayers; s++) {
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
            got[s] = v;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        memcpy(points, got, sizeof got[0] * (size_t)o->nplayers);
    }
    return 0;
}

/* A refusal's message: the file that set the hook, and its reason. */
static void refusal(const struct ruleset *set, int link, const char *reason, char *why)
{
    snprintf(why, RULES_MESSAGE_SIZE, "%s: %s", set->names[set->chain_file[RULESET_HOOK_MAY_PLAY][link]],
             reason ? reason : "this play is forbidden");
}

/* may_play is asked once per play checked or listed: the answers of link i are kept
 * in its memo (luamemo.c), and a play whose fields read have the same values again
 * is answered without a call, its cost charged to the match's budget. */
static int call_may_play(void *ctx, const struct game *g, int seat, tile_t tile, int train, bool *allowed, char *why,
                         char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    const char *where;
    *allowed = true;
    why[0] = '\0';
    for (int i = 0; i < set->nchain[RULESET_HOOK_MAY_PLAY]; i++) {
        struct luamemo *memo = set->play_memo[i];
        bool ok;
        const char *reason;
        long cost;
        luaview_begin(&set->view, g, seat, tile, train);
        bool known = memo && luamemo_find(memo, &set->view, &ok, &reason, &cost) && sandbox_match_charge(set->sb, cost);
        luaview_end(&set->view);
        if (known) {
            if (ok) continue;
            *allowed = false;
            refusal(set, i, reason, why);
            return 0;
        }
        push_link(set, RULESET_HOOK_MAY_PLAY, i, &where);
        luaview_push_move(L, &set->view);
        luaview_push(L, &set->view);
        luaview_log_begin(&set->view);
        int rc = call_link(set, g, seat, tile, train, 2, 2, where, err);
        int nreads = luaview_log_end(&set->view);
        if (rc != 0) return -1;
        if (!lua_isboolean(L, -2)) {
            lua_pop(L, 1);
            return bad_result(RULESET_HOOK_MAY_PLAY, where, "true or false (and a reason)", L, err);
        }
        *allowed = lua_toboolean(L, -2);
        reason = !*allowed && lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (memo) luamemo_add(memo, set->view.log, nreads, *allowed, reason, sandbox_last_cost(set->sb));
        if (!*allowed) {       /* every file's veto applies: the first one stands */
            refusal(set, i, reason, why);
            lua_pop(L, 2);
            return 0;
        }
        lua_pop(L, 2);
    }
    return 0;
}

/* --- the engine's questions (enum rules_question) ------------------------ */

/* Pushes the answer so far in the hook's own terms. */
static void push_answer(lua_State *L, const struct game *g, enum rules_question q, int64_t answer)
{
    switch (q) {
    case ASK_DRAWABLE:
        lua_pushinteger(L, (lua_Integer)answer);
        break;
    case ASK_OPENER:
        luaview_push_name(L, g, (int)answer);
        break;
    case ASK_LAY_ENGINE:
        lua_pushstring(L, answer ? "hand" : "aside");
        break;
    case ASK_WINNERS:
        lua_createtable(L, g->nplayers, 0);
        for (int s = 0, n = 0; s < g->nplayers; s++)
            if ((answer >> s) & 1) {
                lua_pushstring(L, g->names[s]);
                lua_rawseti(L, -2, ++n);
            }
        break;
    default:
        lua_pushboolean(L, answer != 0);
        break;
    }
}

/* The seat a returned name stands for (in_play: only players still in), or -1. */
static int seat_of_result(const struct game *g, lua_State *L, int index, bool in_play)
{
    if (lua_type(L, index) != LUA_TSTRING) return -1;
    size_t len;
    const char *name = lua_tolstring(L, index, &len);
    int seat = game_find_player(g, name, (int)len);
    return seat >= 0 && in_play && g->eliminated[seat] ? -1 : seat;
}

/* Reads the result on top into *answer (popped); -1 with err on a bad result. */
static int read_answer(lua_State *L, const struct game *g, enum rules_question q, enum ruleset_hook id, const char *where,
                       int64_t *answer, char *err)
{
    int isnum;
    switch (q) {
    case ASK_DRAWABLE: {
        lua_Integer v = luaread_integer(L, -1, &isnum);
        if (!isnum || v < 0 || v > tileset_count(g->boneyard))
            return bad_result(id, where, "a count from 0 to the boneyard's size", L, err);
        *answer = v;
        break;
    }
    case ASK_OPENER: {
        int seat = seat_of_result(g, L, -1, true);
        if (seat < 0) return bad_result(id, where, "the name of a player still in the match", L, err);
        *answer = seat;
        break;
    }
    case ASK_LAY_ENGINE: {
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(s, "aside") != 0 && strcmp(s, "hand") != 0)
            return bad_result(id, where, "\"aside\" or \"hand\"", L, err);
        *answer = strcmp(s, "hand") == 0;
        break;
    }
    case ASK_WINNERS: {
        if (!lua_istable(L, -1)) return bad_result(id, where, "a list of names", L, err);
        int64_t mask = 0;
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n && i <= 64; i++) {
            lua_rawgeti(L, -1, i);
            int seat = seat_of_result(g, L, -1, false);
            if (seat < 0) {
                lua_pop(L, 1);
                return bad_result(id, where, "a list of names of players at the table (one is not)", L, err);
            }
            mask |= (int64_t)1 << seat;
            lua_pop(L, 1);
        }
        if (mask == 0) return bad_result(id, where, "a list of at least one name (it is empty)", L, err);
        *answer = mask;
        break;
    }
    default:
        if (!lua_isboolean(L, -1)) return bad_result(id, where, "true or false", L, err);
        *answer = lua_toboolean(L, -1);
        break;
    }
    lua_pop(L, 1);
    return 0;
}

static int call_ask(void *ctx, const struct game *g, enum rules_question q, tile_t tile, int train, int64_t *answer,
                    char *err)
{
    struct ruleset *set = ctx;
    lua_State *L = sandbox_state(set->sb);
    enum ruleset_hook id = (enum ruleset_hook)(RULESET_HOOK_FIRST_QUESTION + q);
    bool about_turn = q != ASK_MATCH_OVER && q != ASK_WINNERS && q != ASK_OPENER && q != ASK_LAY_ENGINE;
    int seat = about_turn ? g->turn : -1;
    const char *where;
    for (int i = 0; i < set->nchain[id]; i++) {
        push_link(set, id, i, &where);
        int nargs = 2;
        if (q == ASK_ANOTHER_PLAY) {
            luaview_push_move(L, &set->view);
            nargs = 3;
        }
        luaview_push(L, &set->view);
        push_answer(L, g, q, *answer);
        int rc;
        if (q == ASK_MAY_PASS) {           /* tile and train carry what the engine knows */
            luaview_begin(&set->view, g, seat, TILE_NONE, -1);
            set->view.can_play = tile != 0;
            set->view.must_draw = train != 0;
            rc = sandbox_call(set->sb, nargs, 1, where, err);
            luaview_end(&set->view);
        } else {
            rc = call_link(set, g, seat, tile, train, nargs, 1, where, err);
        }
        if (rc != 0) return -1;
        if (read_answer(L, g, q, id, where, answer, err) != 0) return -1;
    }
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
    enum rules_question question;
    int64_t *answer;
    char *why, *err;
    bool returned;            /* the body ran to its end (else a Lua error stopped it) */
};

static int hook_body(void *ud)
{
    struct hook_call *c = ud;
    int rc = -1;
    switch (c->id) {
    case RULESET_HOOK_ENGINE: rc = call_engine(c->set, c->g, c->a, c->b, c->pip, c->err); break;
    case RULESET_HOOK_ELIMINATED: rc = call_eliminated(c->set, c->g, c->a, c->total, c->out, c->err); break;
    case RULESET_HOOK_ROUND_POINTS: rc = call_round_points(c->set, c->g, c->o, c->points, c->err); break;
    case RULESET_HOOK_MAY_PLAY: rc = call_may_play(c->set, c->g, c->a, c->tile, c->b, c->out, c->why, c->err); break;
    default: rc = call_ask(c->set, c->g, c->question, c->tile, c->b, c->answer, c->err); break;
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

static int protected_engine(void *ctx, const struct game *g, int round, int rounds, int *pip, char *err)
{
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_ENGINE, .g = g, .a = round, .b = rounds, .pip = pip,
                          .err = err};
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

/* The answer of every link from the memos, without Lua: false when one has none
 * (or the match's budget cannot pay), then nothing is charged. */
static bool remembered_may_play(struct ruleset *set, const struct game *g, int seat, tile_t tile, int train,
                                bool *allowed, char *why)
{
    long total = 0;
    bool ok = true;
    const char *reason = NULL;
    int link = 0;
    luaview_begin(&set->view, g, seat, tile, train);
    for (; link < set->nchain[RULESET_HOOK_MAY_PLAY] && ok; link++) {
        long cost;
        if (!set->play_memo[link] || !luamemo_find(set->play_memo[link], &set->view, &ok, &reason, &cost)) {
            luaview_end(&set->view);
            return false;
        }
        total += cost;
    }
    luaview_end(&set->view);
    if (!sandbox_match_charge(set->sb, total)) return false;
    *allowed = ok;
    why[0] = '\0';
    if (!ok) refusal(set, link - 1, reason, why);
    return true;
}

static int protected_may_play(void *ctx, const struct game *g, int seat, tile_t tile, int train, bool *allowed,
                              char *why, char *err)
{
    if (remembered_may_play(ctx, g, seat, tile, train, allowed, why)) return 0;
    struct hook_call c = {.set = ctx, .id = RULESET_HOOK_MAY_PLAY, .g = g, .a = seat, .b = train, .tile = tile,
                          .out = allowed, .why = why, .err = err};
    return protected_hook(&c);
}

static int protected_ask(void *ctx, const struct game *g, enum rules_question q, tile_t tile, int train,
                         int64_t *answer, char *err)
{
    struct hook_call c = {.set = ctx, .id = (enum ruleset_hook)(RULESET_HOOK_FIRST_QUESTION + q), .g = g,
                          .question = q, .tile = tile, .b = train, .answer = answer, .err = err};
    return protected_hook(&c);
}

void luahooks_install(struct ruleset *set)
{
    struct rules_hooks *h = &set->rules.hooks;
    h->ctx = set;
    lua_State *L = sandbox_state(set->sb);
    luaview_init(L, &set->view);
    for (int id = 0; id < RULESET_HOOK_COUNT; id++)
        for (int i = 0; i < set->nchain[id]; i++) {
            set->chain_where[id][i] = lua_pushfstring(L, "%s:%d", set->shown[set->chain_file[id][i]],
                                                      set->chain_line[id][i]);
            luaL_ref(L, LUA_REGISTRYINDEX);      /* kept alive, so the pointer stays valid */
        }
    if (set->nchain[RULESET_HOOK_ENGINE]) h->engine_pip = protected_engine;
    if (set->nchain[RULESET_HOOK_ELIMINATED]) h->eliminated = protected_eliminated;
    if (set->nchain[RULESET_HOOK_ROUND_POINTS]) h->round_points = protected_round_points;
    if (set->nchain[RULESET_HOOK_MAY_PLAY]) h->may_play = protected_may_play;
    h->ask = protected_ask;
    for (int q = 0; q < ASK_COUNT; q++) {
        h->asks[q] = set->nchain[RULESET_HOOK_FIRST_QUESTION + q] > 0;
        if (h->asks[q] && q <= ASK_BLOCKED) h->asks_per_move = true;
    }
    h->at_round_end = h->engine_pip || h->round_points || h->eliminated || h->asks[ASK_MATCH_OVER] ||
                      h->asks[ASK_WINNERS] || h->asks[ASK_OPENER] || h->asks[ASK_LAY_ENGINE];
    /* no memo (out of memory) only means every play is asked */
    for (int i = 0; i < set->nchain[RULESET_HOOK_MAY_PLAY]; i++) set->play_memo[i] = luamemo_new();
    int n = set->nchain[RULESET_HOOK_LAY_ENGINE];
    if (n) set->rules.lay_engine_by = set->names[set->chain_file[RULESET_HOOK_LAY_ENGINE][n - 1]];
}

_Static_assert(RULESET_HOOK_COUNT - RULESET_HOOK_FIRST_QUESTION == ASK_COUNT, "one hook per question of the engine");
