/* The sandbox's deterministic library: what Lua would let vary from run to run, made
 * the same on every run. tostring and string.format's %p and %s name tables and
 * functions by their creation number, not their address; pairs and next visit keys
 * in a fixed order (numbers, then strings bytewise, then booleans, then tables and
 * functions by creation number), not in the order of a hash seeded from the clock;
 * math.randomseed() without a seed seeds 0, not the clock. Part of the Lua bridge. */
#ifndef MTREF_LUASTABLE_H
#define MTREF_LUASTABLE_H

#include <lua.h>

/* Installs the functions, seeds math.random with 0, and makes every light C function
 * the libraries offer a closure (a light function has no creation number). */
void luastable_open(lua_State *L);

/* <0, 0 or >0 as the key at index a comes before, is, or comes after the key at b in
 * the fixed order of pairs. */
int luastable_compare_keys(lua_State *L, int a, int b);

#endif
