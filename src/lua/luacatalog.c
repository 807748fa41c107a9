/* The rules files there are: every NAME.lua on the search path, for `mtref rules`
 * without a name and for "did you mean" when a name is not found. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "luarules.h"
#include "luaruleset.h"
#include "nearest.h"

#define CATALOG_MAX 1024            /* files listed; a search path holds a few dozen */

struct entry {
    char name[RULES_NAME_SIZE];
    char path[RULESET_PATH_SIZE];
    int dir;                        /* position on the search path */
    bool hidden;                    /* an earlier directory has the same name */
};

static int by_name(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->dir - y->dir;
}

/* Every regular NAME.lua of every search directory, by name then search order. */
static int collect(struct entry *out, int max)
{
    int n = 0;
    char dir[RULESET_PATH_SIZE];
    for (int d = 0; luarules_search_dir(d, dir, sizeof dir); d++) {
        DIR *dp = dir[0] ? opendir(dir) : NULL;
        if (!dp) continue;
        for (struct dirent *e; n < max && (e = readdir(dp));) {
            size_t len = strlen(e->d_name);
            if (len <= 4 || len - 4 >= RULES_NAME_SIZE || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
            struct entry *it = &out[n];
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

void luarules_nearest_name(const char *name, char *out, size_t size)
{
    out[0] = '\0';
    struct entry *all = mt_malloc(CATALOG_MAX * sizeof *all);
    const char **names = mt_malloc(CATALOG_MAX * sizeof *names);
    if (all && names) {
        int n = collect(all, CATALOG_MAX);
        for (int i = 0; i < n; i++) names[i] = all[i].name;
        int near = nearest_of(name, names, n);
        if (near >= 0) snprintf(out, size, "%s", all[near].name);
    }
    free(names);
    free(all);
}

int luarules_list(FILE *out, FILE *err)
{
    struct entry *all = mt_malloc(CATALOG_MAX * sizeof *all);
    if (!all) {
        fputs("mtref: out of memory\n", err);
        return 2;
    }
    int n = collect(all, CATALOG_MAX);
    fputs("rules files on the search path (mtref rules NAME shows what one changes):\n", out);
    for (int i = 0; i < n; i++) {
        const struct entry *it = &all[i];
        if (it->hidden) {
            fprintf(out, "    also %s, not loaded by name\n", it->path);
            continue;
        }
        char message[RULES_MESSAGE_SIZE];
        const char *files[1] = {it->path};
        struct ruleset *set = ruleset_load(files, 1, message);
        fprintf(out, "  %-22s ", it->name);
        if (set && set->descriptions[0][0]) luarules_print_escaped(out, set->descriptions[0]);
        else if (set) fputs("(no description)", out);
        else fputs("(does not load; mtref rules NAME says why)", out);
        fprintf(out, "\n    %s\n", it->path);
        ruleset_free(set);
    }
    if (n == 0) fputs("  none: see MTREF_RULES_PATH in mtref-rules(5)\n", out);
    free(all);
    return ferror(out) ? 2 : 0;
}

void luarules_print_escaped(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\x%02x", *p);     /* no control byte reaches a terminal */
        else putc(*p, out);
    }
}

int luarules_list_names(FILE *out)
{
    struct entry *all = mt_malloc(CATALOG_MAX * sizeof *all);
    if (!all) return 2;
    int n = collect(all, CATALOG_MAX);
    for (int i = 0; i < n; i++)
        if (!all[i].hidden) fprintf(out, "%s\n", all[i].name);
    free(all);
    return ferror(out) ? 2 : 0;
}
