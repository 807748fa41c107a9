/* The referee at the table: the session read a line at a time, from the keyboard
 * (banner, prompt, line editing and history through libedit when built with it,
 * help, quit, undo, save FILE) or from any input when --record or -q asks for more
 * than the plain stream. Keyboard commands are words no record holds: from a file or
 * a pipe they are protocol lines like any other (and refused as such). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef MTREF_LIBEDIT
#include <editline/readline.h>
#endif

#include "alloc.h"
#include "cli.h"
#include "cli_screen.h"
#include "cli_table.h"
#include "reader.h"

/* The accepted lines so far: what save and --record write. */
struct kept {
    char **lines;
    bool *starts_match;       /* a players line that began a match: --rules follow it */
    char **results;           /* the Result tag after a line that ended a match, or NULL */
    int n, size;
};

struct table {
    const struct table_options *o;
    const struct rules_loader *loader;
    struct referee *ref;
    struct response *resp;
    struct screen screen;
    struct kept kept;
    FILE *record;
    long line_number;
    int status;
    bool ended_round;                 /* the last accepted line ended a round */
    struct game before;               /* the game before the last accepted move */
    struct game after;                /* ... and after it */
    struct move last_move;
    struct verdict last_verdict;
};

static const char keyboard_help[] =
    "At the keyboard, besides the protocol lines (see mtref(1)):\n"
    "  help        this help, and what the player to act may do now\n"
    "  undo        take back the last accepted line\n"
    "  save FILE   write the accepted lines so far as a record (mtref check FILE reads it)\n"
    "  quit        leave (so does Ctrl-D)\n"
    "Protocol lines: players NAME..., rounds N, seed N, deal NAME TILE..., NAME play A-B TRAIN,\n"
    "NAME draw [A-B], NAME pass, show, legal. Keywords are lower case.\n";

static bool kept_add(struct kept *k, const char *text, size_t len, bool starts_match)
{
    if (k->n == k->size) {
        int size = k->size ? 2 * k->size : 256;
        char **lines = mt_realloc(k->lines, (size_t)size * sizeof *lines);
        if (!lines) return false;
        k->lines = lines;
        bool *starts = mt_realloc(k->starts_match, (size_t)size * sizeof *starts);
        if (!starts) return false;
        k->starts_match = starts;
        char **results = mt_realloc(k->results, (size_t)size * sizeof *results);
        if (!results) return false;
        k->results = results;
        k->size = size;
    }
    char *copy = mt_malloc(len + 1);
    if (!copy) return false;
    memcpy(copy, text, len);
    copy[len] = '\0';
    k->lines[k->n] = copy;
    k->starts_match[k->n] = starts_match;
    k->results[k->n] = NULL;
    k->n++;
    return true;
}

static void kept_free(struct kept *k)
{
    for (int i = 0; i < k->n; i++) {
        free(k->lines[i]);
        free(k->results[i]);
    }
    free(k->lines);
    free(k->starts_match);
    free(k->results);
}

/* The record convention's tags (mtref(1), RECORDS): PGN's seven in spirit. */
static void write_tags(FILE *f, const char *event, const struct game *g)
{
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm)) strftime(date, sizeof date, "%Y.%m.%d", &tm);
    fprintf(f, "# mtref %s, %s\n", MTREF_VERSION, event);
    fprintf(f, "# [Event \"?\"]\n# [Site \"?\"]\n# [Date \"%s\"]\n# [Round \"?\"]\n", date);
    for (int s = 0; g && s < g->nplayers; s++) fprintf(f, "# [Player \"%s\" \"?\"]\n", g->names[s]);
}

/* The Result tag of a match that just ended: "ana wins: ana 40, bob 61". */
static char *result_tag(const struct game *g, const struct verdict *v)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    fputs("# [Result \"", f);
    for (int s = 0, first = 1; s < g->nplayers; s++)
        if (v->winners[s]) fprintf(f, "%s%s", first ? "" : " and ", g->names[s]), first = 0;
    fputs(v->nwinners > 1 ? " draw:" : " wins:", f);
    for (int s = 0; s < g->nplayers; s++) fprintf(f, "%s %s %lld", s ? "," : "", g->names[s], (long long)g->totals[s]);
    fputs("\"]", f);
    fclose(f);
    return text;
}

static void write_rules_lines(FILE *f, const struct table_options *o)
{
    for (int i = 0; i < o->nrules; i++) fprintf(f, "rules %s\n", o->rules_files[i]);
}

static void write_line(FILE *f, const struct table *t, int i)
{
    /* the first match names its rules first (they may allow its table size, as
     * ten-players does); a later one right after the players line that starts it */
    if (i == 0) write_rules_lines(f, t->o);
    fprintf(f, "%s\n", t->kept.lines[i]);
    if (i > 0 && t->kept.starts_match[i]) write_rules_lines(f, t->o);
    if (t->kept.results[i]) fprintf(f, "%s\n", t->kept.results[i]);
}

/* The whole record: tags, then every accepted line, the --rules as rules lines. */
static int write_record(const struct table *t, const char *path, const char *event, char *why, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, size, "%s", strerror(errno));
        return -1;
    }
    /* the players of the first match, as its players line seated them */
    struct game *first = NULL;
    if (t->kept.n && t->kept.starts_match[0]) {
        first = mt_malloc(sizeof *first);
        struct rules canonical;
        rules_init_canonical(&canonical);
        struct command *cmd = mt_malloc(sizeof *cmd);
        char ignored[200];
        if (first && cmd && protocol_parse(t->kept.lines[0], strlen(t->kept.lines[0]), cmd, ignored, sizeof ignored)) {
            game_init(first, &canonical);
            first->nplayers = cmd->count ? cmd->count : (int)cmd->number;
            for (int s = 0; s < first->nplayers && s < RULES_MAX_PLAYERS; s++)
                if (cmd->count) snprintf(first->names[s], sizeof first->names[s], "%.*s", cmd->items[s].len, cmd->items[s].text);
                else snprintf(first->names[s], sizeof first->names[s], "p%d", s + 1);
        } else {
            free(first);
            first = NULL;
        }
        free(cmd);
    }
    write_tags(f, event, first);
    free(first);
    for (int i = 0; i < t->kept.n; i++) write_line(f, t, i);
    if (t->kept.n == 0) write_rules_lines(f, t->o);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        snprintf(why, size, "cannot write it");
        return -1;
    }
    return 0;
}

static bool session_start(struct table *t)
{
    char err[RULES_MESSAGE_SIZE] = "";
    if (referee_init(t->ref, t->loader, t->o->rules_files, t->o->nrules, err)) return true;
    if (t->o->mode == OUTPUT_JSON) {
        t->resp->kind = RESPONSE_VERDICT;
        t->resp->line = 0;
        verdict_fail(&t->resp->verdict, ERR_RULES, 0, "%s", err);
        output_response(stdout, OUTPUT_JSON, &t->ref->game, t->resp);
    } else {
        fprintf(stderr, "mtref: rules: %s\n", err);
    }
    return false;
}

/* Writes the response as the screen wants it: through a buffer when it colours or
 * wraps, else straight out. */
static void answer_events_only(struct table *t);

static void answer(struct table *t)
{
    const struct response *resp = t->resp;
    if (t->o->quiet && resp->kind == RESPONSE_VERDICT && resp->verdict.code == ERR_NONE) {
        answer_events_only(t);
        return;
    }
    if (t->o->mode == OUTPUT_JSON || (!t->screen.colour && !t->screen.width)) {
        output_response(stdout, t->o->mode, &t->ref->game, t->resp);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        output_response(stdout, t->o->mode, &t->ref->game, t->resp);
        return;
    }
    output_response(mem, t->o->mode, &t->ref->game, t->resp);
    fclose(mem);
    cli_screen_write(&t->screen, stdout, text, len);
    free(text);
}

/* -q: an accepted line's events without its answer (the answer is the first line). */
static void answer_events_only(struct table *t)
{
    const struct verdict *v = &t->resp->verdict;
    if (!v->round_ended && !v->match_ended && v->neliminated == 0) return;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return;
    output_response(mem, t->o->mode, &t->ref->game, t->resp);
    fclose(mem);
    const char *nl = memchr(text, '\n', len);
    if (nl) cli_screen_write(&t->screen, stdout, nl + 1, len - (size_t)(nl + 1 - text));
    free(text);
}

/* `show` at the keyboard right after a round ended: the table as the round left it,
 * the last tile laid, and the hands that made the points. */
static void show_final(struct table *t)
{
    struct game g = t->before;
    const struct move *m = &t->last_move;
    if (m->kind == MOVE_PLAY) {
        tileset_remove(&g.hands[m->seat], m->tile);
        struct train *tr = &g.trains[m->train];
        tr->tiles[tr->length++] = (unsigned char)m->tile;
        tr->open_pip = tile_other_pip(m->tile, tr->open_pip);
        if (m->train == m->seat) tr->marker = false;
    } else if (m->kind == MOVE_PASS) {
        g.trains[m->seat].marker = true;
    }
    g.ndoubles = 0;
    const struct round_report *r = &t->last_verdict.report;
    for (int s = 0; s < g.nplayers; s++) g.totals[s] = t->after.totals[s];
    printf("round %d is over, the table as it ended (the next round's table comes with its first line):\n", r->round);
    struct response shown = {.kind = RESPONSE_SHOW, .line = t->line_number};
    g.phase = PHASE_PLAYING;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return;
    output_response(mem, OUTPUT_TEXT, &g, &shown);
    fclose(mem);
    /* the line of whose turn it was means nothing now: say how the round ended */
    char *second = memchr(text, '\n', len);
    char *third = second ? memchr(second + 1, '\n', len - (size_t)(second + 1 - text)) : NULL;
    if (second && third) {
        fwrite(text, 1, (size_t)(second + 1 - text), stdout);
        if (r->out_seat >= 0) printf("  %s went out", t->after.names[r->out_seat]);
        else printf("  blocked");
        fputs("; points", stdout);
        for (int s = 0, first = 1; s < g.nplayers; s++)
            if (r->in_round[s]) printf("%s %s %lld", first ? "" : ",", g.names[s], (long long)r->points[s]), first = 0;
        putchar('\n');
        cli_screen_write(&t->screen, stdout, third + 1, len - (size_t)(third + 1 - text));
    } else {
        cli_screen_write(&t->screen, stdout, text, len);
    }
    free(text);
}

/* Rebuilds the session from the kept lines but the last. */
static bool undo(struct table *t)
{
    if (t->kept.n == 0) {
        puts("nothing to undo");
        return true;
    }
    char *gone = t->kept.lines[--t->kept.n];
    referee_free(t->ref);
    if (!session_start(t)) {
        free(gone);
        return false;
    }
    for (int i = 0; i < t->kept.n; i++) referee_line(t->ref, t->kept.lines[i], strlen(t->kept.lines[i]), false, i + 1, t->resp);
    printf("undone: %s\n", gone);
    free(gone);
    t->ended_round = false;
    if (t->o->record_path) {
        char why[200];
        if (write_record(t, t->o->record_path, "at the table", why, sizeof why) != 0) {
            fprintf(stderr, "mtref: %s: %s\n", t->o->record_path, why);
            t->status = 2;
        }
    }
    return true;
}

static bool is_word(const char *text, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(text, word, len) == 0;
}

/* A keyword typed in capitals at the keyboard: the hint that keywords are lower case. */
static void capital_hint(const char *text, size_t len)
{
    static const char *const words[] = {"players", "rules", "rounds", "seed", "round", "deal", "play",
                                        "draw", "pass", "show", "legal", "help", "undo", "quit", "save"};
    size_t at = 0;
    for (int token = 0; token < 2 && at < len; token++) {
        while (at < len && (text[at] == ' ' || text[at] == '\t')) at++;
        size_t start = at;
        while (at < len && text[at] != ' ' && text[at] != '\t') at++;
        char lower[16];
        size_t n = at - start;
        if (n == 0 || n >= sizeof lower) continue;
        bool capital = false;
        for (size_t i = 0; i < n; i++) {
            char c = text[start + i];
            capital |= c >= 'A' && c <= 'Z';
            lower[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        lower[n] = '\0';
        for (size_t w = 0; capital && w < sizeof words / sizeof words[0]; w++)
            if (strcmp(lower, words[w]) == 0) {
                printf("  hint: keywords are lower case: %s, not %.*s\n", lower, (int)n, text + start);
                return;
            }
    }
}

/* A keyboard command: true when the line was one (handled), false for the referee. */
static bool keyboard_command(struct table *t, const char *text, size_t len, bool *quit)
{
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
    while (len && (*text == ' ' || *text == '\t')) text++, len--;
    if (is_word(text, len, "quit") || is_word(text, len, "exit")) { *quit = true; return true; }
    if (is_word(text, len, "help") || is_word(text, len, "?")) {
        fputs(keyboard_help, stdout);
        t->resp->kind = RESPONSE_NONE;
        referee_line(t->ref, "legal", 5, false, t->line_number, t->resp);
        if (t->resp->kind == RESPONSE_LEGAL) answer(t);
        return true;
    }
    if (is_word(text, len, "undo")) {
        if (!undo(t)) *quit = true;
        return true;
    }
    if (len > 5 && memcmp(text, "save", 4) == 0 && (text[4] == ' ' || text[4] == '\t')) {
        const char *file = text + 5;
        while (*file == ' ' || *file == '\t') file++;
        size_t n = len - (size_t)(file - text);
        /* "save play ..." is a move of a player called save */
        if (is_word(file, n, "pass") || (n > 4 && (memcmp(file, "play ", 5) == 0 || memcmp(file, "draw", 4) == 0)))
            return false;
        char path[4096], why[200];
        snprintf(path, sizeof path, "%.*s", (int)n, file);
        if (write_record(t, path, "saved at the table", why, sizeof why) == 0)
            printf("saved %d lines to %s\n", t->kept.n, path);
        else
            printf("cannot save to %s: %s\n", path, why);
        return true;
    }
    return false;
}

static void handle(struct table *t, const char *text, size_t len, bool too_long)
{
    struct referee *ref = t->ref;
    bool keyboard = t->o->keyboard;
    t->line_number++;
    bool was_over = game_is_over(&ref->game);
    bool fresh_match = ref->game.nplayers == 0;
    if (keyboard && t->ended_round && len >= 4 && is_word(text, len, "show")) {
        show_final(t);
        return;
    }
    struct game before = ref->game;
    referee_line(ref, text, len, too_long, t->line_number, t->resp);
    const struct response *resp = t->resp;
    bool ok = resp->kind != RESPONSE_VERDICT || resp->verdict.code == ERR_NONE;
    answer(t);
    if (!ok) {
        if (keyboard && resp->verdict.code == ERR_SYNTAX) capital_hint(text, len);
        int s = error_code_status(resp->verdict.code);
        if (s > t->status) t->status = s;
        return;
    }
    if (resp->kind != RESPONSE_VERDICT) return;
    enum command_kind kind = ref->cmd.kind;
    bool starts_match = kind == CMD_PLAYERS && (was_over || fresh_match);
    if (!kept_add(&t->kept, text, len, starts_match)) {
        fputs("mtref: out of memory\n", stderr);
        t->status = 2;
        return;
    }
    if (resp->verdict.match_ended) t->kept.results[t->kept.n - 1] = result_tag(&ref->game, &resp->verdict);
    if (t->record) {
        write_line(t->record, t, t->kept.n - 1);
        fflush(t->record);
        if (ferror(t->record)) t->status = 2;
    }
    if (kind == CMD_PLAY || kind == CMD_DRAW || kind == CMD_PASS) {
        t->ended_round = resp->verdict.round_ended;
        if (t->ended_round) {
            t->before = before;
            t->after = ref->game;
            t->last_verdict = resp->verdict;
            int seat = game_find_player(&before, ref->cmd.actor.text, ref->cmd.actor.len);
            t->last_move = (struct move){kind == CMD_PLAY ? MOVE_PLAY : kind == CMD_DRAW ? MOVE_DRAW : MOVE_PASS,
                                         seat, ref->cmd.tile,
                                         ref->cmd.train_is_mex ? TRAIN_MEX
                                                               : game_find_player(&before, ref->cmd.train.text,
                                                                                  ref->cmd.train.len)};
            if (keyboard) puts("  (show draws the table as this round ended, until the next round's first line)");
        }
    } else if (kind == CMD_DEAL) {
        t->ended_round = false;
    }
}

static void flush_stdout(void *ctx)
{
    (void)ctx;
    fflush(stdout);
}

int cli_table_run(int fd, const struct table_options *o, const struct rules_loader *loader)
{
    struct table *t = mt_malloc(sizeof *t);
    if (!t) { fputs("mtref: out of memory\n", stderr); return 2; }
    memset(t, 0, sizeof *t);
    t->o = o;
    t->loader = loader;
    t->ref = mt_malloc(sizeof *t->ref);
    t->resp = mt_malloc(sizeof *t->resp);
    struct reader rd;
    bool reading = t->ref && t->resp && reader_open(&rd, fd, PROTOCOL_LINE_MAX);
    if (!reading) {
        fputs("mtref: out of memory\n", stderr);
        free(t->ref);
        free(t->resp);
        free(t);
        return 2;
    }
    rd.before_wait = flush_stdout;
    if (o->keyboard) cli_screen_init(&t->screen, stdout);
    if (!session_start(t)) {
        t->status = 2;
        goto done;
    }
    if (o->record_path) {
        t->record = fopen(o->record_path, "w");
        if (!t->record) {
            fprintf(stderr, "mtref: --record %s: %s\n", o->record_path, strerror(errno));
            t->status = 2;
            goto done;
        }
        write_tags(t->record, o->keyboard ? "at the table" : "recorded", NULL);
        fflush(t->record);
    }
    if (o->keyboard)
        printf("mtref %s, the referee for Mexican Train. Type protocol lines (players ana bob, ...);\n"
               "help lists the commands and the legal moves, undo takes a line back, quit leaves.\n",
               MTREF_VERSION);
    bool quit = false;
    while (!quit) {
        const char *text;
        size_t len;
        bool too_long = false;
#ifdef MTREF_LIBEDIT
        char *edited = NULL;
        if (o->keyboard) {
            char prompt[128];
            cli_screen_prompt(&t->screen, &t->ref->game, prompt, sizeof prompt);
            fflush(stdout);
            edited = readline(prompt);
            if (!edited) break;
            len = strlen(edited);
            text = edited;
            too_long = len > PROTOCOL_LINE_MAX;
            if (len && !too_long) add_history(edited);
        } else
#endif
        {
            if (o->keyboard) {
                char prompt[128];
                cli_screen_prompt(&t->screen, &t->ref->game, prompt, sizeof prompt);
                for (char *c = prompt; *c; c++)          /* no libedit: its markers mean nothing */
                    if (*c == '\001' || *c == '\002') memmove(c, c + 1, strlen(c)), c--;
                fputs(prompt, stdout);
            }
            struct line line;
            if (!reader_next(&rd, &line)) break;
            text = line.text;
            len = line.len;
            too_long = line.too_long;
        }
        if (!(o->keyboard && !too_long && keyboard_command(t, text, len, &quit)))
            handle(t, text, len, too_long);
#ifdef MTREF_LIBEDIT
        free(edited);
#endif
        if (!o->keep_going && t->status != 0) break;
    }
    if (o->keyboard && !quit) putchar('\n');
    if (rd.error) {
        fprintf(stderr, "mtref: %s: %s\n", o->name ? o->name : "input", strerror(rd.error));
        t->status = 2;
    }
done:
    if (t->record && fclose(t->record) != 0) t->status = 2;
    referee_free(t->ref);
    reader_close(&rd);
    kept_free(&t->kept);
    int status = t->status;
    if (fflush(stdout) != 0) status = 2;
    free(t->ref);
    free(t->resp);
    free(t);
    return status;
}
