/* The rules files there are: the search path, every NAME.lua on it, for `mtref rules`
 * without a name and for "did you mean" when a name is not found. */
#define _XOPEN_SOURCE 700      /* realpath */
#include "luacatalog.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "luaruleset.h"
#include "nearest.h"

#ifndef MTREF_RULES_DIR
#define MTREF_RULES_DIR "/usr/local/share/mtref/rules"
#endif

/* The directories searched for NAME.lua, in order: i = 0, 1, ... until false. The
 * rules beside the running executable come as <bin>/../share/mtref/rules (a relocated
 * install) and <bin>/share/mtref/rules (a build tree). */
bool luacatalog_search_dir(int i, char *dir, size_t size)
{
    const char *env = getenv("MTREF_RULES_PATH");
    while (env && *env) {
        size_t len = strcspn(env, ":");
        if (len > 0 && i-- == 0) {
            snprintf(dir, size, "%.*s", (int)len, env);
            return true;
        }
        env += len;
        if (*env == ':') env++;
    }
    if (i == 0) { snprintf(dir, size, "%s", MTREF_RULES_DIR); return true; }
    if (i == 1 || i == 2) {
        /* "" when unknown; the real path when it exists, so messages stay short */
        char exe[RULESET_PATH_SIZE], joined[RULESET_PATH_SIZE + 32], real[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
        dir[0] = '\0';
        if (!slash) return true;
        *slash = '\0';
        snprintf(joined, sizeof joined, "%s%s", exe, i == 1 ? "/../share/mtref/rules" : "/share/mtref/rules");
        snprintf(dir, size, "%s", realpath(joined, real) ? real : joined);
        return true;
    }
    if (i == 3) { snprintf(dir, size, "rules"); return true; }
    if (i == 4) { snprintf(dir, size, "."); return true; }
    return false;
}

static int by_name(const void *a, const void *b)
{
    const struct luacatalog_entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->dir - y->dir;
}

int luacatalog_collect(struct luacatalog_entry *out, int max)
{
    int n = 0;
    char dir[RULESET_PATH_SIZE];
    for (int d = 0; luacatalog_search_dir(d, dir, sizeof dir); d++) {
        DIR *dp = dir[0] ? opendir(dir) : NULL;
        if (!dp) continue;
        for (struct dirent *e; n < max && (e = readdir(dp));) {
            size_t len = strlen(e->d_name);
            if (len <= 4 || len - 4 >= RULES_NAME_SIZE || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
            struct luacatalog_entry *it = &out[n];
            int plen = snprintf(it->path, sizeof it->path, "%s/%s", dir, e->d_name);
            struct stat st;
            if (plen <= 0 || plen >= (int)sizeof it->path || stat(it->path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            snprintf(it->name, sizeof it->name, "%.*s", (int)(len - 4), e->d_name);
            it->dir = d;
            it->hidden = false;
            n++;
        }
        closedir(dp);
    }
    qsort(out, (size_t)n, sizeof *out, by_name);
    for (int i = 1; i < n; i++) out[i].hidden = strcmp(out[i].name, out[i - 1].name) == 0;
    return n;
}

void luacatalog_nearest_name(const char *name, char *out, size_t size)
{
    out[0] = '\0';
    struct luacatalog_entry *all = mt_malloc(LUACATALOG_MAX * sizeof *all);
    const char **names = mt_malloc(LUACATALOG_MAX * sizeof *names);
    if (all && names) {
        int n = luacatalog_collect(all, LUACATALOG_MAX);
        for (int i = 0; i < n; i++) names[i] = all[i].name;
        int near = nearest_of(name, names, n);
        if (near >= 0) snprintf(out, size, "%s", all[near].name);
    }
    free(names);
    free(all);
}
