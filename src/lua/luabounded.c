/* Bounded library functions for the sandbox (see luabounded.h). Lua's own versions
 * loop in C, where the instruction hook never runs: table.insert driven by a __len
 * that claims math.maxinteger elements and a C function as __index walks 2^63 slots
 * without allocating a byte. These versions do what the manual says of Lua's and
 * count their work (8 instructions an element), so the budget ends them. */
#include "luabounded.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "luacharge.h"

/* ---- load: text only, a size limit, the compile's cost charged, and a reader
 * function called outside Lua's protected parser (which would swallow the budget) */

static int bounded_load(lua_State *L)
{
    size_t len;
    const char *chunkname;
    if (lua_type(L, 1) == LUA_TSTRING) {
        lua_tolstring(L, 1, &len);
        chunkname = luaL_optstring(L, 2, lua_tostring(L, 1));
        lua_pushvalue(L, 1);
    } else {
        luaL_checktype(L, 1, LUA_TFUNCTION);
        chunkname = luaL_optstring(L, 2, "=(load)");
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (len = 0;;) {
            lua_pushvalue(L, 1);
            int status = lua_pcall(L, 0, 1, 0);
            if (sandbox_spent(L)) return lua_error(L);
            if (status != LUA_OK) {          /* as Lua's load: nil and the message */
                luaL_pushfail(L);
                lua_insert(L, -2);
                return 2;
            }
            if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
            if (!lua_isstring(L, -1)) {
                luaL_pushfail(L);
                lua_pushliteral(L, "reader function must return a string");
                return 2;
            }
            size_t piece;
            lua_tolstring(L, -1, &piece);
            if (piece == 0) { lua_pop(L, 1); break; }
            len += piece;
            if (len > SANDBOX_SOURCE_LIMIT) break;
            luaL_addvalue(&b);
        }
        if (len > SANDBOX_SOURCE_LIMIT) lua_pop(L, 1);
        luaL_pushresult(&b);
    }
    if (len > SANDBOX_SOURCE_LIMIT) {
        luaL_pushfail(L);
        lua_pushfstring(L, "chunk larger than %d KB (the sandbox's limit)", (int)(SANDBOX_SOURCE_LIMIT >> 10));
        return 2;
    }
    const char *source = lua_tolstring(L, -1, &len);
    sandbox_charge(L, sandbox_compile_cost(source, len));
    if (luaL_loadbufferx(L, source, len, chunkname, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (!lua_isnone(L, 4)) {                 /* env, as Lua's load: the first upvalue */
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* ---- table functions ----------------------------------------------------- */

enum { TAB_R = 1, TAB_W = 2, TAB_L = 4 };

/* Instructions one element costs: a get and a set through metamethods (which may be
 * C functions, run without the hook) take as long as several instructions. */
#define ELEMENT_COST 8

static bool has_field(lua_State *L, const char *name)
{
    lua_pushstring(L, name);
    bool present = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    return present;
}

/* A table, or a value whose metatable gives what the function needs (as Lua's). */
static void check_table(lua_State *L, int arg, int what)
{
    if (lua_type(L, arg) == LUA_TTABLE) return;
    bool ok = lua_getmetatable(L, arg);
    if (ok) {
        ok = (!(what & TAB_R) || has_field(L, "__index")) && (!(what & TAB_W) || has_field(L, "__newindex")) &&
             (!(what & TAB_L) || has_field(L, "__len"));
        lua_pop(L, 1);
    }
    if (!ok) luaL_checktype(L, arg, LUA_TTABLE);
}

static lua_Integer length_of(lua_State *L, int arg, int what)
{
    check_table(L, arg, what | TAB_L);
    return luaL_len(L, arg);
}

static lua_Integer plus(lua_Integer a, lua_Integer b) { return (lua_Integer)((lua_Unsigned)a + (lua_Unsigned)b); }

static int bounded_insert(lua_State *L)
{
    lua_Integer end = plus(length_of(L, 1, TAB_R | TAB_W), 1);     /* first empty slot */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = end;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
        for (lua_Integer i = end; i > pos; i--) {
            sandbox_charge(L, ELEMENT_COST);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int bounded_remove(lua_State *L)
{
    lua_Integer size = length_of(L, 1, TAB_R | TAB_W);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        sandbox_charge(L, ELEMENT_COST);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static int bounded_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3), t = luaL_checkinteger(L, 4);
    int dest = lua_isnoneornil(L, 5) ? 1 : 5;
    check_table(L, 1, TAB_R);
    check_table(L, dest, TAB_W);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n, 4, "destination wrap around");
        bool forward = t > e || t <= f || (dest != 1 && !lua_compare(L, 1, dest, LUA_OPEQ));
        for (lua_Integer i = 0; i <= n; i++) {
            lua_Integer k = forward ? i : n - i;
            sandbox_charge(L, ELEMENT_COST);
            lua_geti(L, 1, f + k);
            lua_seti(L, dest, t + k);
        }
    }
    lua_pushvalue(L, dest);
    return 1;
}

static void concat_item(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    sandbox_charge(L, ELEMENT_COST);
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
    luaL_addvalue(b);
}

static int bounded_concat(lua_State *L)
{
    lua_Integer last = length_of(L, 1, TAB_R);
    size_t seplen;
    const char *sep = luaL_optlstring(L, 2, "", &seplen);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        concat_item(L, &b, i);
        luaL_addlstring(&b, sep, seplen);
    }
    if (i == last) concat_item(L, &b, i);
    luaL_pushresult(&b);
    return 1;
}

static int bounded_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
    if (n >= (unsigned)INT_MAX || !lua_checkstack(L, (int)(++n))) return luaL_error(L, "too many results to unpack");
    sandbox_charge(L, (long)n * ELEMENT_COST);
    for (; i < e; i++) lua_geti(L, 1, i);
    lua_geti(L, 1, e);
    return (int)n;
}

static void get_at(lua_State *L, int t, lua_Integer i, bool raw)
{
    if (raw) lua_rawgeti(L, t, i);
    else lua_geti(L, t, i);
}

static void set_at(lua_State *L, int t, lua_Integer i, bool raw)
{
    if (raw) lua_rawseti(L, t, i);
    else lua_seti(L, t, i);
}

static bool ordered(lua_State *L, int a, int b, const struct luabounded_order *o)
{
    sandbox_charge(L, ELEMENT_COST);
    return o->less(L, a, b, o->ud);
}

/* Moves the element at root down the heap t[1..n] to where it belongs. */
static void sift_down(lua_State *L, int t, lua_Integer root, lua_Integer n, const struct luabounded_order *o)
{
    get_at(L, t, root, o->raw);
    int v = lua_gettop(L);
    while (root <= n / 2) {
        lua_Integer child = 2 * root;
        get_at(L, t, child, o->raw);                 /* v + 1 */
        if (child < n) {
            get_at(L, t, child + 1, o->raw);         /* v + 2 */
            if (ordered(L, v + 1, v + 2, o)) {
                lua_replace(L, v + 1);
                child++;
            } else {
                lua_pop(L, 1);
            }
        }
        if (!ordered(L, v, v + 1, o)) {
            lua_pop(L, 1);
            break;
        }
        set_at(L, t, root, o->raw);                  /* t[root] = t[child] */
        root = child;
    }
    set_at(L, t, root, o->raw);
}

void luabounded_sort(lua_State *L, int t, lua_Integer n, const struct luabounded_order *order)
{
    t = lua_absindex(L, t);
    luaL_checkstack(L, 8, "sorting");
    for (lua_Integer root = n / 2; root >= 1; root--) sift_down(L, t, root, n, order);
    for (lua_Integer end = n; end > 1; end--) {
        get_at(L, t, 1, order->raw);
        get_at(L, t, end, order->raw);
        set_at(L, t, 1, order->raw);
        set_at(L, t, end, order->raw);
        sift_down(L, t, 1, end - 1, order);
    }
}

static bool less_than(lua_State *L, int a, int b, void *ud)
{
    (void)ud;
    return lua_compare(L, a, b, LUA_OPLT);
}

static bool less_by_function(lua_State *L, int a, int b, void *ud)
{
    (void)ud;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    bool less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

static int bounded_sort(lua_State *L)
{
    lua_Integer n = length_of(L, 1, TAB_R | TAB_W);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        struct luabounded_order o = {false, lua_isnil(L, 2) ? less_than : less_by_function, NULL};
        luabounded_sort(L, 1, n, &o);
    }
    return 0;
}

/* ---- string functions ---------------------------------------------------- */

/* Functions that scan their string without allocating (utf8.len, string.byte, ...):
 * one instruction per 8 bytes of it. */
#define SCAN_BYTES_PER_INSTRUCTION 8

/* Worst-case work of matching pattern p against a subject of length n: a quantifier,
 * a %b (which scans to the balance) and a back-reference (which compares a capture)
 * each multiply the work of every start position by up to n + 1. */
static double pattern_cost(size_t n, const char *p, size_t plen, bool plain)
{
    bool special = false;      /* over all plen bytes: a NUL must not hide what follows */
    for (size_t i = 0; i < plen && !special; i++) special = memchr("^$*+?.([%-", p[i], 10) != NULL;
    if (plain || !special) return (double)n * (double)(plen ? plen : 1);
    int factors = 0;
    for (size_t i = 0; i < plen; i++) {
        if (p[i] == '%') {
            if (i + 1 < plen && (p[i + 1] == 'b' || (p[i + 1] >= '0' && p[i + 1] <= '9'))) factors++;
            i++;
            continue;
        }
        if (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?') factors++;
    }
    return pow((double)n + 1, factors + 1) * (double)(plen ? plen : 1);
}

#define PATTERN_COST_LIMIT 1e8
/* A pattern call costs its worst-case work divided by this, in instructions. */
#define PATTERN_WORK_PER_INSTRUCTION 16

static void pattern_check(lua_State *L, double cost, size_t n)
{
    if (cost > PATTERN_COST_LIMIT)
        luaL_error(L, "pattern too costly for a subject of %d bytes (the sandbox bounds backtracking)", (int)n);
    sandbox_charge(L, (long)(cost / PATTERN_WORK_PER_INSTRUCTION));
}

static int call_original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int bounded_pattern(lua_State *L)
{
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &plen);
    bool plain = lua_toboolean(L, 4) && lua_isboolean(L, 4);
    pattern_check(L, pattern_cost(n, p, plen, plain), n);
    return call_original(L);
}

/* gsub also scans its replacement string once per match, and an empty pattern
 * matches n + 1 times: "%0" repeated a million times over an empty match allocates
 * nothing and would run for hours. */
static int bounded_gsub(lua_State *L)
{
    size_t n, plen, rlen = 0;
    luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &plen);
    if (lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER) luaL_checklstring(L, 3, &rlen);
    double matches = (double)n + 1;
    if (lua_isinteger(L, 4) && (double)lua_tointeger(L, 4) < matches) matches = (double)lua_tointeger(L, 4);
    if (matches < 0) matches = 0;
    pattern_check(L, pattern_cost(n, p, plen, false) + matches * ((double)rlen + 1), n);
    return call_original(L);
}

/* string.rep of the empty string loops in C without allocating: "" at once; a
 * result past the memory cap is refused before it is tried. */
static int bounded_rep(lua_State *L)
{
    size_t len, seplen = 0;
    luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &seplen);
    if (n > 0 && len + seplen == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (n > 0 && (double)n * (double)(len + seplen) > (double)SANDBOX_MEMORY_LIMIT)
        return luaL_error(L, "string.rep result too large for the sandbox");
    /* it copies piece by piece: one instruction a piece, one per 8 bytes */
    if (n > 0) sandbox_charge(L, (long)n + (long)((double)n * (double)(len + seplen) / SCAN_BYTES_PER_INSTRUCTION));
    return call_original(L);
}


static int bounded_scan(lua_State *L)
{
    size_t n;
    luaL_checklstring(L, 1, &n);
    sandbox_charge(L, (long)(n / SCAN_BYTES_PER_INSTRUCTION));
    return call_original(L);
}

/* Replaces table[name] (table on top) with f closed over the original. */
static void wrap_field(lua_State *L, const char *name, lua_CFunction f)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

static void set_field(lua_State *L, const char *name, lua_CFunction f)
{
    lua_pushcfunction(L, f);
    lua_setfield(L, -2, name);
}

void luabounded_open(lua_State *L)
{
    lua_pushglobaltable(L);
    set_field(L, "load", bounded_load);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    static const char *const patterns[] = {"find", "match", "gmatch"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) wrap_field(L, patterns[i], bounded_pattern);
    wrap_field(L, "gsub", bounded_gsub);
    wrap_field(L, "rep", bounded_rep);
    wrap_field(L, "byte", bounded_scan);
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_UTF8LIBNAME);
    static const char *const scans[] = {"len", "codepoint", "offset"};
    for (size_t i = 0; i < sizeof scans / sizeof scans[0]; i++) wrap_field(L, scans[i], bounded_scan);
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_TABLIBNAME);
    set_field(L, "insert", bounded_insert);
    set_field(L, "remove", bounded_remove);
    set_field(L, "move", bounded_move);
    set_field(L, "concat", bounded_concat);
    set_field(L, "unpack", bounded_unpack);
    set_field(L, "sort", bounded_sort);
    lua_pop(L, 2);
}
