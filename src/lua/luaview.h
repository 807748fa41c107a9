/* The read-only view of the game that hooks receive: userdata whose fields are read
 * from the engine's state when a hook reads them, never copied ahead, and never
 * written. Part of the Lua bridge (luahooks.c calls it). */
#ifndef MTREF_LUAVIEW_H
#define MTREF_LUAVIEW_H

#include <lua.h>

#include "engine.h"

/* What the hook being called may look at; one per rule set. */
struct luaview {
    const struct game *g;       /* the game during a hook call; NULL between calls */
    int seat;                   /* the player the call is about, or -1 */
    tile_t tile;                /* the play asked about (may_play, another_play), or TILE_NONE */
    int train;
    int can_play, must_draw;    /* during may_pass: 1 or 0; else -1 */
    unsigned gen;               /* calls so far: a node of an earlier call refuses to be read */
    int view_ref, move_ref;     /* the view and move nodes, made once, in the registry */
    const char *key_first_turn, *key_low, *key_high, *key_train;   /* interned keys */
};

/* Registers the metatables and makes the view and move nodes (outside any call). */
void luaview_init(lua_State *L, struct luaview *vw);
/* Opens the view on g for one call about seat (or -1), and the play tile on train. */
void luaview_begin(struct luaview *vw, const struct game *g, int seat, tile_t tile, int train);
/* Closes it: nodes read after this raise an error. */
void luaview_end(struct luaview *vw);
/* Pushes the view node, or the move node (the play of this call). */
void luaview_push(lua_State *L, struct luaview *vw);
void luaview_push_move(lua_State *L, struct luaview *vw);
/* Pushes a player's name ("mex" for TRAIN_MEX), or nil for -1. */
void luaview_push_name(lua_State *L, const struct game *g, int seat);

#endif
