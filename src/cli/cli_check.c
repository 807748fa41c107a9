/* mtref check FILE|DIR...: one verdict per file, the worst status; a summary of
 * them all on request. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "cli.h"
#include "cpus.h"
#include "luarules.h"

static const char usage[] =
    "usage: mtref check [OPTIONS] FILE|DIR...  adjudicate records, one verdict per file\n"
    "A DIR stands for every .mtr file under it, in name order; - is stdin.\n"
    "options:\n"
    "  --json            one JSON object per file instead of a line; default: text\n"
    "  --rules NAME      load a house-rule file, by name or path (repeatable; after each\n"
    "                    record's own); default: the records' own rules\n"
    "  --require-complete  a legal record whose last match did not end (or that has\n"
    "                    none) fails, status 1; default: it passes as incomplete\n"
    "  --summary         after the failures, the figures of all the files: matches,\n"
    "                    wins and draws per player and seat, mean totals, rounds\n"
    "                    blocked, the longest round; default: one verdict per file\n"
    "  -q, --quiet       print only the files that fail; default: every file\n"
    "  -j, --jobs N      referee the files on N threads (1 to 256), the same verdicts\n"
    "                    in the same order; default: the CPUs available\n"
    "  -h, --help        this help\n"
    "  -V, --version     the version of mtref and of its Lua\n"
    "exit status: the worst of the files (0 legal, 1 illegal, 2 malformed or unreadable)\n"
    "See mtref(1), CHECK.\n";

enum { OPT_JSON, OPT_RULES, OPT_REQUIRE_COMPLETE, OPT_SUMMARY, OPT_QUIET, OPT_JOBS };
static const struct cli_option options[] = {
    [OPT_JSON] = {"--json", 0, false},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_REQUIRE_COMPLETE] = {"--require-complete", 0, false},
    [OPT_SUMMARY] = {"--summary", 0, false},
    [OPT_QUIET] = {"--quiet", 'q', false},
    [OPT_JOBS] = {"--jobs", 'j', true},
};

#define CHECK_MAX_JOBS 256

#define CHECK_MAX_DEPTH 64       /* directories within directories, against loops */

/* The files to check: operands, directories expanded. Paths are owned (malloc'd). */
struct file_list {
    char **paths;
    int n, size;
};

static bool list_add(struct file_list *l, const char *path)
{
    if (l->n == l->size) {
        int size = l->size ? 2 * l->size : 64;
        char **grown = mt_realloc(l->paths, (size_t)size * sizeof *grown);
        if (!grown) return false;
        l->paths = grown;
        l->size = size;
    }
    size_t len = strlen(path);
    char *copy = mt_malloc(len + 1);
    if (!copy) return false;
    memcpy(copy, path, len + 1);
    l->paths[l->n++] = copy;
    return true;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_record_name(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && strcmp(name + len - 4, ".mtr") == 0;
}

/* Every .mtr under dir, in name order; symbolic links to directories are not followed. */
static bool add_directory(struct file_list *l, const char *dir, int depth)
{
    DIR *dp = opendir(dir);
    if (!dp) return list_add(l, dir);          /* its check says why it cannot be read */
    struct file_list here = {0};
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(dp));) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = mt_malloc(len);
        if (!path) { ok = false; break; }
        snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && (S_ISDIR(st.st_mode) || is_record_name(e->d_name))) ok = list_add(&here, path);
        free(path);
    }
    closedir(dp);
    if (here.n) qsort(here.paths, (size_t)here.n, sizeof *here.paths, by_name);
    for (int i = 0; i < here.n; i++) {
        struct stat st;
        if (!ok) break;
        if (lstat(here.paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            ok = depth < CHECK_MAX_DEPTH ? add_directory(l, here.paths[i], depth + 1) : true;
        else
            ok = list_add(l, here.paths[i]);
    }
    for (int i = 0; i < here.n; i++) free(here.paths[i]);
    free(here.paths);
    return ok;
}

static bool add_operand(struct file_list *l, const char *operand)
{
    struct stat st;
    if (strcmp(operand, "-") != 0 && stat(operand, &st) == 0 && S_ISDIR(st.st_mode)) return add_directory(l, operand, 0);
    return list_add(l, operand);
}

/* One Lua bridge for the whole run, the one main made: a rule set is loaded once,
 * and the state its hooks keep carries from one file to the next (mtref-rules(5),
 * Rule sets are kept). */
static void check_file(const char *path, const struct rules_loader *loader, const char *const rules[], int nrules,
                       struct check_result *res, struct check_summary *summary)
{
    int fd, err = cli_open_input(path, &fd);
    if (err) {
        memset(res, 0, sizeof *res);
        res->status = 2;
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(err));
        return;
    }
    struct check_tags tags;
    check_read_tags(fd, &tags);
    if (summary) {
        summary->file = path;
        check_descriptor_summed(fd, loader, rules, nrules, res, summary);
    } else {
        check_descriptor(fd, loader, rules, nrules, res);
    }
    res->tags = tags;
    if (fd) close(fd);
}

/* What is printed of each verdict, in file order, and the worst status. */
struct report {
    enum output_mode mode;
    bool require_complete, want_summary, quiet;
    const struct file_list *files;
    struct check_summary *summary;      /* may be NULL */
    int status;
};

static bool report_file(void *ctx, int i, struct check_result *res)
{
    struct report *r = ctx;
    const char *path = r->files->paths[i];
    if (r->summary) check_summary_add_file(r->summary, res);
    bool incomplete = r->require_complete && res->status == 0 && !res->complete;
    if (incomplete) {
        res->status = 1;
        check_print_incomplete(stdout, r->mode, path, res);
    } else if (res->status != 0 || !(r->quiet || r->want_summary)) {
        check_print(stdout, r->mode, path, res);
    }
    if (res->status > r->status) r->status = res->status;
    return fflush(stdout) == 0 && !ferror(stdout);
}

static int open_file(void *ctx, int i, int *fd, bool *owned)
{
    const struct report *r = ctx;
    int err = cli_open_input(r->files->paths[i], fd);
    *owned = err == 0 && *fd != 0;
    return err;
}

/* The files on jobs threads, each thread with its own Lua bridge; false when that
 * could not be set up (then nothing was checked). */
static bool check_on_threads(struct report *r, const struct rules_loader *loader, const char *const rules[],
                             int nrules, int jobs)
{
    struct luarules **bridges = mt_malloc((size_t)jobs * sizeof *bridges);
    struct rules_loader *loaders = mt_malloc((size_t)jobs * sizeof *loaders);
    int n = 0;
    for (; bridges && loaders && n < jobs; n++) {
        bridges[n] = luarules_new();
        if (!bridges[n]) break;
        loaders[n] = luarules_loader(bridges[n]);
    }
    bool ran = false;
    if (n == jobs) {
        struct check_run run = {loader, rules, nrules, jobs, loaders, 0, open_file, report_file, r,
                                r->summary, (const char *const *)r->files->paths};
        ran = check_run_jobs(&run, r->files->n);
    }
    for (int i = 0; i < n; i++) luarules_free(bridges[i]);
    free(loaders);
    free(bridges);
    return ran;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    enum output_mode mode = OUTPUT_TEXT;
    const char *rules[RULES_MAX_FILES];
    int nrules = 0, operands = 0, jobs = 0;
    bool require_complete = false, want_summary = false, quiet = false, stdin_named = false;
    struct file_list files = {0};
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_check, options);
    const char *value;
    int opt, status = -1;
    while (status < 0 && (opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: break;
        case CLI_OPERAND:
            operands++;
            /* a second `-` would get whatever the first reader left, which depends on
             * where it stopped and on --jobs: refused, as nothing sensible to check */
            if (strcmp(value, "-") == 0 && stdin_named)
                status = cli_usage_error(&cli_check, "%s", "'-' (the standard input) is named twice");
            else if (!add_operand(&files, value))
                status = cli_usage_error(&cli_check, "out of memory listing %s", value);
            stdin_named |= strcmp(value, "-") == 0;
            break;
        case OPT_JSON: mode = OUTPUT_JSON; break;
        case OPT_REQUIRE_COMPLETE: require_complete = true; break;
        case OPT_SUMMARY: want_summary = true; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_JOBS: {
            long long n;
            if (!cli_parse_count(value, 1, CHECK_MAX_JOBS, &n))
                status = cli_usage_error(&cli_check, "--jobs: '%s' is not a whole number from 1 to %d", value,
                                         CHECK_MAX_JOBS);
            else jobs = (int)n;
            break;
        }
        case OPT_RULES:
            cli_rules_value(&cli_check, value, rules, &nrules, &status);
            break;
        }
    }
    if (status < 0 && files.n == 0 && operands > 0) {
        /* only directories without records: nothing to check is a failure */
        fputs("mtref: check: no .mtr file found\n", stderr);
        status = 2;
    }
    if (status < 0 && files.n == 0) status = cli_usage_error(&cli_check, "check needs at least one %s", "FILE or DIR");
    struct check_result *res = status < 0 ? mt_malloc(sizeof *res) : NULL;
    struct check_summary *summary = status < 0 && want_summary ? mt_malloc(sizeof *summary) : NULL;
    if (status < 0 && (!res || (want_summary && !summary))) {
        fputs("mtref: out of memory\n", stderr);
        status = 2;
    }
    if (jobs == 0) jobs = sys_cpus_available();
    if (status < 0) {
        struct report r = {mode, require_complete, want_summary, quiet, &files, summary, 0};
        if (summary) memset(summary, 0, sizeof *summary);
        bool done = jobs > 1 && check_on_threads(&r, &env->loader, rules, nrules, jobs);
        for (int i = 0; !done && i < files.n; i++) {
            check_file(files.paths[i], &env->loader, rules, nrules, res, summary);
            if (!report_file(&r, i, res)) break;
        }
        status = r.status;
        if (summary && !ferror(stdout)) check_summary_print(stdout, mode, summary);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "mtref: check: cannot write the verdicts: %s\n", strerror(errno ? errno : EIO));
            clearerr(stdout);          /* reported here, once */
            status = 2;
        }
    }
    free(summary);
    free(res);
    for (int i = 0; i < files.n; i++) free(files.paths[i]);
    free(files.paths);
    return status;
}

const struct subcommand cli_check = {"check", "adjudicate records (files or directories), one verdict per file", usage, run};
