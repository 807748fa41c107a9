/* Self-play: matches between built-in players, written as stand-alone records. */
#include "selfplay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "rng.h"
#include "view.h"

void selfplay_defaults(struct selfplay_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 4;
    o->games = 1;
    o->seed = 1;
    o->bots[0] = BOT_GREEDY;
    o->nbots = 1;
    o->jobs = 1;
    o->max_rounds = SELFPLAY_MAX_ROUNDS;
}

bool selfplay_parse_bots(const char *list, struct selfplay_options *o)
{
    int n = 0;
    while (*list) {
        int len = (int)strcspn(list, ",");
        int kind = bot_parse(list, len);
        if (kind < 0 || n == RULES_MAX_PLAYERS) return false;
        o->bots[n++] = (enum bot_kind)kind;
        list += len;
        if (*list == ',') list++;
    }
    if (n == 0) return false;
    o->nbots = n;
    return true;
}

/* Record text is built in a buffer and handed to the sink in large chunks, or built in
 * place in the caller's buffer (selfplay_buffer). */
struct text {
    char *data;                                /* own, or the sink's area */
    size_t len, cap;                           /* bytes written at data, and its size */
    char own[1 << 16];
    const struct selfplay_sink *sink;
    const struct selfplay_buffer *buffer;      /* instead of sink, when not NULL */
    bool (*failed)(void *ctx);                 /* NULL, or true once a write to sink failed */
    int write_error;                           /* errno of a failed write, or 0 */
    /* The pieces of move and deal lines, made once per match and copied whole (a
     * fixed size is a few stores, not a call), each cut to its length: */
    char tiles[TILE_COUNT][8];                 /* " A-B" */
    unsigned char tile_len[TILE_COUNT];
    char verbs[3][RULES_MAX_PLAYERS][32];      /* "NAME play", "NAME draw", "NAME pass\n" */
    unsigned char verb_len[3][RULES_MAX_PLAYERS];
    char trains[TRAIN_COUNT][32];              /* " NAME\n", " mex\n" */
    unsigned char train_len[TRAIN_COUNT];
};

/* Room a move line may write past the buffer's end: the whole of each piece. */
#define MOVE_ROOM (32 + 8 + 32)

static void text_tables(struct text *t, const struct game *g)
{
    for (int a = 0; a <= TILE_MAX_PIP; a++)
        for (int b = a; b <= TILE_MAX_PIP; b++) {
            tile_t tile = tile_from_pips(a, b);
            char *p = t->tiles[tile];
            memset(p, 0, 8);
            *p++ = ' ';
            if (a >= 10) *p++ = '1';
            *p++ = (char)('0' + a % 10);
            *p++ = '-';
            if (b >= 10) *p++ = '1';
            *p++ = (char)('0' + b % 10);
            t->tile_len[tile] = (unsigned char)(p - t->tiles[tile]);
        }
    static const char *const verb[3] = {" play", " draw", " pass\n"};
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < g->nplayers; s++) {
            size_t n = strlen(g->names[s]), v = strlen(verb[k]);
            memset(t->verbs[k][s], 0, 32);
            memcpy(t->verbs[k][s], g->names[s], n);
            memcpy(t->verbs[k][s] + n, verb[k], v);
            t->verb_len[k][s] = (unsigned char)(n + v);
        }
    for (int train = 0; train < TRAIN_COUNT; train++) {
        const char *name = train == TRAIN_MEX ? "mex" : train < g->nplayers ? g->names[train] : "";
        size_t n = strlen(name);
        memset(t->trains[train], 0, 32);
        t->trains[train][0] = ' ';
        memcpy(t->trains[train] + 1, name, n);
        t->trains[train][n + 1] = '\n';
        t->train_len[train] = (unsigned char)(n + 2);
    }
}

/* Hands the text written so far to the sink or the buffer and makes room for `room`
 * more bytes (at most sizeof t->own); room 0 ends the record. After a failure the text goes on
 * into its own buffer, and is dropped. */
static void text_flush(struct text *t, size_t room)
{
    if (t->buffer && !t->write_error) {
        t->data = t->buffer->reserve(t->buffer->ctx, t->len, room, &t->cap);
        t->len = 0;
        if (t->data) return;
        t->write_error = ENOMEM;
    } else if (t->len && !t->write_error) {
        t->sink->write(t->sink->ctx, t->data, t->len);
        if (t->failed && t->failed(t->sink->ctx)) t->write_error = errno ? errno : EIO;
    }
    t->data = t->own;
    t->cap = sizeof t->own;
    t->len = 0;
}

static void text_put(struct text *t, const char *s, size_t n)
{
    if (t->len + n > t->cap) text_flush(t, n);
    memcpy(t->data + t->len, s, n);
    t->len += n;
}

static void text_str(struct text *t, const char *s) { text_put(t, s, strlen(s)); }

static void text_int(struct text *t, long v)
{
    char digits[VIEW_DECIMAL_SIZE];
    text_put(t, digits, view_decimal(v, digits));
}

/* Spreads match numbers over the seed's bits: an odd constant with well-mixed bits,
 * so that seed ^ STRIDE * (index + 1) differs in many bits from match to match before
 * SplitMix64 mixes it. Frozen: it decides every self-played record. */
#define MATCH_STRIDE 0xD1B54A32D192ED03ULL

/* The match number index of a seed: its own stream for deals and one per bot. */
static uint64_t match_seed(uint64_t seed, long index)
{
    uint64_t s = seed ^ (MATCH_STRIDE * (uint64_t)(index + 1));
    return rng_next(&s);
}

static void write_rules(struct text *t, const char *const rules_files[], int nrules)
{
    for (int i = 0; i < nrules; i++) {
        text_str(t, "rules ");
        text_str(t, rules_files[i]);
        text_put(t, "\n", 1);
    }
}

static void write_deals(struct text *t, const struct game *g)
{
    text_str(t, "round ");
    text_int(t, g->round);
    text_put(t, "\n", 1);
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        /* written in place: room for the longest deal line first */
        size_t room = 5 + GAME_NAME_MAX_LEN + TILE_COUNT * 8 + 1;
        if (t->len + room > t->cap) text_flush(t, room);
        char *p = t->data + t->len;
        memcpy(p, "deal ", 5);
        p += 5;
        size_t n = strlen(g->names[s]);
        memcpy(p, g->names[s], n);
        p += n;
        tileset hand = g->hands[s];
        /* an engine laid from a hand was dealt to it (lay_engine) */
        if (g->engine_from == s) tileset_add(&hand, tile_double(g->engine_pip));
        for (tile_t tile; (tile = tileset_pop(&hand)) != TILE_NONE;) {
            memcpy(p, t->tiles[tile], 8);
            p += t->tile_len[tile];
        }
        *p++ = '\n';
        t->len = (size_t)(p - t->data);
    }
}

/* One move line, written straight into the buffer: the line of nearly every call.
 * False when the flush it needed failed. */
static inline bool write_move(struct text *t, const struct move *m, tile_t drew)
{
    if (t->len + MOVE_ROOM > t->cap) {
        text_flush(t, MOVE_ROOM);
        if (t->write_error) return false;
    }
    char *p = t->data + t->len;
    int kind = m->kind;
    memcpy(p, t->verbs[kind][m->seat], 32);
    p += t->verb_len[kind][m->seat];
    if (kind != MOVE_PASS) {
        tile_t tile = kind == MOVE_PLAY ? m->tile : drew;
        memcpy(p, t->tiles[tile], 8);
        p += t->tile_len[tile];
        if (kind == MOVE_PLAY) {
            memcpy(p, t->trains[m->train], 32);
            p += t->train_len[m->train];
        } else {
            *p++ = '\n';
        }
    }
    t->len = (size_t)(p - t->data);
    return true;
}

/* --tags: the record convention's tags (mtref(1), RECORDS) after the first comment. */
static void write_tags(struct text *t, const struct selfplay_options *o, long index)
{
    text_str(t, "# [Event \"mtref selfplay --seed ");
    text_int(t, (long)(o->seed & 0x7fffffffffffffffULL));
    text_str(t, "\"]\n# [Site \"?\"]\n# [Date \"");
    text_str(t, o->date);
    text_str(t, "\"]\n# [Round \"");
    text_int(t, index + 1);
    text_str(t, "\"]\n");
    for (int s = 0; s < o->players; s++) {
        text_str(t, "# [Player \"p");
        text_int(t, s + 1);
        text_str(t, "\" \"mtref ");
        text_str(t, o->bots[s % o->nbots] == BOT_GREEDY ? "greedy" : "random");
        text_str(t, "\"]\n");
    }
}

/* --tags: the Result tag, after the match's last line. */
static void write_result(struct text *t, const struct game *g, const struct verdict *v)
{
    text_str(t, "# [Result \"");
    bool first = true;
    for (int s = 0; s < g->nplayers; s++)
        if (v->winners[s]) {
            text_str(t, first ? "" : " and ");
            text_str(t, g->names[s]);
            first = false;
        }
    text_str(t, v->nwinners > 1 ? " draw:" : " wins:");
    for (int s = 0; s < g->nplayers; s++) {
        text_str(t, s ? ", " : " ");
        text_str(t, g->names[s]);
        text_put(t, " ", 1);
        text_int(t, (long)g->totals[s]);
    }
    text_str(t, "\"]\n");
}

/* selfplay_match, stopping at the first write that failed (failed may be NULL). */
static int play_match(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                      int nrules, long index, const struct selfplay_sink *sink, const struct selfplay_buffer *buffer,
                      bool (*failed)(void *ctx), char *err)
{
    struct text *t = mt_malloc(sizeof *t);
    struct game *g = mt_malloc(sizeof *g);
    int status = 0;
    if (!t || !g) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        status = 2;
        goto done;
    }
    t->sink = sink;
    t->buffer = buffer;
    t->failed = failed;
    t->write_error = 0;
    t->data = t->own;
    t->cap = sizeof t->own;
    t->len = 0;
    if (buffer) text_flush(t, MOVE_ROOM);            /* into the caller's buffer from the start */
    struct verdict v;
    char names[RULES_MAX_PLAYERS][8];
    const char *name_list[RULES_MAX_PLAYERS];
    for (int s = 0; s < o->players; s++) {
        snprintf(names[s], sizeof names[s], "p%d", s + 1);
        name_list[s] = names[s];
    }
    game_init(g, rules);
    game_set_players(g, o->players, name_list, &v);
    if (v.code == ERR_NONE && o->rounds) game_set_rounds(g, o->rounds, &v);
    if (v.code != ERR_NONE) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s", v.message);
        status = 2;
        goto done;
    }
    uint64_t stream = match_seed(o->seed, index);
    game_set_seed(g, rng_next(&stream), &v);
    uint64_t bot_rng[RULES_MAX_PLAYERS];
    for (int s = 0; s < o->players; s++) bot_rng[s] = rng_next(&stream);

    text_str(t, "# mtref selfplay --seed ");
    text_int(t, (long)(o->seed & 0x7fffffffffffffffULL));
    text_str(t, ", match ");
    text_int(t, index + 1);
    text_put(t, "\n", 1);
    if (o->date) write_tags(t, o, index);
    /* Every record names its rules first: they may allow the table size
     * (ten-players), and a `rules` line also opens the next match of a stream. */
    write_rules(t, rules_files, nrules);
    text_str(t, "players");
    for (int s = 0; s < o->players; s++) {
        text_put(t, " ", 1);
        text_str(t, names[s]);
    }
    text_put(t, "\n", 1);
    text_str(t, "rounds ");
    text_int(t, g->rounds);
    text_put(t, "\n", 1);
    text_tables(t, g);
    bool masks = bot_greedy_knows(rules);      /* and the round in play: dealt just above */
    enum bot_kind seat_bot[RULES_MAX_PLAYERS];
    for (int s = 0, b = 0; s < o->players; s++, b = b + 1 == o->nbots ? 0 : b + 1) seat_bot[s] = o->bots[b];
    while (!game_is_over(g)) {
        if (game_needs_deal(g)) {       /* a round begins: the only time g->round moves on */
            if (g->round > o->max_rounds) {
                /* elimination rules where nobody is ever eliminated would play for ever */
                snprintf(err, RULES_MESSAGE_SIZE,
                         "the match has not ended after %d rounds: do these rules ever end it?", o->max_rounds);
                status = 2;
                break;
            }
            if (!game_deal_seeded(g)) {
                snprintf(err, RULES_MESSAGE_SIZE, "a rules hook failed while dealing round %d", g->round);
                status = 2;
                break;
            }
            write_deals(t, g);
        }
        int seat = g->turn;
        /* greedy's own stream never changes its choice (bots.h): not kept */
        struct move m = seat_bot[seat] == BOT_GREEDY && masks && !g->hunting
                            ? bot_greedy(g)
                            : bot_choose(seat_bot[seat], g, &bot_rng[seat]);
        /* every bot chooses among the legal moves: only a hook's question checks one again */
        if (o->check_moves) game_move(g, &m, &v);
        else game_apply_known(g, &m, &v);
        if (v.code != ERR_NONE) {
            snprintf(err, RULES_MESSAGE_SIZE, "%s: %s", error_code_name(v.code), v.message);
            status = 2;
            break;
        }
        if (!write_move(t, &m, v.drew)) break;
    }
    if (o->date && status == 0) write_result(t, g, &v);
    text_flush(t, 0);
    if (t->write_error && status == 0) {
        snprintf(err, RULES_MESSAGE_SIZE, "cannot write the record: %s", strerror(t->write_error));
        status = 2;
    }
done:
    free(g);
    free(t);
    return status;
}

int selfplay_match(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                   int nrules, long index, const struct selfplay_sink *sink, char *err)
{
    return play_match(o, rules, rules_files, nrules, index, sink, NULL, NULL, err);
}

int selfplay_match_in_place(const struct selfplay_options *o, const struct rules *rules,
                            const char *const rules_files[], int nrules, long index,
                            const struct selfplay_buffer *buffer, char *err)
{
    return play_match(o, rules, rules_files, nrules, index, NULL, buffer, NULL, err);
}

static void write_to_file(void *ctx, const char *data, size_t len) { fwrite(data, 1, len, (FILE *)ctx); }
static bool file_failed(void *ctx) { return ferror((FILE *)ctx) != 0; }

#define SELFPLAY_PATH_SIZE 4096

/* A match's file, DIR/match-NNNNNN.mtr, is written under a temporary name beside it
 * and renamed once complete: a failed write or an interrupted run never leaves a
 * record that check would take for a shorter, incomplete one. */
struct match_file {
    char path[SELFPLAY_PATH_SIZE], temp[SELFPLAY_PATH_SIZE];
    FILE *dest;
};

static int match_file_open(const struct selfplay_options *o, long index, struct match_file *f, char *err)
{
    int len = snprintf(f->path, sizeof f->path, "%s/match-%06ld.mtr", o->out_dir, index + 1);
    int tlen = snprintf(f->temp, sizeof f->temp, "%s/.match-%06ld.mtr.%ld.tmp", o->out_dir, index + 1,
                        (long)getpid());
    if (len < 0 || tlen < 0 || (size_t)tlen >= sizeof f->temp) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: the directory's name is too long", o->out_dir);
        return 2;
    }
    f->dest = fopen(f->temp, "w");
    if (!f->dest) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s: %s", f->path, strerror(errno));
        return 2;
    }
    return 0;
}

/* Closes the file; renames it into place when status is 0 and every write worked. */
static int match_file_close(struct match_file *f, int status, char *err)
{
    errno = 0;
    bool written = fflush(f->dest) == 0 && !ferror(f->dest);
    int why = errno;
    if (fclose(f->dest) != 0 && written) written = false, why = errno;
    if (status == 0 && !written) {
        snprintf(err, RULES_MESSAGE_SIZE, "cannot write %s: %s", f->path, strerror(why ? why : EIO));
        status = 2;
    }
    if (status == 0 && rename(f->temp, f->path) != 0) {
        snprintf(err, RULES_MESSAGE_SIZE, "cannot write %s: %s", f->path, strerror(errno));
        status = 2;
    }
    if (status != 0) unlink(f->temp);
    return status;
}

int selfplay_match_file(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                        int nrules, long index, char *err)
{
    struct match_file f;
    int status = match_file_open(o, index, &f, err);
    if (status != 0) return status;
    struct selfplay_sink sink = {write_to_file, f.dest};
    status = play_match(o, rules, rules_files, nrules, index, &sink, NULL, file_failed, err);
    return match_file_close(&f, status, err);
}

int selfplay_save_match(const struct selfplay_options *o, long index, const char *data, size_t len, char *err)
{
    struct match_file f;
    int status = match_file_open(o, index, &f, err);
    if (status != 0) return status;
    errno = 0;
    if ((len && fwrite(data, 1, len, f.dest) != len) || fflush(f.dest) != 0 || ferror(f.dest)) {
        /* as a match written as it is played says it */
        snprintf(err, RULES_MESSAGE_SIZE, "cannot write the record: %s", strerror(errno ? errno : EIO));
        status = 2;
    }
    return match_file_close(&f, status, err);
}

int selfplay_stream_match(const struct selfplay_options *o, const struct rules *rules,
                          const char *const rules_files[], int nrules, long index, FILE *out, char *err)
{
    struct selfplay_sink sink = {write_to_file, out};
    return play_match(o, rules, rules_files, nrules, index, &sink, NULL, file_failed, err);
}
