/* Bounded versions of the library functions a rules file can reach whose work in one
 * C call is not bounded by what they allocate: load, table.insert/remove/move/
 * concat/unpack/sort, the string pattern functions, string.rep, string.byte and
 * utf8.len/codepoint/offset. Each counts its
 * work against the sandbox's budget (luasandbox.h) or refuses what would run long.
 * Part of the Lua bridge. */
#ifndef MTREF_LUABOUNDED_H
#define MTREF_LUABOUNDED_H

#include <stdbool.h>

#include <lua.h>

/* Replaces the functions in the global table and the string and table libraries. */
void luabounded_open(lua_State *L);

/* How luabounded_sort compares: less(L, a, b, ud) on two stack indices; raw: the
 * table is read and written without metamethods. */
struct luabounded_order {
    bool raw;
    bool (*less)(lua_State *L, int a, int b, void *ud);
    void *ud;
};

/* Sorts t[1..n] of the table at index t in place (heap sort: n log n comparisons at
 * worst, whatever the order function says), charging every step. */
void luabounded_sort(lua_State *L, int t, lua_Integer n, const struct luabounded_order *order);

#endif
