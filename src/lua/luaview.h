/* The read-only view of the game that hooks receive: userdata whose fields are read
 * from the engine's state when a hook reads them, never copied ahead, and never
 * written. Part of the Lua bridge (luahooks.c calls it). */
#ifndef MTREF_LUAVIEW_H
#define MTREF_LUAVIEW_H

#include <stdint.h>

#include <lua.h>

#include "engine.h"

/* The scalar fields of the move and of the view (mtref-rules(5)), in their order
 * there: what a hook reads of them can be recorded, and read again from C. */
enum luaview_node { LUAVIEW_MOVE, LUAVIEW_VIEW };
#define LUAVIEW_MOVE_FIELDS 15
#define LUAVIEW_VIEW_FIELDS 18
/* A recorded read: which field, and the value the hook got. type is LUA_TNIL,
 * LUA_TBOOLEAN, LUA_TNUMBER (an integer) or LUAVIEW_NAME (value: a seat, or
 * TRAIN_MEX for "mex"). */
#define LUAVIEW_NAME 100
struct luaview_read {
    unsigned char node, field;
    signed char type;
    int64_t value;
};
/* Reads a call may record before the record is given up (the hook read too much). */
#define LUAVIEW_LOG_MAX 12

/* What the hook being called may look at; one per rule set. */
struct luaview {
    const struct game *g;       /* the game during a hook call; NULL between calls */
    int seat;                   /* the player the call is about, or -1 */
    tile_t tile;                /* the play asked about (may_play, another_play), or TILE_NONE */
    int train;
    int can_play, must_draw;    /* during may_pass: 1 or 0; else -1 */
    unsigned gen;               /* calls so far: a node of an earlier call refuses to be read */
    int view_ref, move_ref;     /* the view and move nodes, made once, in the registry */
    /* the field names, interned and kept: a key is a field exactly when it is the
     * same string object (short strings are interned) */
    const char *move_key[LUAVIEW_MOVE_FIELDS], *view_key[LUAVIEW_VIEW_FIELDS];
    /* the record of one call's reads (luaview_log_begin): 1 recording, 0 off, -1
     * spoiled by a read that is not a scalar field (a list, a train, a tile, pairs) */
    int logging;
    int nlog;
    struct luaview_read log[LUAVIEW_LOG_MAX];
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
/* Records the scalar fields the next call reads, in order. */
void luaview_log_begin(struct luaview *vw);
/* Ends the record: the number of reads in vw->log, or -1 when the call read
 * something else too (then what it answered depends on more than the record). */
int luaview_log_end(struct luaview *vw);
/* The value field `field` of node has now, the view open (luaview_begin): what a
 * hook reading it would get. */
void luaview_read_now(const struct luaview *vw, int node, int field, struct luaview_read *r);
/* Pushes a player's name ("mex" for TRAIN_MEX), or nil for -1. */
void luaview_push_name(lua_State *L, const struct game *g, int seat);

#endif
