/* The Lua sandbox house-rule files run in: safe libraries only, text chunks only,
 * one memory cap for every state of the process, an instruction and time budget per
 * call and per match that nothing in Lua can catch, bounded C library calls, no
 * finalizers, nothing that varies from run to run. Part of the Lua bridge (luarules.c,
 * luaread.c, luahooks.c); the bounded and deterministic library functions are in
 * luabounded.c and luastable.c, the accounting they all use in luacharge.c. */
#ifndef MTREF_LUASANDBOX_H
#define MTREF_LUASANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <lua.h>

#include "luacharge.h"      /* the limits, SANDBOX_* */


struct sandbox;

/* A fresh state with the safe globals; NULL when out of memory. */
struct sandbox *sandbox_new(void);
/* Closes the state; NULL is a no-op. */
void sandbox_free(struct sandbox *sb);
lua_State *sandbox_state(struct sandbox *sb);

/* Runs body(ud) in protected mode: any Lua error raised by the C API calls it makes
 * (out of memory above all) ends it and becomes a message in err (SANDBOX_ERROR_SIZE
 * bytes, prefixed with display), with the stack as it was. Returns body's result, or
 * -1 after such an error. Every piece of the bridge that touches the state runs so. */
int sandbox_protect(struct sandbox *sb, int (*body)(void *ud), void *ud, const char *display, char *err);

/* Reads the text chunk at path (shown as display in messages), runs it in an
 * environment of its own, and leaves its first result on the stack. Returns 0, or
 * -1 with "display:line: what" in err (SANDBOX_ERROR_SIZE bytes) and nothing pushed.
 * Inside sandbox_protect only. */
int sandbox_run_file(struct sandbox *sb, const char *path, const char *display, char *err);

/* Calls the function below nargs arguments on the stack with a fresh budget,
 * leaving nresults results. Returns 0, or -1 with the message in err (prefixed with
 * display when the error has no position) and the function and arguments popped.
 * Inside sandbox_protect only. */
int sandbox_call(struct sandbox *sb, int nargs, int nresults, const char *display, char *err);

/* A match begins: the hook calls from now on share a fresh per-match budget. */
void sandbox_match_begin(struct sandbox *sb);
/* What the last sandbox_call spent of its budget, in instructions. */
long sandbox_last_cost(const struct sandbox *sb);
/* Charges the match's budget for an answer given without a call (luamemo.c) as if
 * the call had been made; false, charging nothing, when the budget could not pay:
 * then the call is made, and runs out of budget where it would have. */
bool sandbox_match_charge(struct sandbox *sb, long cost);

/* Opens a rules file for reading without ever blocking: NULL with why set (why_size
 * bytes) when it cannot be opened or is not a regular file (a fifo, a directory, a
 * device). */
FILE *sandbox_open_source(const char *path, char *why, size_t why_size);

#endif
