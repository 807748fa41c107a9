/* The sandbox's accounting (luacharge.h): memory counted and capped in the allocator,
 * every block's creation number, and the instruction budget and deadlines of a call
 * and of a match that the count hook and the library functions charge. */
#include "luacharge.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"

/* An allocation of this many bytes costs one instruction (about what copying or
 * filling them takes). */
#define BYTES_PER_INSTRUCTION 16
/* Bytes past the cap that the bridge's own pushes may use. */
#define BRIDGE_RESERVE (1u << 20)
static void check_limits(struct sandbox *sb, double t);

/* Every block starts with its creation number; the header keeps malloc's alignment. */
#define HEADER 16

/* all the sandboxes of the process: one cap for them all, counted atomically because
 * check and selfplay run a Lua state on each of their threads */
static _Atomic size_t total_used;

size_t sandbox_memory_used(void) { return total_used; }

void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct sandbox *sb = ud;
    char *base = ptr ? (char *)ptr - HEADER : NULL;
    size_t old = ptr ? osize + HEADER : 0;
    if (nsize == 0) {
        free(base);
        sb->used -= old;
        total_used -= old;
        return NULL;
    }
    size_t size = nsize + HEADER;
    if (size <= old) {                    /* shrinking never fails (Lua relies on it) */
        char *p = realloc(base, size);
        if (!p) p = base;
        sb->used -= old - size;
        total_used -= old - size;
        return p + HEADER;
    }
    /* what the bridge itself puts in a state (a hook's arguments) may pass the cap by
     * a little: a hook that keeps its memory at the cap can still be called */
    if (total_used + (size - old) > SANDBOX_MEMORY_LIMIT + (sb->in_call ? 0 : BRIDGE_RESERVE)) {
        sb->refused = true;
        return NULL;
    }
    char *p = mt_realloc(base, size);
    if (!p) return NULL;
    if (!base) {
        uint64_t number = ++sb->created;
        memcpy(p, &number, sizeof number);
        sb->last_block = p + HEADER;
    }
    sb->used += size - old;
    total_used += size - old;
    if (sb->in_call) {
        long cost = (long)((size - old) / BYTES_PER_INSTRUCTION);
        sb->budget -= cost;
        if (sb->metered) sb->match_left -= cost;
        /* no error can be raised here: the next instruction raises it */
        if (sb->budget <= 0 || (sb->metered && sb->match_left <= 0)) check_limits(sb, 1);
    }
    return p + HEADER;
}

struct sandbox *sandbox_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

uint64_t sandbox_identity(lua_State *L, int index)
{
    int type = lua_type(L, index);
    if (type == LUA_TFUNCTION && lua_iscfunction(L, index)) {
        /* a light C function is no block; the sandbox makes every one it offers a
         * closure (luastable.c), so none should reach here */
        if (!lua_getupvalue(L, index, 1)) return 0;
        lua_pop(L, 1);
    } else if (type == LUA_TUSERDATA) {
        /* the game view's nodes: full userdata without user values, whose memory
         * starts udata_offset bytes into the block */
        struct sandbox *sb = sandbox_of(L);
        if (sb->udata_offset <= 0) return 0;
        uint64_t number;
        memcpy(&number, (const char *)lua_touserdata(L, index) - sb->udata_offset - HEADER, sizeof number);
        return number;
    } else if (type != LUA_TTABLE && type != LUA_TFUNCTION && type != LUA_TSTRING) {
        return 0;
    }
    uint64_t number;
    memcpy(&number, (const char *)lua_topointer(L, index) - HEADER, sizeof number);
    return number;
}


double sandbox_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Marks the call spent: from now on the hook runs, and errors, on every instruction. */
static void spend(struct sandbox *sb, enum sandbox_spent_by by)
{
    if (sb->spent) return;
    sb->spent = by;
    lua_sethook(sb->L, sandbox_count_hook, LUA_MASKCOUNT, 1);
}

int sandbox_raise_spent(lua_State *L, int level)
{
    struct sandbox *sb = sandbox_of(L);
    lua_Debug here;
    int line = lua_getstack(L, level, &here) && lua_getinfo(L, "Sl", &here) ? here.currentline : -1;
    if (line > 0) lua_pushfstring(L, "%s:%d: ", here.short_src, line);
    else lua_pushliteral(L, "");
    if (sb->spent == SANDBOX_SPENT_MATCH)
        lua_pushfstring(L, "the match's hook budget of %d million instructions or %d seconds is exhausted",
                        (int)(SANDBOX_MATCH_INSTRUCTIONS / 1000000), SANDBOX_MATCH_SECONDS);
    else
        lua_pushfstring(L, "budget of %d million instructions or %d seconds exhausted",
                        (int)(SANDBOX_INSTRUCTIONS / 1000000), SANDBOX_SECONDS);
    lua_concat(L, 2);
    return lua_error(L);
}

/* Spends the call when a limit is passed; reads the clock (t, 0 to read it here). */
static void check_limits(struct sandbox *sb, double t)
{
    if (sb->spent) return;
    if (sb->budget <= 0) { spend(sb, SANDBOX_SPENT_CALL); return; }
    if (sb->metered && sb->match_left <= 0) { spend(sb, SANDBOX_SPENT_MATCH); return; }
    if (t == 0) t = sandbox_now();
    if (sb->started == 0) sb->started = t;
    if (t - sb->started > SANDBOX_SECONDS) spend(sb, SANDBOX_SPENT_CALL);
    else if (sb->metered && sb->match_seconds + (t - sb->started) > SANDBOX_MATCH_SECONDS) spend(sb, SANDBOX_SPENT_MATCH);
}

void sandbox_count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    struct sandbox *sb = sandbox_of(L);
    if (!sb->spent) {
        sb->budget -= SANDBOX_HOOK_EVERY;
        if (sb->metered) sb->match_left -= SANDBOX_HOOK_EVERY;
        check_limits(sb, 0);
    }
    if (sb->spent) sandbox_raise_spent(L, 0);
}

void sandbox_charge(lua_State *L, long units)
{
    struct sandbox *sb = sandbox_of(L);
    if (!sb->in_call) return;
    sb->budget -= units;
    if (sb->metered) sb->match_left -= units;
    sb->clock_countdown -= units;
    if (sb->budget <= 0 || (sb->metered && sb->match_left <= 0)) check_limits(sb, 1);
    else if (sb->clock_countdown <= 0) {
        sb->clock_countdown = SANDBOX_CHARGES_PER_CLOCK;
        check_limits(sb, 0);
    }
    if (sb->spent) sandbox_raise_spent(L, 1);
}

bool sandbox_spent(lua_State *L) { return sandbox_of(L)->spent != SANDBOX_SPENT_NOT; }

static bool word_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

long sandbox_compile_cost(const char *source, size_t len)
{
    /* Counted anywhere, in strings and comments too: an over-count costs a little
     * budget, an under-count could hide a quadratic compile. */
    static const char *const words[] = {"and", "or", "elseif", "break", "goto"};
    double jumps = 0;
    for (size_t i = 0; i < len; i++) {
        if (!word_char(source[i]) || (i > 0 && word_char(source[i - 1]))) continue;
        size_t end = i;
        while (end < len && word_char(source[end])) end++;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
            if (end - i == strlen(words[w]) && memcmp(source + i, words[w], end - i) == 0) jumps++;
        i = end - 1;
    }
    double cost = (double)len + jumps * jumps / 2;
    return cost > (double)SANDBOX_MATCH_INSTRUCTIONS ? SANDBOX_MATCH_INSTRUCTIONS : (long)cost;
}
