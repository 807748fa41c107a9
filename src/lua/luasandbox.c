/* The Lua sandbox: what a stranger's rules file may reach, and how long and how big
 * it may run. See mtref-rules(5), SAFETY, for what is and is not promised.
 *
 * Why each piece is here:
 * - the count hook errors once the budget is spent, and keeps erroring; pcall and
 *   xpcall are replaced by versions that re-raise that error, so a script cannot
 *   catch its way past the budget;
 * - Lua runs finalizers with hooks off, so a __gc metamethod could loop for ever:
 *   setmetatable refuses metatables that carry __gc (a finalizer is only armed by
 *   a __gc present when setmetatable is called), and collectgarbage is gone;
 * - C library functions do not count instructions: most are held by the memory cap
 *   (their work is linear in what they allocate), string.rep of the empty string
 *   answers "" at once, table.move over vast ranges is refused, the pattern functions refuse subjects
 *   whose backtracking could run long (the cost grows as length^(quantifiers+1)),
 *   and the hook also ends a call that passes its deadline in wall-clock time;
 * - load takes text only (binary chunks are a known way out of Lua sandboxes),
 *   and string.dump is gone. */
#include "luasandbox.h"

#include <errno.h>
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "alloc.h"

struct sandbox {
    lua_State *L;
    size_t used;
    bool refused;         /* the memory cap refused an allocation in this call */
    long budget;          /* instructions left in this call */
    double deadline;      /* monotonic seconds by which this call must end; 0 until the
                             first count hook of the call (most hook calls end sooner
                             and never read the clock) */
    bool spent;           /* the budget ran out: every pcall re-raises */
    bool running;         /* script code runs: the cap applies (the bridge's own pushes
                             outside protected calls must never fail: that aborts) */
};

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct sandbox *sb = ud;
    if (ptr == NULL) osize = 0;
    if (nsize == 0) {
        free(ptr);
        sb->used -= osize;
        return NULL;
    }
    if (sb->running && nsize > osize && sb->used + (nsize - osize) > SANDBOX_MEMORY_LIMIT) {
        sb->refused = true;
        return NULL;
    }
    void *p = mt_realloc(ptr, nsize);
    if (p) sb->used = sb->used - osize + nsize;
    return p;
}

static struct sandbox *sandbox_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* Often enough that C functions between two hooks (each bounded by the memory cap)
 * cannot carry a call far past its deadline. */
#define HOOK_EVERY 100

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    struct sandbox *sb = sandbox_of(L);
    sb->budget -= HOOK_EVERY;
    double t = now();
    if (sb->deadline == 0) sb->deadline = t + SANDBOX_SECONDS;
    if (sb->budget <= 0 || sb->spent || t > sb->deadline) {
        sb->spent = true;
        lua_Debug here;
        int line = lua_getstack(L, 0, &here) && lua_getinfo(L, "Sl", &here) ? here.currentline : -1;
        if (line > 0) lua_pushfstring(L, "%s:%d: ", here.short_src, line);
        else lua_pushliteral(L, "");
        lua_pushfstring(L, "budget of %d million instructions or %d seconds exhausted",
                        (int)(SANDBOX_INSTRUCTIONS / 1000000), SANDBOX_SECONDS);
        lua_concat(L, 2);
        lua_error(L);
    }
}

static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    struct sandbox *sb = sandbox_of(L);
    if (sb->spent) return lua_error(L);
    if (status != LUA_OK) sb->refused = false;     /* the script handled it */
    lua_pushboolean(L, status == LUA_OK);
    lua_insert(L, 1);
    return lua_gettop(L);
}

/* xpcall's message handler. Lua calls it for the budget error too, which the count
 * hook raises from inside the hook, where hooks are off: the script's handler (the
 * upvalue) must not run then, or its endless loop would never be stopped. */
static int guarded_handler(lua_State *L)
{
    if (sandbox_of(L)->spent) return 1;        /* the error object, unchanged */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int safe_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);
    lua_replace(L, 1);          /* 1: handler */
    lua_replace(L, 2);          /* 2: function */
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 1);
    struct sandbox *sb = sandbox_of(L);
    if (sb->spent) return lua_error(L);
    if (status != LUA_OK) sb->refused = false;     /* the script handled it */
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);
    return lua_gettop(L);
}

static int safe_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed in rules files");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int safe_load(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    if (n >= 2) lua_pushvalue(L, 2); else lua_pushnil(L);
    lua_pushliteral(L, "t");
    int nargs = 3;
    if (n >= 4) { lua_pushvalue(L, 4); nargs = 4; }
    lua_call(L, nargs, LUA_MULTRET);
    return lua_gettop(L) - n;
}

/* Worst-case work of matching pattern p against a subject of length n. */
static double pattern_cost(size_t n, const char *p, size_t plen, bool plain)
{
    bool special = false;      /* over all plen bytes: a NUL must not hide what follows */
    for (size_t i = 0; i < plen && !special; i++) special = memchr("^$*+?.([%-", p[i], 10) != NULL;
    if (plain || !special) return (double)n * (double)(plen ? plen : 1);
    int quantifiers = 0;
    for (size_t i = 0; i < plen; i++) {
        if (p[i] == '%') { i++; continue; }
        if (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?') quantifiers++;
    }
    return pow((double)n + 1, quantifiers + 1) * (double)(plen ? plen : 1);
}

#define PATTERN_COST_LIMIT 1e8

static int bounded_pattern(lua_State *L)
{
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &plen);
    bool plain = lua_toboolean(L, 4) && lua_isboolean(L, 4);
    if (pattern_cost(n, p, plen, plain) > PATTERN_COST_LIMIT)
        return luaL_error(L, "pattern too costly for a subject of %d bytes (the sandbox bounds backtracking)", (int)n);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* string.rep and table.move loop in C without allocating when the string is empty
 * or the range is vast: bound the work by what the memory cap could ever hold. */
static int bounded_rep(lua_State *L)
{
    size_t len, seplen = 0;
    luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &seplen);
    if (n > 0 && len + seplen == 0) {          /* C would loop n times to build "" */
        lua_pushliteral(L, "");
        return 1;
    }
    if (n > 0 && (double)n * (double)(len + seplen) > (double)SANDBOX_MEMORY_LIMIT)
        return luaL_error(L, "string.rep result too large for the sandbox");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int bounded_move(lua_State *L)
{
    lua_Integer from = luaL_checkinteger(L, 2), to = luaL_checkinteger(L, 3);
    if (to >= from && (double)to - (double)from > (double)SANDBOX_MEMORY_LIMIT / 16)
        return luaL_error(L, "table.move range too large for the sandbox");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replaces table[name] (table on top) with f closed over the original. */
static void wrap_field(lua_State *L, const char *name, lua_CFunction f)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

static void remove_field(lua_State *L, const char *name)
{
    lua_pushnil(L);
    lua_setfield(L, -2, name);
}

static int open_safe_libraries(lua_State *L)
{
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    static const char *const unsafe[] = {"dofile", "loadfile", "collectgarbage", "print", "warn", "require"};
    for (size_t i = 0; i < sizeof unsafe / sizeof unsafe[0]; i++) remove_field(L, unsafe[i]);
    lua_pushcfunction(L, safe_pcall);
    lua_setfield(L, -2, "pcall");
    lua_pushcfunction(L, safe_xpcall);
    lua_setfield(L, -2, "xpcall");
    wrap_field(L, "setmetatable", safe_setmetatable);
    wrap_field(L, "load", safe_load);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    remove_field(L, "dump");
    static const char *const patterns[] = {"find", "match", "gmatch", "gsub"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) wrap_field(L, patterns[i], bounded_pattern);
    wrap_field(L, "rep", bounded_rep);
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_TABLIBNAME);
    wrap_field(L, "move", bounded_move);
    lua_pop(L, 2);
    /* math.random is seeded from the clock in 5.4: pin it so verdicts never vary */
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 0;
}

struct sandbox *sandbox_new(void)
{
    struct sandbox *sb = mt_malloc(sizeof *sb);
    if (!sb) return NULL;
    memset(sb, 0, sizeof *sb);
    sb->L = lua_newstate(sandbox_alloc, sb);
    if (!sb->L) { free(sb); return NULL; }
    lua_pushcfunction(sb->L, open_safe_libraries);
    if (lua_pcall(sb->L, 0, 0, 0) != LUA_OK) { sandbox_free(sb); return NULL; }
    lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    return sb;
}

void sandbox_free(struct sandbox *sb)
{
    if (!sb) return;
    lua_close(sb->L);
    free(sb);
}

lua_State *sandbox_state(struct sandbox *sb) { return sb->L; }

/* The error on top as text, without calling metamethods (a __tostring may loop). */
static void error_text(lua_State *L, const char *display, char *err)
{
    int type = lua_type(L, -1);
    if (type == LUA_TSTRING) {
        size_t len;
        const char *msg = lua_tolstring(L, -1, &len);
        /* errors raised with a position already say "file:line:"; a hook's display
         * is "file:LINE" (where it is defined): only its file part counts */
        size_t file = strlen(display);
        const char *colon = strrchr(display, ':');
        if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) file = (size_t)(colon - display);
        bool positioned = strncmp(msg, display, file) == 0 && msg[file] == ':';
        snprintf(err, SANDBOX_ERROR_SIZE, "%s%s%.*s", positioned ? "" : display, positioned ? "" : ": ",
                 (int)(len > 400 ? 400 : len), msg);
    } else if (type == LUA_TNUMBER) {
        snprintf(err, SANDBOX_ERROR_SIZE, "%s: error %s", display, lua_tostring(L, -1));
    } else {
        snprintf(err, SANDBOX_ERROR_SIZE, "%s: error object is a %s value", display, lua_typename(L, type));
    }
    /* keep the message on one line, printable */
    for (char *c = err; *c; c++)
        if ((unsigned char)*c < 0x20) *c = ' ';
}

static void reset_budget(struct sandbox *sb)
{
    sb->budget = SANDBOX_INSTRUCTIONS;
    sb->deadline = 0;
    sb->spent = false;
    sb->refused = false;
}

/* Message handler: an error value that is not a string becomes one, with the
 * position of the code that raised it (never through __tostring, which may loop). */
static int add_position(lua_State *L)
{
    int type = lua_type(L, 1);
    if (type == LUA_TSTRING) return 1;
    /* the first Lua function up the stack: error() itself is a C function */
    lua_Debug ar;
    int level = 1;
    while (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline <= 0) level++;
    luaL_where(L, level);
    if (type == LUA_TNUMBER) lua_pushfstring(L, "error %s", lua_tostring(L, 1));
    else lua_pushfstring(L, "error object is a %s value", lua_typename(L, type));
    lua_concat(L, 2);
    return 1;
}

static char *read_source(const char *path, size_t *len, char *why, size_t whysize)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whysize, "%s", strerror(errno));
        return NULL;
    }
    char *buf = mt_malloc(SANDBOX_SOURCE_LIMIT + 1);
    size_t n = buf ? fread(buf, 1, SANDBOX_SOURCE_LIMIT + 1, f) : 0;
    bool failed = ferror(f);
    fclose(f);
    if (!buf) { snprintf(why, whysize, "out of memory"); return NULL; }
    if (failed) { free(buf); snprintf(why, whysize, "cannot read it (a directory?)"); return NULL; }
    if (n > SANDBOX_SOURCE_LIMIT) { free(buf); snprintf(why, whysize, "larger than 1 MB"); return NULL; }
    *len = n;
    return buf;
}

int sandbox_run_file(struct sandbox *sb, const char *path, const char *display, char *err)
{
    lua_State *L = sb->L;
    char why[200];
    size_t len;
    char *source = read_source(path, &len, why, sizeof why);
    if (!source) {
        snprintf(err, SANDBOX_ERROR_SIZE, "%s: %s", display, why);
        return -1;
    }
    char chunkname[300];
    snprintf(chunkname, sizeof chunkname, "=%s", display);
    reset_budget(sb);
    sb->running = true;
    int status = luaL_loadbufferx(L, source, len, chunkname, "t");
    sb->running = false;
    free(source);
    if (status != LUA_OK) {
        error_text(L, display, err);
        lua_pop(L, 1);
        return -1;
    }
    /* its own environment: globals it sets stay its own, reads fall through */
    lua_newtable(L);
    lua_newtable(L);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setupvalue(L, -2, 1);
    if (sandbox_call(sb, 0, 1, display, err) != 0) return -1;
    return 0;
}

int sandbox_call(struct sandbox *sb, int nargs, int nresults, const char *display, char *err)
{
    lua_State *L = sb->L;
    reset_budget(sb);
    int handler = lua_gettop(L) - nargs;
    lua_pushcfunction(L, add_position);
    lua_insert(L, handler);
    sb->running = true;
    int status = lua_pcall(L, nargs, nresults, handler);
    sb->running = false;
    lua_remove(L, handler);
    if (status != LUA_OK) {
        if (status == LUA_ERRMEM || (sb->refused && !sb->spent))
            snprintf(err, SANDBOX_ERROR_SIZE, "%s: memory cap of %u MB exceeded", display,
                     (unsigned)(SANDBOX_MEMORY_LIMIT >> 20));
        else
            error_text(L, display, err);
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}
