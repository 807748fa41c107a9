/* The read-only game view of the hooks. Every object a hook sees (the view, the move,
 * trains, hands, lists of names, tiles) is a small userdata that names what it shows
 * (a kind and an index) and reads it from the game when a field is read: a hook that
 * does not look costs nothing, and one that does pays for what it reads. Userdata
 * cannot be written, rawset or given a metatable from Lua, every write raises an
 * error, and the metatable is hidden (__metatable), so nothing a hook does reaches
 * the engine's state. A node remembers the call that made it and refuses to be read
 * in a later one (the game it points at may be gone). */
#include "luaview.h"

#include <string.h>

#include <lauxlib.h>

#define NODE_META "mtref.view"
#define TILE_META "mtref.tile"
#define TILES_KEY "mtref.tiles"

enum node_kind {
    N_VIEW, N_MOVE, N_TRAINS, N_TRAIN, N_TILES, N_HANDS, N_TOTALS, N_WINS, N_PLAYERS, N_IN_PLAY,
    N_DOUBLES, N_DOUBLE, N_LAST_WINNERS,
};

/* N_TILES: arg < TRAIN_COUNT is a train, arg >= HAND_BASE the hand of seat arg - HAND_BASE. */
#define HAND_BASE 100

struct node {
    struct luaview *vw;
    unsigned gen;               /* 0: the view and move nodes, always current */
    int kind;
    int arg;
};

struct tile_node {
    struct luaview *vw;
    int tile;
};

static const struct game *live(lua_State *L, const struct node *n)
{
    if (!n->vw->g) luaL_error(L, "the game view is only readable during a hook call");
    if (n->gen && n->gen != n->vw->gen) luaL_error(L, "this part of the game view belongs to an earlier hook call");
    return n->vw->g;
}

static void push_node(lua_State *L, struct luaview *vw, int kind, int arg)
{
    struct node *n = lua_newuserdatauv(L, sizeof *n, 0);
    n->vw = vw;
    n->gen = vw->gen;
    n->kind = kind;
    n->arg = arg;
    luaL_setmetatable(L, NODE_META);
}

/* Tiles are made once per state and shared: immutable values that compare equal. */
static void push_tile(lua_State *L, struct luaview *vw, tile_t t)
{
    lua_getfield(L, LUA_REGISTRYINDEX, TILES_KEY);
    if (lua_rawgeti(L, -1, t + 1) == LUA_TNIL) {
        lua_pop(L, 1);
        struct tile_node *tn = lua_newuserdatauv(L, sizeof *tn, 0);
        tn->vw = vw;
        tn->tile = t;
        luaL_setmetatable(L, TILE_META);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, t + 1);
    }
    lua_remove(L, -2);
}

void luaview_push_name(lua_State *L, const struct game *g, int seat)
{
    if (seat < 0) lua_pushnil(L);
    else lua_pushstring(L, seat == TRAIN_MEX ? "mex" : g->names[seat]);
}

/* The seat a name stands for (in_play: only seats still in the match), or -1. */
static int seat_named(const struct game *g, lua_State *L, int index, bool in_play)
{
    if (lua_type(L, index) != LUA_TSTRING) return -1;
    size_t len;
    const char *name = lua_tolstring(L, index, &len);
    int seat = game_find_player(g, name, (int)len);
    if (seat >= 0 && in_play && g->eliminated[seat]) return -1;
    return seat;
}

static bool playing(const struct game *g) { return g->phase == PHASE_PLAYING; }

/* The i-th (from 0) tile of the hand, in tile order; TILE_NONE past the end. */
static tile_t nth_tile(tileset s, int i)
{
    for (tile_t t; (t = tileset_pop(&s)) != TILE_NONE; i--)
        if (i == 0) return t;
    return TILE_NONE;
}

static int tiles_count(const struct game *g, int arg)
{
    if (arg >= HAND_BASE) return tileset_count(g->hands[arg - HAND_BASE]);
    return g->trains[arg].length;
}

static int count_last_winners(const struct game *g)
{
    int n = 0;
    for (int s = 0; s < g->nplayers; s++) n += g->won_last[s];
    return n;
}

static int list_count(const struct game *g, const struct node *n)
{
    switch (n->kind) {
    case N_TILES: return tiles_count(g, n->arg);
    case N_PLAYERS: return g->nplayers;
    case N_IN_PLAY: return game_players_in(g);
    case N_DOUBLES: return g->ndoubles;
    case N_LAST_WINNERS: return count_last_winners(g);
    case N_TRAINS: return game_players_in(g) + 1;
    case N_HANDS: return game_players_in(g);
    case N_TOTALS: case N_WINS: return g->nplayers;
    default: return 0;
    }
}

static int unknown_field(lua_State *L, const char *what, int key)
{
    if (lua_type(L, key) == LUA_TSTRING)
        return luaL_error(L, "%s has no field '%s' (see mtref-rules(5), THE GAME VIEW)", what, lua_tostring(L, key));
    return luaL_error(L, "%s has no field of type %s", what, luaL_typename(L, key));
}

/* ---- the scalar fields: one value function, for a hook's read and for the memo */

static const char *const move_fields[LUAVIEW_MOVE_FIELDS] = {
    "first_turn", "low", "high", "train", "own", "player", "seat", "round", "double_open", "marked", "open",
    "own_marked", "hand", "boneyard", "double",
};
static const char *const view_fields[LUAVIEW_VIEW_FIELDS] = {
    "round", "rounds", "engine", "max_pip", "player", "seat", "turn", "boneyard", "plays", "draws", "turn_draws",
    "first_turn", "began_owing", "passes", "hunting", "engine_from", "can_play", "must_draw",
};

static void set_read(struct luaview_read *r, int type, int64_t value)
{
    r->type = (signed char)type;
    r->value = value;
}

static void set_name(struct luaview_read *r, int seat)
{
    if (seat < 0) set_read(r, LUA_TNIL, 0);
    else set_read(r, LUAVIEW_NAME, seat);
}

static void move_value(const struct luaview *vw, const struct game *g, int field, struct luaview_read *r)
{
    int seat = vw->seat, train = vw->train;
    tile_t tile = vw->tile;
    switch (field) {
    case 0: set_read(r, LUA_TBOOLEAN, !g->had_turn[seat]); break;
    case 1: set_read(r, LUA_TNUMBER, tile_low(tile)); break;
    case 2: set_read(r, LUA_TNUMBER, tile_high(tile)); break;
    case 3: set_name(r, train); break;
    case 4: set_read(r, LUA_TBOOLEAN, train == seat); break;
    case 5: set_name(r, seat); break;
    case 6: set_read(r, LUA_TNUMBER, seat + 1); break;
    case 7: set_read(r, LUA_TNUMBER, g->round); break;
    case 8: set_read(r, LUA_TBOOLEAN, g->ndoubles > 0); break;
    case 9: set_read(r, LUA_TBOOLEAN, g->trains[train].marker); break;
    case 10: set_read(r, LUA_TNUMBER, g->trains[train].open_pip); break;
    case 11: set_read(r, LUA_TBOOLEAN, g->trains[seat].marker); break;
    case 12: set_read(r, LUA_TNUMBER, tileset_count(g->hands[seat])); break;
    case 13: set_read(r, LUA_TNUMBER, tileset_count(g->boneyard)); break;
    default: set_read(r, LUA_TBOOLEAN, tile_is_double(tile)); break;
    }
}

static void view_value(const struct luaview *vw, const struct game *g, int field, struct luaview_read *r)
{
    int seat = vw->seat;
    switch (field) {
    case 0: set_read(r, LUA_TNUMBER, g->round); break;
    case 1: set_read(r, LUA_TNUMBER, g->rounds); break;
    case 2: set_read(r, LUA_TNUMBER, g->engine_pip); break;
    case 3: set_read(r, LUA_TNUMBER, g->rules->max_pip); break;
    case 4: set_name(r, seat); break;
    case 5: if (seat < 0) set_read(r, LUA_TNIL, 0); else set_read(r, LUA_TNUMBER, seat + 1); break;
    case 6: set_name(r, playing(g) ? g->turn : -1); break;
    case 7: set_read(r, LUA_TNUMBER, tileset_count(g->boneyard)); break;
    case 8: set_read(r, LUA_TNUMBER, g->plays); break;
    case 9: set_read(r, LUA_TNUMBER, g->draws); break;
    case 10: set_read(r, LUA_TNUMBER, g->turn_draws); break;
    case 11: set_read(r, LUA_TBOOLEAN, seat >= 0 && !g->had_turn[seat]); break;
    case 12: set_read(r, LUA_TBOOLEAN, g->turn_began_owing); break;
    case 13: set_read(r, LUA_TNUMBER, g->pass_streak); break;
    case 14: set_read(r, LUA_TBOOLEAN, g->hunting); break;
    case 15: set_name(r, g->engine_from); break;
    case 16: if (vw->can_play < 0) set_read(r, LUA_TNIL, 0); else set_read(r, LUA_TBOOLEAN, vw->can_play); break;
    default: if (vw->must_draw < 0) set_read(r, LUA_TNIL, 0); else set_read(r, LUA_TBOOLEAN, vw->must_draw); break;
    }
}

void luaview_read_now(const struct luaview *vw, int node, int field, struct luaview_read *r)
{
    r->node = (unsigned char)node;
    r->field = (unsigned char)field;
    if (node == LUAVIEW_MOVE) move_value(vw, vw->g, field, r);
    else view_value(vw, vw->g, field, r);
}

static void push_read(lua_State *L, const struct game *g, const struct luaview_read *r)
{
    switch (r->type) {
    case LUA_TNIL: lua_pushnil(L); break;
    case LUA_TBOOLEAN: lua_pushboolean(L, (int)r->value); break;
    case LUA_TNUMBER: lua_pushinteger(L, (lua_Integer)r->value); break;
    default: luaview_push_name(L, g, (int)r->value); break;
    }
}

/* A read the record cannot hold: the answer may depend on anything. */
static void spoil(struct luaview *vw)
{
    if (vw->logging) vw->logging = -1;
}

void luaview_log_begin(struct luaview *vw)
{
    vw->logging = 1;
    vw->nlog = 0;
}

int luaview_log_end(struct luaview *vw)
{
    int n = vw->logging == 1 ? vw->nlog : -1;
    vw->logging = 0;
    return n;
}

/* The scalar field that key k (an interned string) names, or -1. */
static int field_of(const char *const keys[], int n, const char *k)
{
    for (int f = 0; f < n; f++)
        if (keys[f] == k) return f;
    return -1;
}

/* Pushes scalar field `field` of node (LUAVIEW_MOVE or _VIEW), recording the read. */
static int index_scalar(lua_State *L, struct luaview *vw, const struct game *g, int node, int field)
{
    struct luaview_read r;
    r.node = (unsigned char)node;
    r.field = (unsigned char)field;
    if (node == LUAVIEW_MOVE) move_value(vw, g, field, &r);
    else view_value(vw, g, field, &r);
    push_read(L, g, &r);
    if (vw->logging == 1) {
        if (vw->nlog == LUAVIEW_LOG_MAX) vw->logging = -1;
        else vw->log[vw->nlog++] = r;
    }
    return 1;
}

static int index_view(lua_State *L, struct node *n, const struct game *g, const char *k)
{
    struct luaview *vw = n->vw;
    int field = field_of(vw->view_key, LUAVIEW_VIEW_FIELDS, k);
    if (field >= 0) return index_scalar(L, vw, g, LUAVIEW_VIEW, field);
    spoil(vw);
    int seat = vw->seat;
    if (strcmp(k, "drew") == 0) { if (g->drew == TILE_NONE) lua_pushnil(L); else push_tile(L, vw, g->drew); }
    else if (strcmp(k, "trains") == 0) push_node(L, vw, N_TRAINS, 0);
    else if (strcmp(k, "hand") == 0) { if (seat < 0) lua_pushnil(L); else push_node(L, vw, N_TILES, HAND_BASE + seat); }
    else if (strcmp(k, "hands") == 0) push_node(L, vw, N_HANDS, 0);
    else if (strcmp(k, "totals") == 0) push_node(L, vw, N_TOTALS, 0);
    else if (strcmp(k, "wins") == 0) push_node(L, vw, N_WINS, 0);
    else if (strcmp(k, "players") == 0) push_node(L, vw, N_PLAYERS, 0);
    else if (strcmp(k, "in_play") == 0) push_node(L, vw, N_IN_PLAY, 0);
    else if (strcmp(k, "last_winners") == 0) push_node(L, vw, N_LAST_WINNERS, 0);
    else if (strcmp(k, "doubles") == 0) push_node(L, vw, N_DOUBLES, 0);
    else return unknown_field(L, "the game view", 2);
    return 1;
}

/* The play of may_play and another_play: the fields of mtref-rules(5), then tile. */
static int index_move(lua_State *L, struct node *n, const struct game *g, const char *k)
{
    struct luaview *vw = n->vw;
    if (vw->tile == TILE_NONE || vw->seat < 0) return luaL_error(L, "this hook call has no play");
    int field = field_of(vw->move_key, LUAVIEW_MOVE_FIELDS, k);
    if (field >= 0) return index_scalar(L, vw, g, LUAVIEW_MOVE, field);
    spoil(vw);
    if (strcmp(k, "tile") == 0) push_tile(L, vw, vw->tile);
    else return unknown_field(L, "the play", 2);
    return 1;
}

static int index_train(lua_State *L, struct node *n, const struct game *g, const char *k)
{
    int t = n->arg;
    const struct train *tr = &g->trains[t];
    if (strcmp(k, "open") == 0) lua_pushinteger(L, tr->open_pip);
    else if (strcmp(k, "marker") == 0) lua_pushboolean(L, tr->marker);
    else if (strcmp(k, "length") == 0) lua_pushinteger(L, tr->length);
    else if (strcmp(k, "owner") == 0) luaview_push_name(L, g, t == TRAIN_MEX ? -1 : t);
    else if (strcmp(k, "name") == 0) luaview_push_name(L, g, t);
    else if (strcmp(k, "mex") == 0) lua_pushboolean(L, t == TRAIN_MEX);
    else if (strcmp(k, "tiles") == 0) push_node(L, n->vw, N_TILES, t);
    else if (strcmp(k, "last") == 0) { if (tr->length) push_tile(L, n->vw, tr->tiles[tr->length - 1]); else lua_pushnil(L); }
    else return unknown_field(L, "a train", 2);
    return 1;
}

static int index_double(lua_State *L, struct node *n, const struct game *g, const char *k)
{
    const struct uncovered_double *d = &g->doubles[n->arg];
    if (n->arg >= g->ndoubles) return luaL_error(L, "this uncovered double has been covered since");
    if (strcmp(k, "train") == 0) luaview_push_name(L, g, d->train);
    else if (strcmp(k, "pip") == 0) lua_pushinteger(L, d->pip);
    else if (strcmp(k, "tile") == 0) push_tile(L, n->vw, tile_double(d->pip));
    else return unknown_field(L, "an uncovered double", 2);
    return 1;
}

/* The i-th (from 1) entry of a list node, pushed; false past the end. */
static bool push_item(lua_State *L, struct node *n, const struct game *g, lua_Integer i)
{
    if (i < 1 || i > list_count(g, n)) return false;
    int k = (int)i - 1;
    switch (n->kind) {
    case N_TILES:
        if (n->arg >= HAND_BASE) push_tile(L, n->vw, nth_tile(g->hands[n->arg - HAND_BASE], k));
        else push_tile(L, n->vw, g->trains[n->arg].tiles[k]);
        return true;
    case N_PLAYERS:
        luaview_push_name(L, g, k);
        return true;
    case N_IN_PLAY:
        for (int s = 0; s < g->nplayers; s++)
            if (!g->eliminated[s] && k-- == 0) { luaview_push_name(L, g, s); return true; }
        return false;
    case N_DOUBLES:
        push_node(L, n->vw, N_DOUBLE, k);
        return true;
    case N_LAST_WINNERS:
        for (int s = 0; s < g->nplayers; s++)
            if (g->won_last[s] && k-- == 0) { luaview_push_name(L, g, s); return true; }
        return false;
    default:
        return false;
    }
}

/* The value of a map node (trains, hands, totals, wins) for seat (TRAIN_MEX: mex). */
static void push_entry(lua_State *L, struct node *n, const struct game *g, int seat)
{
    switch (n->kind) {
    case N_TRAINS: push_node(L, n->vw, N_TRAIN, seat); break;
    case N_HANDS: lua_pushinteger(L, tileset_count(g->hands[seat])); break;
    case N_TOTALS: lua_pushinteger(L, (lua_Integer)g->totals[seat]); break;
    default: lua_pushinteger(L, g->wins[seat]); break;
    }
}

static bool is_map(int kind) { return kind == N_TRAINS || kind == N_HANDS || kind == N_TOTALS || kind == N_WINS; }
/* Maps of the players still in (trains, hands) or of everyone seated (totals, wins). */
static bool map_in_play(int kind) { return kind == N_TRAINS || kind == N_HANDS; }

/* The node of a metamethod call. The metatable is hidden from scripts, so only Lua
 * itself calls these, on our userdata: no registry lookup on the hot path. */
static struct node *self_node(lua_State *L)
{
    struct node *n = lua_touserdata(L, 1);
    if (!n) luaL_error(L, "the game view is malformed");
    return n;
}

static int node_index(lua_State *L)
{
    struct node *n = self_node(L);
    const struct game *g = live(L, n);
    if (n->kind != N_VIEW && n->kind != N_MOVE) spoil(n->vw);
    if (is_map(n->kind)) {
        if (n->kind == N_TRAINS && lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "mex") == 0) {
            push_entry(L, n, g, TRAIN_MEX);
            return 1;
        }
        int seat = seat_named(g, L, 2, map_in_play(n->kind));
        if (seat < 0) lua_pushnil(L);
        else push_entry(L, n, g, seat);
        return 1;
    }
    if (n->kind == N_TILES || n->kind == N_PLAYERS || n->kind == N_IN_PLAY || n->kind == N_DOUBLES
        || n->kind == N_LAST_WINNERS) {
        int isnum = 0;
        lua_Integer i = lua_type(L, 2) == LUA_TNUMBER ? lua_tointegerx(L, 2, &isnum) : 0;
        if (!isnum || !push_item(L, n, g, i)) lua_pushnil(L);
        return 1;
    }
    if (lua_type(L, 2) != LUA_TSTRING) return unknown_field(L, "the game view", 2);
    const char *k = lua_tostring(L, 2);
    switch (n->kind) {
    case N_VIEW: return index_view(L, n, g, k);
    case N_MOVE: return index_move(L, n, g, k);
    case N_TRAIN: return index_train(L, n, g, k);
    default: return index_double(L, n, g, k);
    }
}

static int node_newindex(lua_State *L)
{
    return luaL_error(L, "the game view is read-only: a hook changes the game only through what it returns");
}

static int node_len(lua_State *L)
{
    struct node *n = self_node(L);
    const struct game *g = live(L, n);
    spoil(n->vw);
    if (n->kind == N_VIEW || n->kind == N_MOVE || n->kind == N_TRAIN || n->kind == N_DOUBLE)
        return luaL_error(L, "this part of the game view has no length");
    lua_pushinteger(L, list_count(g, n));
    return 1;
}

/* The seat after key in a map's order (seats, then mex for trains); -2 at the end. */
static int next_seat(const struct game *g, const struct node *n, lua_State *L, int key)
{
    int from = 0;
    if (!lua_isnil(L, key)) {
        if (n->kind == N_TRAINS && lua_type(L, key) == LUA_TSTRING && strcmp(lua_tostring(L, key), "mex") == 0)
            return -2;
        int seat = seat_named(g, L, key, false);
        if (seat < 0) luaL_error(L, "pairs: no such key in the game view");
        from = seat + 1;
    }
    for (int s = from; s < g->nplayers; s++)
        if (!map_in_play(n->kind) || !g->eliminated[s]) return s;
    return n->kind == N_TRAINS ? TRAIN_MEX : -2;
}

static int node_next(lua_State *L)
{
    struct node *n = self_node(L);
    const struct game *g = live(L, n);
    spoil(n->vw);
    lua_settop(L, 2);
    if (is_map(n->kind)) {
        int seat = next_seat(g, n, L, 2);
        if (seat == -2) return 0;
        luaview_push_name(L, g, seat);
        push_entry(L, n, g, seat);
        return 2;
    }
    lua_Integer i = lua_isnil(L, 2) ? 1 : luaL_checkinteger(L, 2) + 1;
    lua_pushinteger(L, i);
    if (!push_item(L, n, g, i)) return 0;
    return 2;
}

static int node_pairs(lua_State *L)
{
    struct node *n = self_node(L);
    live(L, n);
    spoil(n->vw);
    if (n->kind == N_VIEW || n->kind == N_MOVE || n->kind == N_TRAIN || n->kind == N_DOUBLE)
        return luaL_error(L, "pairs: this part of the game view is not a list or a map");
    lua_pushcfunction(L, node_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int node_tostring(lua_State *L)
{
    struct node *n = self_node(L);
    spoil(n->vw);
    static const char *const what[] = {"view", "play", "trains", "train", "tiles", "hands", "totals", "wins",
                                       "players", "in_play", "doubles", "double", "last_winners"};
    lua_pushfstring(L, "game view: %s", what[n->kind]);
    return 1;
}

static int tile_index(lua_State *L)
{
    struct tile_node *tn = luaL_checkudata(L, 1, TILE_META);
    spoil(tn->vw);
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (strcmp(k, "low") == 0) lua_pushinteger(L, tile_low(tn->tile));
    else if (strcmp(k, "high") == 0) lua_pushinteger(L, tile_high(tn->tile));
    else if (strcmp(k, "double") == 0) lua_pushboolean(L, tile_is_double(tn->tile));
    else if (strcmp(k, "pips") == 0) lua_pushinteger(L, tile_low(tn->tile) + tile_high(tn->tile));
    else if (strcmp(k, "value") == 0) {
        if (!tn->vw->g) return luaL_error(L, "a tile's value is only readable during a hook call");
        lua_pushinteger(L, tn->vw->g->rules->tile_value[tn->tile]);
    } else return unknown_field(L, "a tile", 2);
    return 1;
}

static int tile_tostring(lua_State *L)
{
    struct tile_node *tn = luaL_checkudata(L, 1, TILE_META);
    spoil(tn->vw);
    char text[TILE_TEXT_SIZE];
    tile_format(tn->tile, text);
    lua_pushstring(L, text);
    return 1;
}

void luaview_init(lua_State *L, struct luaview *vw)
{
    memset(vw, 0, sizeof *vw);
    vw->seat = -1;
    vw->tile = TILE_NONE;
    vw->train = -1;
    static const luaL_Reg node_methods[] = {
        {"__index", node_index}, {"__newindex", node_newindex}, {"__len", node_len},
        {"__pairs", node_pairs}, {"__tostring", node_tostring}, {NULL, NULL},
    };
    static const luaL_Reg tile_methods[] = {
        {"__index", tile_index}, {"__newindex", node_newindex}, {"__tostring", tile_tostring}, {NULL, NULL},
    };
    luaL_newmetatable(L, NODE_META);
    luaL_setfuncs(L, node_methods, 0);
    lua_pushliteral(L, "the game view is read-only");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    luaL_newmetatable(L, TILE_META);
    luaL_setfuncs(L, tile_methods, 0);
    lua_pushliteral(L, "tiles are read-only");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    lua_createtable(L, TILE_COUNT, 0);
    lua_setfield(L, LUA_REGISTRYINDEX, TILES_KEY);
    for (int f = 0; f < LUAVIEW_MOVE_FIELDS; f++) {
        vw->move_key[f] = lua_pushstring(L, move_fields[f]);   /* short strings are interned: kept, */
        luaL_ref(L, LUA_REGISTRYINDEX);                        /* the address names the key */
    }
    for (int f = 0; f < LUAVIEW_VIEW_FIELDS; f++) {
        vw->view_key[f] = lua_pushstring(L, view_fields[f]);
        luaL_ref(L, LUA_REGISTRYINDEX);
    }
    push_node(L, vw, N_VIEW, 0);
    ((struct node *)lua_touserdata(L, -1))->gen = 0;
    vw->view_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    push_node(L, vw, N_MOVE, 0);
    ((struct node *)lua_touserdata(L, -1))->gen = 0;
    vw->move_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void luaview_begin(struct luaview *vw, const struct game *g, int seat, tile_t tile, int train)
{
    vw->g = g;
    vw->seat = seat;
    vw->tile = tile;
    vw->train = train;
    vw->can_play = vw->must_draw = -1;
    vw->gen++;
    if (vw->gen == 0) vw->gen = 1;     /* 0 marks the nodes that are always current */
}

void luaview_end(struct luaview *vw) { vw->g = NULL; }

void luaview_push(lua_State *L, struct luaview *vw) { lua_rawgeti(L, LUA_REGISTRYINDEX, vw->view_ref); }
void luaview_push_move(lua_State *L, struct luaview *vw) { lua_rawgeti(L, LUA_REGISTRYINDEX, vw->move_ref); }
