/* The command line: options, subcommands, stdin and stdout, the exit status.
 * (Files are also written by selfplay --out and read by the Lua bridge.) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "luarules.h"
#include "output.h"
#include "referee.h"
#include "selfplay.h"
#include "stream.h"

#ifndef MTREF_VERSION
#define MTREF_VERSION "0.0.0"
#endif

static const char usage[] =
    "usage: mtref [OPTIONS] [FILE]          referee protocol lines from FILE or stdin\n"
    "       mtref check [OPTIONS] FILE...   adjudicate records, one verdict per file\n"
    "       mtref selfplay [OPTIONS]        play matches between built-in players\n"
    "       mtref rules NAME|PATH...        show what house-rule files change\n"
    "options:\n"
    "  --json            JSON lines instead of text\n"
    "  -k, --keep-going  reject a bad line and read on (default: stop at the first,\n"
    "                    except when typing at a terminal)\n"
    "  --rules NAME      load a house-rule file (repeatable; after the record's own)\n"
    "  -h, --help        this help;  --version  the version\n"
    "selfplay options:\n"
    "  --players N  --rounds R  --games G  --seed S  --bots random,greedy,...  --out DIR\n"
    "See mtref(1) and mtref-rules(5).\n";

struct options {
    enum output_mode mode;
    bool keep_going;
    const char *rules[REFEREE_MAX_RULE_FILES];
    int nrules;
    const char *files[4096];
    int nfiles;
    struct selfplay_options selfplay;
};

static int usage_error(const char *fmt, const char *arg)
{
    fputs("mtref: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(mtref --help lists the options)\n", stderr);
    return 2;
}

static bool parse_count(const char *s, long long min, long long max, long long *out)
{
    if (!*s) return false;
    long long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        int d = *p - '0';
        if (v > (max - d) / 10) return false;      /* before it could overflow */
        v = v * 10 + d;
    }
    if (v < min) return false;
    *out = v;
    return true;
}

/* Parses argv[first..]; returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, int first, bool selfplay, struct options *o)
{
    bool only_files = false;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->nfiles == (int)(sizeof o->files / sizeof o->files[0]))
                return usage_error("too many files (at most %s)", "4096");
            o->files[o->nfiles++] = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = true;
        } else if (strcmp(a, "--json") == 0) {
            o->mode = OUTPUT_JSON;
        } else if (strcmp(a, "-k") == 0 || strcmp(a, "--keep-going") == 0) {
            o->keep_going = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("mtref %s (Lua %s)\n", MTREF_VERSION, luarules_version());
            return 0;
        } else if (strcmp(a, "--rules") == 0 || strncmp(a, "--rules=", 8) == 0) {
            const char *value = a[7] == '=' ? a + 8 : next;
            if (!value) return usage_error("%s needs a file name", a);
            if (a[7] != '=') i++;
            if (o->nrules == REFEREE_MAX_RULE_FILES) return usage_error("too many %s files", "--rules");
            o->rules[o->nrules++] = value;
        } else if (selfplay && strcmp(a, "--players") == 0 && next && parse_count(next, 2, RULES_MAX_PLAYERS, &n)) {
            o->selfplay.players = (int)n; i++;
        } else if (selfplay && strcmp(a, "--rounds") == 0 && next && parse_count(next, 1, RULES_MAX_ROUNDS, &n)) {
            o->selfplay.rounds = (int)n; i++;
        } else if (selfplay && strcmp(a, "--games") == 0 && next && parse_count(next, 0, 1000000000, &n)) {
            o->selfplay.games = (long)n; i++;
        } else if (selfplay && strcmp(a, "--seed") == 0 && next && parse_count(next, 0, 999999999999999999LL, &n)) {
            o->selfplay.seed = (uint64_t)n; i++;
        } else if (selfplay && strcmp(a, "--bots") == 0 && next) {
            if (!selfplay_parse_bots(next, &o->selfplay)) return usage_error("--bots: unknown player in '%s' (random, greedy)", next);
            i++;
        } else if (selfplay && strcmp(a, "--out") == 0 && next) {
            o->selfplay.out_dir = next; i++;
        } else {
            return usage_error("bad option or value: '%s'", a);
        }
    }
    return -1;
}

static int open_input(const char *path, int *fd)
{
    if (strcmp(path, "-") == 0) { *fd = 0; return 0; }
    *fd = open(path, O_RDONLY);
    if (*fd < 0) return errno;
    struct stat st;
    if (fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(*fd);
        return EISDIR;
    }
    return 0;
}

/* mtref [FILE]: the interactive referee. */
static int run_referee(const struct options *o, const struct rules_loader *loader)
{
    if (o->nfiles > 1) return usage_error("give one FILE (or use mtref check %s)", "FILE...");
    const char *path = o->nfiles ? o->files[0] : "-";
    int fd, err = open_input(path, &fd);
    if (err) {
        fprintf(stderr, "mtref: %s: %s\n", path, strerror(err));
        return 2;
    }
    /* a person at a terminal wants to correct a mistake, not start over */
    bool keep_going = o->keep_going || (fd == 0 && isatty(0));
    struct stream_options so = {o->mode, keep_going, o->rules, o->nrules, path};
    int status = stream_run(fd, stdout, stderr, &so, loader);
    if (fd) close(fd);
    return status;
}

/* mtref check FILE...: one verdict per file; the worst status. Each file gets a
 * fresh Lua bridge: no state a hook keeps carries from one file to the next. */
static int run_check(const struct options *o)
{
    if (o->nfiles == 0) return usage_error("check needs at least one %s", "FILE");
    int worst = 0;
    struct check_result *res = mt_malloc(sizeof *res);
    if (!res) { fputs("mtref: out of memory\n", stderr); return 2; }
    for (int i = 0; i < o->nfiles; i++) {
        int fd, err = open_input(o->files[i], &fd);
        if (err) {
            memset(res, 0, sizeof *res);
            res->status = 2;
            snprintf(res->io_error, sizeof res->io_error, "%s", strerror(err));
        } else {
            struct luarules *lua = luarules_new();
            struct rules_loader loader = luarules_loader(lua);
            if (lua) check_descriptor(fd, &loader, o->rules, o->nrules, res);
            else snprintf(res->io_error, sizeof res->io_error, "out of memory"), res->status = 2;
            luarules_free(lua);
            if (fd) close(fd);
        }
        check_print(stdout, o->mode, o->files[i], res);
        fflush(stdout);
        if (res->status > worst) worst = res->status;
    }
    free(res);
    return worst;
}

static int run_selfplay(struct options *o, const struct rules_loader *loader)
{
    if (o->nfiles) return usage_error("selfplay takes no FILE: '%s'", o->files[0]);
    char err[RULES_MESSAGE_SIZE] = "";
    int status = selfplay_run(&o->selfplay, loader, o->rules, o->nrules, stdout, err);
    if (status != 0) fprintf(stderr, "mtref: selfplay: %s\n", err);
    return status;
}

int main(int argc, char **argv)
{
    struct options *o = calloc(1, sizeof *o);
    if (!o) return 2;
    selfplay_defaults(&o->selfplay);
    int first = 1;
    const char *sub = argc > 1 ? argv[1] : "";
    bool is_check = strcmp(sub, "check") == 0, is_selfplay = strcmp(sub, "selfplay") == 0;
    bool is_rules = strcmp(sub, "rules") == 0;
    if (is_check || is_selfplay || is_rules) first = 2;
    int status = parse_options(argc, argv, first, is_selfplay, o);
    if (status < 0) {
        struct luarules *lua = luarules_new();
        struct rules_loader loader = luarules_loader(lua);
        if (!lua) {
            fputs("mtref: out of memory\n", stderr);
            status = 2;
        } else if (is_check) status = run_check(o);
        else if (is_selfplay) status = run_selfplay(o, &loader);
        else if (is_rules) status = luarules_describe(lua, o->files, o->nfiles, stdout, stderr);
        else status = run_referee(o, &loader);
        luarules_free(lua);
    }
    free(o);
    return status;
}
