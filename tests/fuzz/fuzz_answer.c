/* Fuzz harness (d): a bot's output. The first bytes choose the form (text or JSON), the
 * line limit and the read sizes; the rest is fed to the line assembler in those
 * chunks, and every line it gives goes through the answer parser and, when it parses
 * as a move, the name resolution against a real game. Checks that the assembler never
 * holds more than its limit, never loses a byte of a short line, and that the parser
 * stays inside the line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "match_proto.h"
#include "line_asm.h"

struct seen {
    enum proto_form form;
    size_t max;
    size_t lines;
    struct game *g;
};

static void on_line(void *ctx, const char *line, size_t len, bool too_long)
{
    struct seen *s = ctx;
    if (len > s->max || (too_long && len != s->max)) abort();
    s->lines++;
    if (too_long) return;
    /* a copy of exactly len bytes: ASan catches any read past the line */
    char *copy = malloc(len ? len : 1);
    if (!copy) return;
    memcpy(copy, line, len);
    struct bot_answer a;
    proto_parse_answer(copy, len, s->form, &a);
    if (a.kind == ANSWER_MOVE) {
        struct move m;
        struct verdict v;
        if (proto_answer_move(s->g, &a, &m, &v)) {
            struct game copy_game = *s->g;
            game_move(&copy_game, &m, &v);
        }
    }
    if (a.kind == ANSWER_GARBLED && !memchr(a.why, '\0', sizeof a.why)) abort();
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rules rules;
    static struct game game;
    static bool ready;
    if (!ready) {
        struct verdict v;
        const char *names[] = {"ana", "bob", "cid"};
        rules_init_canonical(&rules);
        game_init(&game, &rules);
        game_set_players(&game, 3, names, &v);
        game_set_seed(&game, 42, &v);
        struct game snap;
        game_snapshot(&game, &snap);
        game = snap;
        ready = true;
    }
    if (size < 3) return 0;
    struct seen s = {data[0] & 1 ? PROTO_JSON : PROTO_TEXT, 16 + (size_t)data[1] * 16, 0, &game};
    unsigned chunk_seed = data[2];
    data += 3;
    size -= 3;
    struct line_asm a;
    if (!line_asm_init(&a, s.max)) return 0;
    size_t at = 0;
    while (at < size) {
        size_t n = 1 + (chunk_seed = chunk_seed * 1103515245u + 12345u) % 64;
        if (n > size - at) n = size - at;
        line_asm_feed(&a, (const char *)data + at, n, on_line, &s);
        at += n;
    }
    line_asm_free(&a);
    return 0;
}
