/* The Lua sandbox: what a stranger's rules file may reach, and how long and how big
 * it may run. See mtref-rules(5), SAFETY, for what is and is not promised.
 *
 * Why each piece is here:
 * - the count hook errors once the budget is spent; from then on it runs on every
 *   instruction and errors again, until the call returns, so no Lua code of the call
 *   runs again: not a handler, a metamethod, a __close, a load() reader. pcall,
 *   xpcall and load (the only C functions that catch errors) re-raise it;
 * - C library functions do not count instructions: those whose work is not bounded
 *   by what they allocate are replaced by versions that count it (luabounded.c), and
 *   every allocation counts too, so even a string built in one call costs its size;
 *   the hook also ends a call or a match that passes its deadline in wall-clock time;
 * - Lua runs finalizers with hooks off, so a __gc metamethod could loop for ever:
 *   setmetatable refuses metatables that carry __gc (a finalizer is only armed by
 *   a __gc present when setmetatable is called), and collectgarbage is gone;
 * - one memory cap for all the states of the process: rule sets are cached, and
 *   several caps side by side would be no cap;
 * - every block carries its creation number, so that tostring, %p and pairs can
 *   show and order tables and functions the same way on every run (luastable.c);
 * - load takes text only (binary chunks are a known way out of Lua sandboxes),
 *   and string.dump is gone. */
#include "luasandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "alloc.h"
#include "luabounded.h"
#include "luacharge.h"
#include "luastable.h"

static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    struct sandbox *sb = sandbox_of(L);
    if (sb->spent) return sandbox_raise_spent(L, 1);
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
    if (sb->spent) return sandbox_raise_spent(L, 1);
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
    lua_getfield(L, -1, "setmetatable");
    lua_pushcclosure(L, safe_setmetatable, 1);
    lua_setfield(L, -2, "setmetatable");
    lua_getfield(L, -1, LUA_STRLIBNAME);
    remove_field(L, "dump");
    lua_pop(L, 2);
    luabounded_open(L);
    luastable_open(L);           /* last: it also makes every C function a closure */
    /* where a userdata's memory starts in its block, for sandbox_identity */
    struct sandbox *sb = sandbox_of(L);
    char *memory = lua_newuserdatauv(L, 1, 0);
    sb->udata_offset = memory - (char *)sb->last_block;
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
    lua_sethook(sb->L, sandbox_count_hook, LUA_MASKCOUNT, SANDBOX_HOOK_EVERY);
    return sb;
}

void sandbox_free(struct sandbox *sb)
{
    if (!sb) return;
    lua_close(sb->L);
    free(sb);
}

lua_State *sandbox_state(struct sandbox *sb) { return sb->L; }

void sandbox_match_begin(struct sandbox *sb)
{
    sb->metered = true;
    sb->match_left = SANDBOX_MATCH_INSTRUCTIONS;
    sb->match_seconds = 0;
}

long sandbox_last_cost(const struct sandbox *sb) { return sb->last_cost; }

bool sandbox_match_charge(struct sandbox *sb, long cost)
{
    if (!sb->metered) return true;
    if (sb->match_left - cost <= 0) return false;
    sb->match_left -= cost;
    return true;
}

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
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = ' ';
}

static void memory_error(const char *display, char *err)
{
    snprintf(err, SANDBOX_ERROR_SIZE, "%s: memory cap of %u MB exceeded (for all rules files together)", display,
             (unsigned)(SANDBOX_MEMORY_LIMIT >> 20));
}

struct protected {
    int (*body)(void *ud);
    void *ud;
    int result;
};

static int protected_entry(lua_State *L)
{
    struct protected *p = lua_touserdata(L, 1);
    lua_pop(L, 1);
    p->result = p->body(p->ud);
    return 0;
}

int sandbox_protect(struct sandbox *sb, int (*body)(void *ud), void *ud, const char *display, char *err)
{
    lua_State *L = sb->L;
    struct protected p = {body, ud, -1};
    if (!lua_checkstack(L, 8)) {
        memory_error(display, err);
        return -1;
    }
    int top = lua_gettop(L);
    sb->refused = false;
    lua_pushcfunction(L, protected_entry);     /* neither push allocates */
    lua_pushlightuserdata(L, &p);
    int status = lua_pcall(L, 1, 0, 0);
    if (status != LUA_OK) {
        if (status == LUA_ERRMEM || sb->refused) memory_error(display, err);
        else error_text(L, display, err);
        lua_settop(L, top);
        return -1;
    }
    return p.result;
}

static void begin_call(struct sandbox *sb)
{
    sb->budget = SANDBOX_INSTRUCTIONS;
    /* a match's calls are timed whole: most end before the count hook first runs, and
     * a match of many short calls must still meet its deadline */
    sb->started = sb->metered ? sandbox_now() : 0;
    sb->clock_countdown = SANDBOX_CHARGES_PER_CLOCK;
    sb->spent = SANDBOX_SPENT_NOT;
    sb->refused = false;
    sb->in_call = true;
}

static void end_call(struct sandbox *sb)
{
    sb->last_cost = SANDBOX_INSTRUCTIONS - sb->budget;
    if (sb->started != 0 && sb->metered) sb->match_seconds += sandbox_now() - sb->started;
    if (sb->spent) lua_sethook(sb->L, sandbox_count_hook, LUA_MASKCOUNT, SANDBOX_HOOK_EVERY);
    sb->spent = SANDBOX_SPENT_NOT;
    sb->in_call = false;
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

FILE *sandbox_open_source(const char *path, char *why, size_t why_size)
{
    /* never blocks: a fifo opens at once, and is then refused as not a regular file */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(why, why_size, "not a regular file (a directory, a pipe or a device)");
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        snprintf(why, why_size, "out of memory");
    }
    return f;
}

static char *read_source(const char *path, size_t *len, char *why, size_t whysize)
{
    FILE *f = sandbox_open_source(path, why, whysize);
    if (!f) return NULL;
    char *buf = mt_malloc(SANDBOX_SOURCE_LIMIT + 1);
    size_t n = buf ? fread(buf, 1, SANDBOX_SOURCE_LIMIT + 1, f) : 0;
    bool failed = ferror(f);
    fclose(f);
    if (!buf) { snprintf(why, whysize, "out of memory"); return NULL; }
    if (failed) { free(buf); snprintf(why, whysize, "cannot read it"); return NULL; }
    if (n > SANDBOX_SOURCE_LIMIT) {
        free(buf);
        snprintf(why, whysize, "larger than %u KB (the limit of a rules file)", SANDBOX_SOURCE_LIMIT >> 10);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Compiles the source, its cost charged to the budget of the chunk's run. */
struct compiling {
    const char *source, *chunkname;
    size_t len;
};

static int compile(lua_State *L)
{
    const struct compiling *c = lua_touserdata(L, 1);
    sandbox_charge(L, sandbox_compile_cost(c->source, c->len));
    if (luaL_loadbufferx(L, c->source, c->len, c->chunkname, "t") != LUA_OK) return lua_error(L);
    return 1;
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
    struct compiling c = {source, chunkname, len};
    lua_pushcfunction(L, compile);
    lua_pushlightuserdata(L, &c);
    /* compiling has a budget of its own, charged with its cost */
    int status = sandbox_call(sb, 1, 1, display, err);
    free(source);
    if (status != 0) return -1;
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
    int handler = lua_gettop(L) - nargs;
    lua_pushcfunction(L, add_position);
    lua_insert(L, handler);
    begin_call(sb);
    int status = lua_pcall(L, nargs, nresults, handler);
    bool refused = sb->refused && !sb->spent;
    end_call(sb);
    lua_remove(L, handler);
    if (status != LUA_OK) {
        if (status == LUA_ERRMEM || refused) memory_error(display, err);
        else error_text(L, display, err);
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}
