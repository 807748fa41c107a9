/* The sandbox's accounting: its limits, the state each sandbox keeps, the allocator
 * that counts and caps memory, and the instruction budget the count hook and the
 * library functions charge. Below luasandbox.c (which makes and runs the states) and
 * the library functions of luabounded.c and luastable.c, which charge their work
 * here. Part of the Lua bridge. */
#ifndef MTREF_LUACHARGE_H
#define MTREF_LUACHARGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#define SANDBOX_MEMORY_LIMIT (16u << 20)       /* bytes all the states of the process hold */
#define SANDBOX_INSTRUCTIONS 10000000L         /* per load and per hook call */
#define SANDBOX_SECONDS 2                       /* wall-clock limit of the same */
#define SANDBOX_MATCH_INSTRUCTIONS 200000000L  /* all the hook calls of one match */
#define SANDBOX_MATCH_SECONDS 20                /* wall-clock limit of the same */
#define SANDBOX_SOURCE_LIMIT (256u << 10)      /* bytes of a rules file or a load()ed chunk */
#define SANDBOX_ERROR_SIZE 512

/* Often enough that C functions between two hooks cannot carry a call far past its
 * deadline. */
#define SANDBOX_HOOK_EVERY 100
/* Charges between two looks at the clock. */
#define SANDBOX_CHARGES_PER_CLOCK 4096

enum sandbox_spent_by { SANDBOX_SPENT_NOT, SANDBOX_SPENT_CALL, SANDBOX_SPENT_MATCH };

struct sandbox {
    lua_State *L;
    size_t used;          /* bytes of this state (all states: total_used) */
    uint64_t created;     /* blocks allocated so far: the next creation number */
    bool refused;         /* the memory cap refused an allocation in this call */
    bool in_call;         /* a budgeted call runs */
    long budget;          /* instructions left in this call */
    double started;       /* monotonic seconds when this call began (a match's hook
                             calls), or first met the count hook (a load's); 0 before */
    long clock_countdown; /* charges until the next look at the clock */
    enum sandbox_spent_by spent;  /* the budget ran out: nothing in Lua runs again in this call */
    bool metered;         /* hook calls count against the match's budget */
    long match_left;      /* instructions left to this match's hook calls */
    double match_seconds; /* wall-clock time its hook calls took */
    long last_cost;       /* instructions the last call spent (its budget's use) */
    void *last_block;     /* the block allocated last, as Lua sees it */
    ptrdiff_t udata_offset; /* from a full userdata's block to its memory (no user values) */
};

/* The allocator of every sandbox's state (ud: the struct sandbox). */
void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* The sandbox that owns the state. */
struct sandbox *sandbox_of(lua_State *L);
/* Monotonic seconds. */
double sandbox_now(void);
/* The count hook: charges SANDBOX_HOOK_EVERY instructions, raises once spent. */
void sandbox_count_hook(lua_State *L, lua_Debug *ar);
/* Raises the budget error at the position of stack level level. */
int sandbox_raise_spent(lua_State *L, int level);

/* Counts units of work against the running call's budget (and the match's); raises
 * the budget error, which nothing can catch, once it is spent. */
void sandbox_charge(lua_State *L, long units);
/* The instructions compiling a chunk of source may cost: its length, and the square
 * of its jump words (and, or, elseif, break, goto), which Lua's compiler handles in
 * quadratic time. */
long sandbox_compile_cost(const char *source, size_t len);
/* Whether the running call's budget is spent (a catching C function must re-raise). */
bool sandbox_spent(lua_State *L);
/* The creation number of the table, function or string at index: the same on every
 * run, unlike its address; 0 for other values. */
uint64_t sandbox_identity(lua_State *L, int index);
/* Bytes held by all the sandboxes of the process. */
size_t sandbox_memory_used(void);

#endif
