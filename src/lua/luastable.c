/* The sandbox's deterministic library (see luastable.h). Debian's Lua seeds each
 * state's string hash from an address and the clock, and tables and functions hash
 * by address (ASLR): iteration order, addresses in tostring and %p, and a seedless
 * math.randomseed are the ways a hook could toss a coin. */
#include "luastable.h"

#include <stdbool.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "luabounded.h"
#include "luacharge.h"

/* ---- names of values ------------------------------------------------------ */

/* Pushes tostring(v) of the value at i: __tostring when it has one, else the value
 * itself for numbers, strings, booleans and nil, else "table: #N" (N its creation
 * number). */
static void push_text(lua_State *L, int i)
{
    i = lua_absindex(L, i);
    if (luaL_callmeta(L, i, "__tostring")) {
        if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
        return;
    }
    switch (lua_type(L, i)) {
    case LUA_TNUMBER: case LUA_TSTRING: case LUA_TBOOLEAN: case LUA_TNIL:
        luaL_tolstring(L, i, NULL);
        return;
    default:
        break;
    }
    int tt = luaL_getmetafield(L, i, "__name");
    const char *kind = tt == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, i);
    lua_pushfstring(L, "%s: #%I", kind, (LUAI_UACINT)sandbox_identity(L, i));
    if (tt != LUA_TNIL) lua_remove(L, -2);
}

static int stable_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    push_text(L, 1);
    return 1;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* string.format with %p as the creation number ("(null)" for values that are no
 * object, as Lua's) and %s of a table or function as tostring names it. */
static int stable_format(lua_State *L)
{
    size_t flen;
    const char *f = luaL_checklstring(L, 1, &flen);
    int top = lua_gettop(L), arg = 1;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < flen; i++) {
        if (f[i] != '%') { luaL_addchar(&b, f[i]); continue; }
        if (i + 1 < flen && f[i + 1] == '%') { luaL_addlstring(&b, "%%", 2); i++; continue; }
        size_t j = i + 1;
        while (j < flen && f[j] && strchr("-+ #0", f[j])) j++;
        while (j < flen && is_digit(f[j])) j++;
        if (j < flen && f[j] == '.') {
            j++;
            while (j < flen && is_digit(f[j])) j++;
        }
        if (j >= flen) {                       /* the original names what is wrong */
            luaL_addlstring(&b, f + i, flen - i);
            break;
        }
        arg++;
        if (f[j] == 'p') {
            for (size_t k = i + 1; k < j; k++)
                if (f[k] != '-' && !is_digit(f[k])) return luaL_error(L, "invalid conversion '%%%s' to 'format'", "p");
            if (arg <= top) {
                uint64_t id = sandbox_identity(L, arg);
                if (id) lua_pushfstring(L, "#%I", (LUAI_UACINT)id);
                else lua_pushliteral(L, "(null)");
                lua_replace(L, arg);
            }
            luaL_addlstring(&b, f + i, j - i);
            luaL_addchar(&b, 's');
        } else {
            if (f[j] == 's' && arg <= top && lua_type(L, arg) != LUA_TSTRING && lua_type(L, arg) != LUA_TNUMBER) {
                push_text(L, arg);
                lua_replace(L, arg);
            }
            luaL_addlstring(&b, f + i, j - i + 1);
        }
        i = j;
    }
    luaL_pushresult(&b);
    lua_replace(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* ---- randomness ------------------------------------------------------------ */

static int stable_randomseed(lua_State *L)
{
    if (lua_isnone(L, 1)) lua_pushinteger(L, 0);     /* not the clock */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* ---- traversal order ------------------------------------------------------- */

static int rank(int type)
{
    switch (type) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
    }
}

int luastable_compare_keys(lua_State *L, int a, int b)
{
    int ta = lua_type(L, a), tb = lua_type(L, b);
    if (rank(ta) != rank(tb)) return rank(ta) < rank(tb) ? -1 : 1;
    switch (ta) {
    case LUA_TNUMBER:
        return lua_compare(L, a, b, LUA_OPLT) ? -1 : lua_compare(L, b, a, LUA_OPLT) ? 1 : 0;
    case LUA_TSTRING: {
        size_t la, lb;
        const char *sa = lua_tolstring(L, a, &la), *sb = lua_tolstring(L, b, &lb);
        int c = memcmp(sa, sb, la < lb ? la : lb);
        if (c != 0) return c < 0 ? -1 : 1;
        return la < lb ? -1 : la > lb ? 1 : 0;
    }
    case LUA_TBOOLEAN:
        return lua_toboolean(L, a) - lua_toboolean(L, b);
    default: {
        if (ta != tb) return ta < tb ? -1 : 1;
        uint64_t ia = sandbox_identity(L, a), ib = sandbox_identity(L, b);
        if (ia != ib) return ia < ib ? -1 : 1;
        if (lua_rawequal(L, a, b)) return 0;
        /* values without a creation number, which no rules file can reach */
        const void *pa = lua_topointer(L, a), *pb = lua_topointer(L, b);
        return pa < pb ? -1 : pa > pb ? 1 : 0;
    }
    }
}

static bool key_less(lua_State *L, int a, int b, void *ud)
{
    (void)ud;
    return luastable_compare_keys(L, a, b) < 0;
}

/* The registry table (weak keys) of each table's keys in order, taken when a
 * traversal begins. */
static const char snapshots = 's';

/* Pushes the sorted list of the keys of the table at t, and keeps it. */
static void take_snapshot(lua_State *L, int t)
{
    lua_newtable(L);
    int keys = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        sandbox_charge(L, 1);
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
    }
    struct luabounded_order order = {true, key_less, NULL};
    luabounded_sort(L, keys, n, &order);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &snapshots);
    lua_pushvalue(L, t);
    lua_pushvalue(L, keys);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* next(t, k) in the fixed order: the key after k in the snapshot taken when the
 * traversal began (a new one with every next(t, nil)), skipping keys removed since. */
static int stable_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &snapshots);
    lua_pushvalue(L, 1);
    lua_rawget(L, 3);
    if (lua_isnil(L, 2) || lua_isnil(L, 4)) {
        lua_pop(L, 1);
        take_snapshot(L, 1);
    }
    int keys = 4;
    lua_Integer n = (lua_Integer)lua_rawlen(L, keys), first = 1;
    if (!lua_isnil(L, 2)) {                  /* the first key after k: binary search */
        lua_Integer lo = 1, hi = n + 1;
        while (lo < hi) {
            lua_Integer mid = lo + (hi - lo) / 2;
            sandbox_charge(L, 1);
            lua_rawgeti(L, keys, mid);
            bool after = luastable_compare_keys(L, -1, 2) > 0;
            lua_pop(L, 1);
            if (after) hi = mid; else lo = mid + 1;
        }
        first = lo;
    }
    for (lua_Integer i = first; i <= n; i++) {
        sandbox_charge(L, 1);
        lua_rawgeti(L, keys, i);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL) return 2;
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    return 1;
}

static int stable_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {     /* as Lua's pairs */
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    lua_pushvalue(L, lua_upvalueindex(1));     /* next */
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int ipairs_step(lua_State *L)
{
    lua_Integer i = (lua_Integer)((lua_Unsigned)luaL_checkinteger(L, 2) + 1u);
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int stable_ipairs(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

/* utf8.codes returns a light C function: the same one, as a closure. */
static int stable_codes(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 3);
    for (int u = 2; u <= 3; u++)
        if (lua_tocfunction(L, -3) == lua_tocfunction(L, lua_upvalueindex(u))) {
            lua_pushvalue(L, lua_upvalueindex(u));
            lua_replace(L, -4);
        }
    return 3;
}

/* Pushes f as a closure: one upvalue, which it never reads, makes it a block. */
static void push_closure(lua_State *L, lua_CFunction f)
{
    lua_pushboolean(L, 1);
    lua_pushcclosure(L, f, 1);
}

/* Makes the light C functions of the table at t closures, in the order of their
 * names: the creation numbers must not follow the hash order of the table. */
static void make_closures(lua_State *L, int t)
{
    t = lua_absindex(L, t);
    lua_newtable(L);
    int names = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        bool light = false;
        if (lua_iscfunction(L, -1)) {
            if (lua_getupvalue(L, -1, 1)) lua_pop(L, 1);
            else light = true;
        }
        lua_pop(L, 1);
        if (light) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, names, ++n);
        }
    }
    struct luabounded_order order = {true, key_less, NULL};
    luabounded_sort(L, names, n, &order);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, names, i);
        lua_pushvalue(L, -1);
        lua_rawget(L, t);
        push_closure(L, lua_tocfunction(L, -1));
        lua_remove(L, -2);
        lua_rawset(L, t);
    }
    lua_pop(L, 1);
}

void luastable_open(lua_State *L)
{
    lua_newtable(L);                           /* the snapshots, weak keys */
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &snapshots);

    lua_pushglobaltable(L);
    push_closure(L, stable_tostring);
    lua_setfield(L, -2, "tostring");
    push_closure(L, stable_next);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "next");
    lua_pushcclosure(L, stable_pairs, 1);
    lua_setfield(L, -2, "pairs");
    push_closure(L, ipairs_step);
    lua_pushcclosure(L, stable_ipairs, 1);
    lua_setfield(L, -2, "ipairs");

    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, stable_format, 1);
    lua_setfield(L, -2, "format");
    lua_pop(L, 1);

    lua_getfield(L, -1, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushvalue(L, -1);
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);                         /* luaopen_math seeded from the clock */
    lua_pushcclosure(L, stable_randomseed, 1);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);

    lua_getfield(L, -1, LUA_UTF8LIBNAME);
    lua_getfield(L, -1, "codes");
    for (int lax = 0; lax <= 1; lax++) {
        lua_pushvalue(L, -1 - lax);
        lua_pushliteral(L, "");
        lua_pushboolean(L, lax);
        lua_call(L, 2, 1);
        push_closure(L, lua_tocfunction(L, -1));
        lua_remove(L, -2);
    }
    lua_pushcclosure(L, stable_codes, 3);
    lua_setfield(L, -2, "codes");
    lua_pop(L, 1);

    static const char *const libraries[] = {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME};
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        lua_getfield(L, -1, libraries[i]);
        make_closures(L, -1);
        lua_pop(L, 1);
    }
    make_closures(L, -1);
    lua_pop(L, 1);
}
