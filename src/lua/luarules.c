/* The Lua bridge, loading: house-rule files -> rule sets. Finds files on the rules
 * path, runs them in a sandbox (luasandbox.c), has their tables read (luaread.c) and
 * their hooks installed (luahooks.c), caches rule sets across matches, and prints
 * what a set changes (mtref rules). A rule set is one sandboxed state holding every
 * file of a list, loaded in order: a later file's settings and hooks replace an
 * earlier one's. */
#define _XOPEN_SOURCE 700      /* access, stat */
#include "luarules.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "alloc.h"
#include "engine.h"
#include "escape.h"
#include "luacatalog.h"
#include "luaruleset.h"

/* The bridge keeps the last few rule sets it loaded: a stream whose every match names
 * the same rules lines (one set per line read so far) loads the Lua once, not once
 * per match. */
#define CACHE_SLOTS 4
struct luarules {
    struct ruleset *cached[CACHE_SLOTS];
    char *keys[CACHE_SLOTS];            /* the file spellings, one per line */
    unsigned long last_used[CACHE_SLOTS];
    unsigned long clock;
};

struct luarules *luarules_new(void)
{
    struct luarules *lr = mt_malloc(sizeof *lr);
    if (lr) memset(lr, 0, sizeof *lr);
    return lr;
}


void luarules_free(struct luarules *lr)
{
    if (!lr) return;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        ruleset_free(lr->cached[i]);
        free(lr->keys[i]);
    }
    free(lr);
}

const char *luarules_version(void) { return LUA_VERSION_MAJOR "." LUA_VERSION_MINOR "." LUA_VERSION_RELEASE; }

/* --- finding files ------------------------------------------------------- */

/* A rules file is a regular file that can be read (a directory is not one). */
static bool readable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Resolves a spelling (NAME, NAME.lua, or a path) to a readable file. */
static bool resolve(const char *spelling, char *path, char *name)
{
    rules_file_name(spelling, name, RULES_NAME_SIZE);
    if (strlen(spelling) >= RULESET_PATH_SIZE - 8 || strlen(name) >= RULES_NAME_SIZE - 1) return false;   /* never cut a name */
    if (strchr(spelling, '/')) {
        snprintf(path, RULESET_PATH_SIZE, "%s", spelling);
        return readable_file(path);
    }
    char dir[RULESET_PATH_SIZE];
    for (int i = 0; luacatalog_search_dir(i, dir, sizeof dir); i++) {
        if (!dir[0]) continue;
        /* DIR/NAME.lua, then DIR/examples/NAME.lua (the example files ship there) */
        int n = snprintf(path, RULESET_PATH_SIZE, "%s/%s.lua", dir, name);
        if (n > 0 && n < RULESET_PATH_SIZE && readable_file(path)) return true;
        n = snprintf(path, RULESET_PATH_SIZE, "%s/examples/%s.lua", dir, name);
        if (n > 0 && n < RULESET_PATH_SIZE && readable_file(path)) return true;
    }
    snprintf(path, RULESET_PATH_SIZE, "%s", spelling);
    return readable_file(path);
}

/* Why a spelling found no file: a path that is missing or a directory, or a name that
 * is nowhere on the search path (with the nearest name that is). */
static void explain_missing(const char *spelling, char *err)
{
    struct stat st;
    bool is_dir = stat(spelling, &st) == 0 && S_ISDIR(st.st_mode);
    if (is_dir) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: is a directory, not a rules file", spelling);
        return;
    }
    if (strchr(spelling, '/')) {
        const char *why = "no such file";
        if (stat(spelling, &st) == 0)
            why = S_ISREG(st.st_mode) ? "cannot be read as a rules file"
                                      : "not a regular file (a pipe or a device), so not a rules file";
        snprintf(err, RULES_MESSAGE_SIZE, "%s: %s", spelling, why);
        return;
    }
    char name[RULES_NAME_SIZE], near[RULES_NAME_SIZE] = "";
    rules_file_name(spelling, name, sizeof name);
    luacatalog_nearest_name(name, near, sizeof near);
    size_t used = (size_t)snprintf(err, RULES_MESSAGE_SIZE, "%s: no rules file of that name on the search path (", spelling);
    char dir[RULESET_PATH_SIZE];
    for (int i = 0, shown = 0; luacatalog_search_dir(i, dir, sizeof dir) && used < RULES_MESSAGE_SIZE; i++)
        if (dir[0]) used += (size_t)snprintf(err + used, RULES_MESSAGE_SIZE - used, "%s%s", shown++ ? ", " : "", dir);
    if (used < RULES_MESSAGE_SIZE) used += (size_t)snprintf(err + used, RULES_MESSAGE_SIZE - used, ")");
    if (near[0] && used < RULES_MESSAGE_SIZE) snprintf(err + used, RULES_MESSAGE_SIZE - used, "; did you mean %s?", near);
}

bool luarules_find(const char *spelling, char *path, size_t size, bool *by_name)
{
    char found[RULESET_PATH_SIZE], name[RULES_NAME_SIZE];
    *by_name = false;
    if (!resolve(spelling, found, name)) return false;
    *by_name = !strchr(spelling, '/') && found[0] == '/';
    snprintf(path, size, "%s", found);
    return true;
}



/* The hooks' registry entries and the view's metatables allocate: in protected mode. */
static int install_hooks(void *ud)
{
    luahooks_install(ud);
    return 0;
}

/* --- rule sets ------------------------------------------------------------ */

void ruleset_free(struct ruleset *set)
{
    if (!set) return;
    for (int i = 0; i < RULESET_MAX_FILES; i++) luamemo_free(set->play_memo[i]);
    sandbox_free(set->sb);
    free(set);
}

/* Runs and reads the files of a set, in protected mode: every Lua API call of the
 * bridge may fail for memory. */
struct loading {
    struct ruleset *set;
    char *err;
};

static int load_files(void *ud)
{
    struct loading *ld = ud;
    struct ruleset *set = ld->set;
    lua_State *L = sandbox_state(set->sb);
    int base = lua_gettop(L) + 1;
    for (int i = 0; i < set->nfiles; i++) {
        if (sandbox_run_file(set->sb, set->paths[i], set->shown[i], ld->err) != 0) return -1;
        if (luaread_table(set, i, ld->err) != 0) return -1;
        if (luaread_pairs(set, base, i + 1, ld->err) != 0) return -1;
    }
    if (luaread_finish(set, ld->err) != 0) return -1;
    const char *problem = rules_check(&set->rules);
    if (problem) {
        snprintf(ld->err, RULES_MESSAGE_SIZE, "%s: these rules cannot be played: %s", set->shown[set->nfiles - 1],
                 problem);
        return -1;
    }
    lua_settop(L, base - 1);
    return 0;
}

static void ruleset_match_begin(void *ctx)
{
    struct ruleset *set = ctx;
    sandbox_match_begin(set->sb);
    for (int i = 0; i < set->nchain[RULESET_HOOK_MAY_PLAY]; i++)
        if (set->play_memo[i]) luamemo_clear(set->play_memo[i]);
}

struct ruleset *ruleset_load(const char *const files[], int n, char *err)
{
    struct ruleset *set = mt_malloc(sizeof *set);
    if (!set) { snprintf(err, RULES_MESSAGE_SIZE, "out of memory"); return NULL; }
    memset(set, 0, sizeof *set);
    rules_init_canonical(&set->rules);
    for (int id = 0; id < RULESET_HOOK_COUNT; id++) set->hook_ref[id] = LUA_NOREF;
    set->value_ref = LUA_NOREF;
    set->sb = sandbox_new();
    if (!set->sb) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: out of memory (the memory cap of %u MB is for all rules files together)",
                 n > 0 ? files[0] : "rules", (unsigned)(SANDBOX_MEMORY_LIMIT >> 20));
        free(set);
        return NULL;
    }
    if (n > RULESET_MAX_FILES) n = RULESET_MAX_FILES;
    /* same file named twice (any spelling) counts once */
    for (int i = 0; i < n; i++) {
        char path[RULESET_PATH_SIZE], name[RULES_NAME_SIZE];
        if (!resolve(files[i], path, name)) {
            explain_missing(files[i], err);
            ruleset_free(set);
            return NULL;
        }
        /* house-rules.md: NAME, NAME.lua and .../NAME.lua are one file; twice counts once */
        bool seen = false;
        for (int j = 0; j < set->nfiles && !seen; j++) seen = strcmp(set->names[j], name) == 0;
        if (seen) continue;
        snprintf(set->paths[set->nfiles], RULESET_PATH_SIZE, "%s", path);
        if (strchr(files[i], '/')) snprintf(set->shown[set->nfiles], RULESET_PATH_SIZE, "%s", files[i]);
        else snprintf(set->shown[set->nfiles], RULESET_PATH_SIZE, "%s.lua", name);
        snprintf(set->names[set->nfiles], RULES_NAME_SIZE, "%s", name);
        set->nfiles++;
    }
    struct loading ld = {set, err};
    if (sandbox_protect(set->sb, load_files, &ld, set->shown[set->nfiles ? set->nfiles - 1 : 0], err) != 0) goto fail;
    size_t used = 0;
    for (int i = 0; i < set->nfiles; i++)
        used += (size_t)snprintf(set->names_joined + used, sizeof set->names_joined - used, "%s%s", i ? ", " : "",
                                 set->names[i]);
    set->rules.names = set->names_joined;
    for (int i = 0; i < set->nfiles; i++) set->name_list[i] = set->names[i];
    set->rules.file_names = set->name_list;
    set->rules.nfile_names = set->nfiles;
    if (sandbox_protect(set->sb, install_hooks, set, set->shown[set->nfiles ? set->nfiles - 1 : 0], err) != 0)
        goto fail;
    set->rules.hooks.match_begin = ruleset_match_begin;
    return set;
fail:
    ruleset_free(set);
    return NULL;
}

/* The cache key of a list: each spelling with the identity of the file it names now
 * (device, inode, size, modification time), so an edited file is loaded afresh. */
static char *key_of(const char *const files[], int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(files[i]) + 96;
    char *key = mt_malloc(len);
    if (!key) return NULL;
    size_t used = 0;
    key[0] = '\0';
    for (int i = 0; i < n; i++) {
        char path[RULESET_PATH_SIZE], name[RULES_NAME_SIZE];
        struct stat st;
        memset(&st, 0, sizeof st);
        if (resolve(files[i], path, name)) stat(path, &st);
        used += (size_t)snprintf(key + used, len - used, "%s\t%llu:%llu:%lld:%lld.%09ld\n", files[i],
                                 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino, (long long)st.st_size,
                                 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    }
    return key;
}

static bool in_cache(const struct luarules *lr, const struct ruleset *set)
{
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (lr->cached[i] == set) return true;
    return false;
}

/* Frees the cached sets no session uses; whether there was one. */
static bool drop_unused(struct luarules *lr)
{
    bool dropped = false;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (lr->cached[i] && lr->cached[i]->users == 0) {
            ruleset_free(lr->cached[i]);
            free(lr->keys[i]);
            lr->cached[i] = NULL;
            lr->keys[i] = NULL;
            lr->last_used[i] = 0;
            dropped = true;
        }
    return dropped;
}

static void *loader_load(void *ctx, const char *const files[], int n, const struct rules **rules, char *err)
{
    struct luarules *lr = ctx;
    char *key = key_of(files, n);
    if (!key) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    lr->clock++;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (lr->keys[i] && strcmp(key, lr->keys[i]) == 0) {
            free(key);
            lr->last_used[i] = lr->clock;
            lr->cached[i]->users++;
            *rules = &lr->cached[i]->rules;
            return lr->cached[i];
        }
    struct ruleset *set = ruleset_load(files, n, err);
    if (!set && (strstr(err, "memory cap") || strstr(err, "out of memory")) && drop_unused(lr))
        set = ruleset_load(files, n, err);      /* the cap is shared: what no match uses goes first */
    if (!set) {
        free(key);
        return NULL;
    }
    int slot = 0;                        /* the least recently used slot */
    for (int i = 1; i < CACHE_SLOTS; i++)
        if (lr->last_used[i] < lr->last_used[slot]) slot = i;
    struct ruleset *evicted = lr->cached[slot];
    free(lr->keys[slot]);
    lr->cached[slot] = set;
    lr->keys[slot] = key;
    lr->last_used[slot] = lr->clock;
    if (evicted && evicted->users == 0) ruleset_free(evicted);
    set->users = 1;
    *rules = &set->rules;
    return set;
}

static void loader_release(void *ctx, void *handle)
{
    struct luarules *lr = ctx;
    struct ruleset *set = handle;
    if (--set->users == 0 && !in_cache(lr, set)) ruleset_free(set);
}

struct rules_loader luarules_loader(struct luarules *lr)
{
    struct rules_loader l = {lr, loader_load, loader_release};
    return l;
}

/* --- mtref rules ---------------------------------------------------------- */

static void describe(const struct ruleset *set, FILE *out)
{
    struct rules canon;
    rules_init_canonical(&canon);
    const struct rules *r = &set->rules;
    fputs("rules: ", out);
    escape_puts(out, set->names_joined);
    putc('\n', out);
    for (int i = 0; i < set->nfiles; i++) {
        fputs("  file: ", out);
        escape_puts(out, set->paths[i]);
        if (set->descriptions[i][0]) {
            fputs(" (", out);
            escape_puts(out, set->descriptions[i]);
            putc(')', out);
        }
        putc('\n', out);
    }
    bool changed = false;
    if (r->max_pip != canon.max_pip) {
        fprintf(out, "  set: %s, %d tiles, pips 0 to %d (canonical double-twelve, 91 tiles)\n", tile_set_name(r->max_pip),
                r->set_size, r->max_pip);
        changed = true;
    }
    if (r->min_players != canon.min_players || r->max_players != canon.max_players) {
        fprintf(out, "  players: %d to %d (canonical 2 to 8)\n", r->min_players, r->max_players);
        changed = true;
    }
    for (int n = r->min_players; n <= r->max_players; n++)
        if (r->hand_size[n] != canon.hand_size[n]) {
            fprintf(out, "  hand size with %d players: %d (canonical %d)\n", n, r->hand_size[n], canon.hand_size[n]);
            changed = true;
        }
    int differing = 0;
    for (tile_t t = 0; t < TILE_COUNT; t++) {
        if (!rules_has_tile(r, t) || r->tile_value[t] == canon.tile_value[t]) continue;
        char text[TILE_TEXT_SIZE];
        tile_format(t, text);
        if (differing % 8 == 0) fputs(differing ? "\n   " : "  tile values (canonical: the pips):", out);
        fprintf(out, " %s=%d", text, r->tile_value[t]);
        differing++;
    }
    if (differing) {
        putc('\n', out);
        changed = true;
    }
    if (r->rounds_allowed != canon.rounds_allowed || r->default_rounds != canon.default_rounds) {
        fputs("  round counts:", out);
        for (int k = 1; k <= RULES_MAX_ROUNDS; k++)
            if ((r->rounds_allowed >> k) & 1) fprintf(out, " %d", k);
        fprintf(out, " (default %d; canonical 13, 7, 1)\n", r->default_rounds);
        changed = true;
    }
    if (r->doubles != canon.doubles) { fprintf(out, "  doubles: %s (canonical cover)\n", ruleset_doubles_choices[r->doubles]); changed = true; }
    if (r->draw != canon.draw) { fprintf(out, "  draw: %s (canonical once)\n", ruleset_draw_choices[r->draw]); changed = true; }
    if (r->first_turn_own_train) { fputs("  first turn: own train only\n", out); changed = true; }
    if (r->marker_after_cover) { fputs("  marker after an owed cover made elsewhere\n", out); changed = true; }
    if (r->scoring != canon.scoring) { fputs("  scoring: positive, the highest total wins\n", out); changed = true; }
    if (r->out_on_double_factor != 1) {
        fprintf(out, "  going out on a double multiplies the round's points by %d\n", r->out_on_double_factor);
        changed = true;
    }
    /* every file's hook, in load order: the order vetoes are asked and answers chain */
    for (int id = 0; id < RULESET_HOOK_COUNT; id++)
        for (int i = 0; i < set->nchain[id]; i++) {
            fprintf(out, "  hook %s: ", ruleset_hook_names[id]);
            escape_puts(out, set->paths[set->chain_file[id][i]]);
            fprintf(out, ":%d\n", set->chain_line[id][i]);
            changed = true;
        }
    if (!changed) fputs("  changes nothing: the canonical rules stand\n", out);
}

int luarules_describe(struct luarules *lr, const char *const files[], int n, FILE *out, FILE *err)
{
    (void)lr;
    if (n == 0) return luarules_list(out, err);
    char message[RULES_MESSAGE_SIZE];
    struct ruleset *set = ruleset_load(files, n, message);
    if (!set) {
        fputs("mtref: rules: ", err);
        escape_puts(err, message);
        putc('\n', err);
        return 2;
    }
    describe(set, out);
    ruleset_free(set);
    return 0;
}

int luarules_list_names(FILE *out)
{
    struct luacatalog_entry *all = mt_malloc(LUACATALOG_MAX * sizeof *all);
    if (!all) return 2;
    int n = luacatalog_collect(all, LUACATALOG_MAX);
    for (int i = 0; i < n; i++)
        if (!all[i].hidden) fprintf(out, "%s\n", all[i].name);
    free(all);
    return ferror(out) ? 2 : 0;
}

int luarules_list(FILE *out, FILE *err)
{
    struct luacatalog_entry *all = mt_malloc(LUACATALOG_MAX * sizeof *all);
    if (!all) {
        fputs("mtref: out of memory\n", err);
        return 2;
    }
    int n = luacatalog_collect(all, LUACATALOG_MAX);
    fputs("rules files on the search path (mtref rules NAME shows what one changes):\n", out);
    for (int i = 0; i < n; i++) {
        const struct luacatalog_entry *it = &all[i];
        if (it->hidden) {
            fprintf(out, "    also %s, not loaded by name\n", it->path);
            continue;
        }
        char message[RULES_MESSAGE_SIZE];
        const char *files[1] = {it->path};
        struct ruleset *set = ruleset_load(files, 1, message);
        fprintf(out, "  %-22s ", it->name);
        if (set && set->descriptions[0][0]) escape_puts(out, set->descriptions[0]);
        else if (set) fputs("(no description)", out);
        else fputs("(does not load; mtref rules NAME says why)", out);
        fprintf(out, "\n    %s\n", it->path);
        ruleset_free(set);
    }
    if (n == 0) fputs("  none: see MTREF_RULES_PATH in mtref-rules(5)\n", out);
    free(all);
    return ferror(out) ? 2 : 0;
}
