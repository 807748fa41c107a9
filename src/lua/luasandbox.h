/* The Lua sandbox house-rule files run in: safe libraries only, text chunks only,
 * a memory cap, an instruction and time budget per call that pcall cannot catch,
 * bounded string patterns, no finalizers. Part of the Lua bridge (luarules.c,
 * luaread.c, luahooks.c). */
#ifndef MTREF_LUASANDBOX_H
#define MTREF_LUASANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#define SANDBOX_MEMORY_LIMIT (16u << 20)       /* bytes a state may hold */
#define SANDBOX_INSTRUCTIONS 10000000L         /* per load and per hook call */
#define SANDBOX_SECONDS 2                       /* wall-clock limit of the same */
#define SANDBOX_SOURCE_LIMIT (1u << 20)        /* bytes of a rules file */
#define SANDBOX_ERROR_SIZE 512

struct sandbox;

/* A fresh state with the safe globals; NULL when out of memory. */
struct sandbox *sandbox_new(void);
/* Closes the state; NULL is a no-op. */
void sandbox_free(struct sandbox *sb);
lua_State *sandbox_state(struct sandbox *sb);

/* Reads the text chunk at path (shown as display in messages), runs it in an
 * environment of its own, and leaves its first result on the stack. Returns 0, or
 * -1 with "display:line: what" in err (SANDBOX_ERROR_SIZE bytes) and nothing pushed. */
int sandbox_run_file(struct sandbox *sb, const char *path, const char *display, char *err);

/* Calls the function below nargs arguments on the stack with a fresh budget,
 * leaving nresults results. Returns 0, or -1 with the message in err (prefixed with
 * display when the error has no position) and the function and arguments popped. */
int sandbox_call(struct sandbox *sb, int nargs, int nresults, const char *display, char *err);

#endif
