/* A built-in player speaking the bot protocol: state from the messages, choice among
 * the legal lines, one answer per `go`. */
#include "match_bot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "match_proto.h"
#include "line_asm.h"
#include "protocol.h"

struct bot_state {
    enum bot_kind kind;
    uint64_t rng;
    const struct rules_loader *loader;
    struct rules canonical;
    const struct rules *rules;
    void *rules_handle;
    struct game game;                   /* the seat's knowledge: names, own hand, own marker */
    int seat;
    struct move legal[GAME_MAX_LEGAL];
    char legal_text[GAME_MAX_LEGAL][64];
    int nlegal;
    FILE *out;
    bool done;
    int status;
};

static bool word_is(const char *line, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && memcmp(line, word, n) == 0 && (len == n || line[n] == ' ');
}

static void set_players(struct bot_state *b, const char *line, size_t len)
{
    char copy[4200];
    if (len >= sizeof copy) return;
    memcpy(copy, line, len);
    copy[len] = '\0';
    const char *names[RULES_MAX_PLAYERS];
    int n = 0;
    for (char *save, *t = strtok_r(copy + 7, " ", &save); t && n < RULES_MAX_PLAYERS; t = strtok_r(NULL, " ", &save))
        names[n++] = t;
    game_init(&b->game, b->rules);
    b->game.nplayers = n;                    /* set directly: the table is the referee's */
    for (int i = 0; i < n; i++) snprintf(b->game.names[i], sizeof b->game.names[i], "%s", names[i]);
}

static void set_rules(struct bot_state *b, const char *line, size_t len)
{
    char copy[4200];
    if (len >= sizeof copy || !b->loader || !b->loader->load) return;
    memcpy(copy, line, len);
    copy[len] = '\0';
    const char *files[RULES_MAX_FILES];
    int n = 0;
    for (char *save, *t = strtok_r(copy + 5, " ", &save); t && n < RULES_MAX_FILES; t = strtok_r(NULL, " ", &save))
        files[n++] = t;
    if (n == 0) return;
    char err[RULES_MESSAGE_SIZE];
    const struct rules *rules = NULL;
    void *handle = b->loader->load(b->loader->ctx, files, n, &rules, err);
    if (!handle) return;                     /* canonical values: a weaker bot, still legal */
    if (b->rules_handle && b->loader->release) b->loader->release(b->loader->ctx, b->rules_handle);
    b->rules_handle = handle;
    b->rules = rules;
    b->game.rules = rules;
}

static void read_hand(struct bot_state *b, const char *line, size_t len)
{
    tileset hand = tileset_empty();
    size_t i = 4;
    while (i < len) {
        while (i < len && line[i] == ' ') i++;
        size_t start = i;
        while (i < len && line[i] != ' ') i++;
        tile_t t = tile_parse(line + start, i - start);
        if (t != TILE_NONE) tileset_add(&hand, t);
    }
    if (b->seat >= 0) b->game.hands[b->seat] = hand;
}

/* "train NAME OPEN marked|unmarked ...": only the seat's own marker matters to greedy. */
static void read_train(struct bot_state *b, const char *line, size_t len)
{
    if (b->seat < 0) return;
    const char *name = b->game.names[b->seat];
    size_t n = strlen(name);
    if (len > 6 + n && memcmp(line + 6, name, n) == 0 && line[6 + n] == ' ') {
        const char *rest = line + 6 + n + 1;
        const char *sp = memchr(rest, ' ', len - (size_t)(rest - line));
        b->game.trains[b->seat].marker = sp && (size_t)(line + len - sp) >= 7 && memcmp(sp + 1, "marked", 6) == 0;
    }
}

static void read_legal(struct bot_state *b, const char *line, size_t len)
{
    if (b->nlegal == GAME_MAX_LEGAL || len - 6 >= sizeof b->legal_text[0]) return;
    struct bot_answer a;
    proto_parse_answer(line + 6, len - 6, PROTO_TEXT, &a);
    struct verdict v;
    struct move m;
    if (a.kind != ANSWER_MOVE || !proto_answer_move(&b->game, &a, &m, &v)) return;
    memcpy(b->legal_text[b->nlegal], line + 6, len - 6);
    b->legal_text[b->nlegal][len - 6] = '\0';
    b->legal[b->nlegal++] = m;
}

static void answer(struct bot_state *b, const char *line, size_t len)
{
    long id = 0;
    for (size_t i = 3; i < len && line[i] >= '0' && line[i] <= '9'; i++) id = id * 10 + (line[i] - '0');
    if (b->nlegal == 0) {
        fprintf(b->out, "%ld pass\n", id);
    } else {
        b->game.turn = b->seat;
        struct move m = bot_choose_among(b->kind, &b->game, b->legal, b->nlegal, &b->rng);
        int pick = 0;
        for (int i = 0; i < b->nlegal; i++)
            if (b->legal[i].kind == m.kind && b->legal[i].tile == m.tile && b->legal[i].train == m.train) {
                pick = i;
                break;
            }
        fprintf(b->out, "%ld %s\n", id, b->legal_text[pick]);
    }
    fflush(b->out);
    b->nlegal = 0;
}

static void on_line(void *ctx, const char *line, size_t len, bool too_long)
{
    struct bot_state *b = ctx;
    if (too_long || b->done) return;
    if (word_is(line, len, "hello")) {
        fprintf(b->out, "hello %d mtref-%s\n", MATCH_PROTO_VERSION, bot_name(b->kind));
        fflush(b->out);
    } else if (word_is(line, len, "players")) {
        set_players(b, line, len);
        b->seat = -1;
    } else if (word_is(line, len, "seat")) {
        b->seat = len > 5 ? game_find_player(&b->game, line + 5, (int)(len - 5)) : -1;
    } else if (word_is(line, len, "rules")) {
        set_rules(b, line, len);
    } else if (word_is(line, len, "hand")) {
        read_hand(b, line, len);
    } else if (word_is(line, len, "train")) {
        read_train(b, line, len);
    } else if (word_is(line, len, "view")) {
        b->nlegal = 0;
    } else if (word_is(line, len, "legal")) {
        read_legal(b, line, len);
    } else if (word_is(line, len, "go")) {
        answer(b, line, len);
    } else if (word_is(line, len, "bye")) {
        b->done = true;
    }
}

int match_bot_run(enum bot_kind kind, int in_fd, FILE *out, const struct rules_loader *loader, uint64_t seed)
{
    struct bot_state *b = mt_malloc(sizeof *b);
    struct line_asm lines;
    if (!b || !line_asm_init(&lines, 1 << 16)) {
        free(b);
        return 2;
    }
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->rng = seed;
    b->loader = loader;
    rules_init_canonical(&b->canonical);
    b->rules = &b->canonical;
    game_init(&b->game, b->rules);
    b->seat = -1;
    b->out = out;
    char buf[65536];
    while (!b->done) {
        ssize_t n = read(in_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        line_asm_feed(&lines, buf, (size_t)n, on_line, b);
    }
    if (b->rules_handle && loader->release) loader->release(loader->ctx, b->rules_handle);
    line_asm_free(&lines);
    free(b);
    return 0;
}
