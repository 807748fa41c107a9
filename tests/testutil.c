/* Test support: protocol text through a real session. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "selfplay_run.h"

static struct luarules *bridge;
static struct response last;

struct referee *tu_session(const char *const rules[], int nrules)
{
    if (!bridge) bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    struct referee *ref = malloc(sizeof *ref);
    assert_non_null(ref);
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(ref, &loader, rules, nrules, err)) fail_msg("rules failed to load: %s", err);
    return ref;
}

void tu_free(struct referee *ref)
{
    if (!ref) return;
    referee_free(ref);
    free(ref);
}

/* Feeds lines, failing the test at the first rejected one (and at a round end when
 * the round must go on). */
static void feed_lines(struct referee *ref, const char *text, bool round_may_end)
{
    long number = 0;
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        referee_line(ref, text, len, false, ++number, &last);
        if (last.kind == RESPONSE_VERDICT && last.verdict.code != ERR_NONE)
            fail_msg("line %ld '%.*s' rejected: %s: %s", number, (int)len, text,
                     error_code_name(last.verdict.code), last.verdict.message);
        if (!round_may_end && last.verdict.round_ended)
            fail_msg("line %ld '%.*s' ended the round too early", number, (int)len, text);
        text += len + (end ? 1 : 0);
    }
}

void tu_feed(struct referee *ref, const char *text) { feed_lines(ref, text, true); }

enum error_code tu_line(struct referee *ref, const char *line)
{
    referee_line(ref, line, strlen(line), false, 1, &last);
    return last.verdict.code;
}

const struct verdict *tu_last(void) { return &last.verdict; }

int tu_run(const char *record, bool json, bool keep_going, const char *const rules[], int nrules, char **out)
{
    if (!bridge) bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    FILE *in = tmpfile();
    assert_non_null(in);
    fputs(record, in);
    fflush(in);
    rewind(in);
    size_t size = 0;
    FILE *mem = open_memstream(out, &size);
    assert_non_null(mem);
    struct stream_options o = {json ? OUTPUT_JSON : OUTPUT_TEXT, keep_going, rules, nrules, "test"};
    FILE *devnull = fopen("/dev/null", "w");
    int status = stream_run(fileno(in), mem, devnull, &o, &loader);
    fclose(devnull);
    fclose(mem);
    fclose(in);
    return status;
}

int tu_selfplay(const struct selfplay_options *o, const char *const files[], int nfiles, char **text, size_t *size,
                char *err)
{
    size_t ignored;
    *text = NULL;
    FILE *mem = open_memstream(text, size ? size : &ignored);
    assert_non_null(mem);
    struct luarules *lua = luarules_new();
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua);
    err[0] = '\0';
    int status = selfplay_run(o, &loader, files, nfiles, mem, err);
    fclose(mem);
    luarules_free(lua);
    return status;
}

char *tu_read_test_file(const char *relative, size_t *len)
{
    const char *dir = getenv("MTREF_TEST_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", relative);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) { free(buf); buf = NULL; break; }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

tileset tu_tiles(const char *list)
{
    tileset s = tileset_empty();
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, " ");
        tile_t t = tile_parse(p, n);
        if (t == TILE_NONE) fail_msg("bad tile '%.*s' in '%s'", (int)n, p, list);
        if (tileset_has(s, t)) fail_msg("tile '%.*s' twice in '%s'", (int)n, p, list);
        tileset_add(&s, t);
        p += n;
    }
    return s;
}

int64_t tu_pips(tileset s)
{
    int64_t sum = 0;
    for (tile_t t; (t = tileset_pop(&s)) != TILE_NONE;) sum += tile_low(t) + tile_high(t);
    return sum;
}

static int pip_count(unsigned mask)
{
    return __builtin_popcount(mask);
}

void tu_deal(struct referee *ref, const char *const fixed[], const unsigned avoid[], const char *keep,
             tileset out[])
{
    const struct game *g = &ref->game;
    int n = g->nplayers, in = 0;
    for (int s = 0; s < n; s++) in += !g->eliminated[s];
    int size = g->rules->hand_size[in];
    int engine = g->phase == PHASE_SETUP ? g->rules->max_pip : g->engine_pip;
    tileset used = keep ? tu_tiles(keep) : tileset_empty();
    tileset_add(&used, tile_double(engine));
    tileset hands[RULES_MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        hands[s] = tu_tiles(fixed[s]);
        if (!tileset_is_empty(tileset_and(used, hands[s])))
            fail_msg("tu_deal: %s's fixed tiles clash with another list", g->names[s]);
        used = tileset_or(used, hands[s]);
    }
    int order[RULES_MAX_PLAYERS];
    for (int s = 0; s < n; s++) order[s] = s;
    for (int i = 1; i < n; i++)          /* most avoided pips first; stable */
        for (int j = i; j > 0 && pip_count(avoid[order[j]]) > pip_count(avoid[order[j - 1]]); j--) {
            int swap = order[j]; order[j] = order[j - 1]; order[j - 1] = swap;
        }
    for (int i = 0; i < n; i++) {
        int s = order[i];
        if (g->eliminated[s]) continue;
        for (tile_t t = 0; t < TILE_COUNT && tileset_count(hands[s]) < size; t++) {
            if (!rules_has_tile(g->rules, t) || tileset_has(used, t) || (avoid[s] & (TU_PIP(tile_low(t)) | TU_PIP(tile_high(t))))) continue;
            tileset_add(&hands[s], t);
            tileset_add(&used, t);
        }
        if (tileset_count(hands[s]) != size)
            fail_msg("tu_deal: cannot make %s a hand of %d", g->names[s], size);
    }
    for (int s = 0; s < n; s++) {
        if (g->eliminated[s]) continue;
        char line[PROTOCOL_LINE_MAX];
        int len = snprintf(line, sizeof line, "deal %s", g->names[s]);
        tileset h = hands[s];
        for (tile_t t; (t = tileset_pop(&h)) != TILE_NONE;) {
            char text[TILE_TEXT_SIZE];
            tile_format(t, text);
            len += snprintf(line + len, sizeof line - (size_t)len, " %s", text);
        }
        tu_feed(ref, line);
        if (out) out[s] = hands[s];
    }
}

void tu_moves(struct referee *ref, const char *text) { feed_lines(ref, text, false); }

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tu_run_data_files(const char *group, const char *subdir, const char *suffix, bool strip_suffix, size_t min,
                      CMUnitTestFunction test)
{
    const char *dir = getenv("MTREF_TEST_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", subdir);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: cannot open %s (set MTREF_TEST_DIR)\n", group, path);
        return 1;
    }
    size_t slen = strlen(suffix);
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *ent; (ent = readdir(d));) {
        size_t len = strlen(ent->d_name);
        if (len <= slen || strcmp(ent->d_name + len - slen, suffix) != 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) return 1;
            names = bigger;
        }
        names[n] = strndup(ent->d_name, strip_suffix ? len - slen : len);
        if (!names[n]) return 1;
        n++;
    }
    closedir(d);
    if (n < min) {
        fprintf(stderr, "%s: only %zu %s files in %s, expected at least %zu\n", group, n, suffix, path, min);
        return 1;
    }
    qsort(names, n, sizeof *names, by_name);
    struct CMUnitTest *tests = calloc(n, sizeof *tests);
    if (!tests) return 1;
    for (size_t i = 0; i < n; i++) {
        tests[i].name = names[i];
        tests[i].test_func = test;
        tests[i].initial_state = names[i];
    }
    int failed = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    free(tests);
    return failed;
}

bool tu_same_verdict(const struct verdict *a, const struct verdict *b, int nplayers)
{
    if (a->code != b->code || a->drew != b->drew || a->round_ended != b->round_ended ||
        a->neliminated != b->neliminated || a->match_ended != b->match_ended || a->nwinners != b->nwinners)
        return false;
    if (a->code != ERR_NONE && strcmp(a->message, b->message) != 0) return false;
    if (a->round_ended &&
        (a->report.round != b->report.round || a->report.engine_pip != b->report.engine_pip ||
         a->report.out_seat != b->report.out_seat))
        return false;
    for (int s = 0; s < nplayers; s++) {
        if (a->round_ended && (a->report.in_round[s] != b->report.in_round[s] ||
                               a->report.points[s] != b->report.points[s]))
            return false;
        if (a->match_ended && a->winners[s] != b->winners[s]) return false;
    }
    for (int i = 0; i < a->neliminated; i++)
        if (a->eliminated[i] != b->eliminated[i]) return false;
    return true;
}

int tu_rule_files(const char *const names[], char paths[][4096], const char *files[])
{
    const char *dir = getenv("MTREF_TEST_DIR");
    int n = 0;
    for (; n < 3 && names[n]; n++) {
        if (strchr(names[n], '/')) {
            snprintf(paths[n], sizeof paths[n], "%s/../rules/%s.lua", dir ? dir : ".", names[n]);
            files[n] = paths[n];
        } else {
            files[n] = names[n];
        }
    }
    return n;
}

const struct rules *tu_load_rules(const struct rules_loader *loader, const char *const files[], int n,
                                  const struct rules *canonical, void **handle)
{
    *handle = NULL;
    if (n == 0) return canonical;
    const struct rules *rules = canonical;
    char err[RULES_MESSAGE_SIZE] = "";
    *handle = loader->load(loader->ctx, files, n, &rules, err);
    if (!*handle) fail_msg("%s: %s", files[0], err);
    return rules;
}

void tu_seat_players(struct game *g, const struct rules *rules, int players)
{
    char names[RULES_MAX_PLAYERS][8];
    const char *list[RULES_MAX_PLAYERS];
    for (int s = 0; s < players; s++) {
        snprintf(names[s], sizeof names[s], "p%d", s + 1);
        list[s] = names[s];
    }
    struct verdict v;
    game_init(g, rules);
    game_set_players(g, players, list, &v);
    assert_int_equal(v.code, ERR_NONE);
}

int tu_dealt_tiles(const struct game *g, int s, tile_t tiles[TILE_COUNT])
{
    tileset hand = g->hands[s];
    if (g->engine_from == s) tileset_add(&hand, tile_double(g->engine_pip));
    int n = 0;
    for (tile_t tile; (tile = tileset_pop(&hand)) != TILE_NONE;) tiles[n++] = tile;
    return n;
}
