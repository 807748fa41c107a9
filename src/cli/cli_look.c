/* The table at a point of a record, as text, JSON or a picture; records opened for walking. */
#include "cli_look.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "svg.h"

int cli_open_record(const char *path, int *fd)
{
    int err = cli_open_input(path, fd);
    if (err) return err;
    if (lseek(*fd, 0, SEEK_SET) == 0) return 0;
    /* a pipe or a terminal: keep a copy to walk again */
    FILE *copy = tmpfile();
    if (!copy) return errno;
    char buf[65536];
    ssize_t n;
    while ((n = read(*fd, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR) continue;
            err = errno;
            break;
        }
        if (fwrite(buf, 1, (size_t)n, copy) != (size_t)n) { err = EIO; break; }
    }
    if (*fd) close(*fd);
    if (err || fflush(copy) != 0) {
        fclose(copy);
        return err ? err : EIO;
    }
    /* the descriptor outlives the FILE: a duplicate, and the FILE closed */
    *fd = dup(fileno(copy));
    fclose(copy);
    return *fd < 0 ? errno : 0;
}

/* Appends printf-style text to buf[*used..size), never past its end. */
static void put(char *buf, size_t size, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (n > 0) *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

static void put_token(char *buf, size_t size, size_t *used, struct token t)
{
    for (int i = 0; i < t.len && *used + 1 < size; i++) {
        unsigned char c = (unsigned char)t.text[i];
        buf[(*used)++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    buf[*used] = '\0';
}

void cli_describe_command(const struct command *cmd, char *buf, size_t size)
{
    size_t used = 0;
    char tile[TILE_TEXT_SIZE];
    buf[0] = '\0';
    switch (cmd->kind) {
    case CMD_PLAY:
        tile_format(cmd->tile, tile);
        put_token(buf, size, &used, cmd->actor);
        put(buf, size, &used, " play %s ", tile);
        put_token(buf, size, &used, cmd->train);
        break;
    case CMD_DRAW:
        put_token(buf, size, &used, cmd->actor);
        put(buf, size, &used, " draw");
        if (cmd->tile != TILE_NONE) {
            tile_format(cmd->tile, tile);
            put(buf, size, &used, " %s", tile);
        }
        break;
    case CMD_PASS:
        put_token(buf, size, &used, cmd->actor);
        put(buf, size, &used, " pass");
        break;
    case CMD_DEAL:
        put(buf, size, &used, "deal ");
        put_token(buf, size, &used, cmd->actor);
        put(buf, size, &used, " (%d tiles)", cmd->count);
        break;
    case CMD_PLAYERS: case CMD_RULES:
        put(buf, size, &used, cmd->kind == CMD_PLAYERS ? "players" : "rules");
        if (cmd->kind == CMD_PLAYERS && cmd->count == 0) put(buf, size, &used, " %lld", cmd->number);
        for (int i = 0; i < cmd->count; i++) {
            put(buf, size, &used, " ");
            put_token(buf, size, &used, cmd->items[i]);
        }
        break;
    case CMD_ROUNDS: put(buf, size, &used, "rounds %lld", cmd->number); break;
    case CMD_ROUND: put(buf, size, &used, "round %lld", cmd->number); break;
    case CMD_SEED: put(buf, size, &used, "seed %llu", (unsigned long long)cmd->seed); break;
    case CMD_SHOW: put(buf, size, &used, "show"); break;
    case CMD_LEGAL: put(buf, size, &used, "legal"); break;
    case CMD_NONE: break;
    }
}

bool cli_split_rules(const char *list, char *storage, size_t size, const char *files[], int *n)
{
    *n = 0;
    if (strcmp(list, "canonical") == 0) return true;
    if (strlen(list) >= size) return false;
    strcpy(storage, list);
    for (char *p = storage;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (!*p || *n == RULES_MAX_FILES) return false;
        if (strcmp(p, "canonical") != 0) files[(*n)++] = p;
        if (!comma) return true;
        p = comma + 1;
    }
}

int cli_rules_option(const struct subcommand *command, const char *value, struct cli_rules_side *a,
                     struct cli_rules_side *b, int *nsides)
{
    if (*nsides == 2) return cli_usage_error(command, "two --rules at most: '%s'", value);
    struct cli_rules_side *s = *nsides == 0 ? a : b;
    if (!cli_split_rules(value, s->storage, sizeof s->storage, s->files, &s->nfiles))
        return cli_usage_error(command, "--rules: a bad list '%s'", value);
    (*nsides)++;
    return 0;
}

void cli_rules_sides_finish(struct cli_rules_side *a, struct cli_rules_side *b, int nsides)
{
    if (nsides != 1) return;
    *b = *a;
    for (int i = 0; i < b->nfiles; i++) b->files[i] = b->storage + (a->files[i] - a->storage);
    a->nfiles = 0;
}

/* The lines output writes for a response in text, for the picture's notes: a copy
 * in *text (caller frees), NULL when out of memory. */
static char *response_text(const struct game *g, const struct response *resp)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem) return NULL;
    output_response(mem, OUTPUT_TEXT, g, resp);
    if (fclose(mem) != 0) { free(text); return NULL; }
    return text;
}

#define NOTE_MAX 140

static int print_svg(FILE *out, int as_seat, const struct referee *ref,
                     const struct game *before, const struct response *resp, const char *desc)
{
    struct game *snap = mt_malloc(sizeof *snap);
    if (!snap) { fputs("mtref: out of memory\n", stderr); return 2; }
    struct svg_options so;
    svg_options_default(&so);
    so.as_seat = as_seat;
    so.line = resp->line;
    const struct game *draw = &ref->game;
    bool verdict = resp->kind == RESPONSE_VERDICT;
    bool ended = verdict && resp->verdict.code == ERR_NONE && resp->verdict.round_ended && before;
    char first[NOTE_MAX + 80], notes[SVG_NOTES - 1][NOTE_MAX + 4];
    if (ended) {
        /* the next round has begun: draw the table the last move was made on */
        draw = before;
        so.line = 0;
        if (ref->cmd.kind == CMD_PLAY) {
            so.highlight = ref->cmd.tile;
            so.highlight_seat = game_find_player(before, ref->cmd.actor.text, ref->cmd.actor.len);
        }
        snprintf(first, sizeof first, "Line %ld, %s%s, ended the round; the table as it was made:", resp->line,
                 desc, ref->cmd.kind == CMD_PLAY ? " (ringed)" : "");
    } else if (verdict) {
        snprintf(first, sizeof first, "Line %ld: %s", resp->line, desc);
    } else {
        snprintf(first, sizeof first, "Line %ld: a query", resp->line);
    }
    so.notes[0] = first;
    char *text = verdict ? response_text(&ref->game, resp) : NULL;
    int n = 1;
    for (char *line = text; line && *line && n < SVG_NOTES;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (!(len == 2 && memcmp(line, "ok", 2) == 0)) {
            bool cut = len > NOTE_MAX;
            snprintf(notes[n - 1], sizeof notes[n - 1], "%.*s%s", (int)(cut ? NOTE_MAX : len), line, cut ? "..." : "");
            so.notes[n] = notes[n - 1];
            n++;
        }
        line = end ? end + 1 : line + len;
    }
    game_snapshot(draw, snap);
    if (ended) {
        so.round_over = true;
        memcpy(snap->totals, ref->game.totals, sizeof snap->totals);    /* with the round's points */
    }
    svg_write(out, snap, &so);
    free(text);
    free(snap);
    return 0;
}

int cli_print_table(FILE *out, const struct cli_table_options *o, const struct referee *ref,
                    const struct game *before, const struct response *resp)
{
    char desc[160] = "";
    bool verdict = resp->kind == RESPONSE_VERDICT;
    bool rejected = verdict && resp->verdict.code != ERR_NONE;
    if (verdict && !(rejected && resp->verdict.code == ERR_SYNTAX)) cli_describe_command(&ref->cmd, desc, sizeof desc);
    else if (verdict) snprintf(desc, sizeof desc, "(not understood)");
    int as_seat = -1;
    if (o->as) {
        as_seat = game_find_player(&ref->game, o->as, (int)strlen(o->as));
        if (as_seat < 0) {
            fprintf(stderr, "mtref: --as: %s is not at the table\n", protocol_is_name(o->as, strlen(o->as)) ? o->as : "that name");
            return 2;
        }
    }
    if (o->svg) return print_svg(out, as_seat, ref, before, resp, desc);

    struct referee *scratch = mt_malloc(sizeof *scratch);
    struct response *shown = mt_malloc(sizeof *shown);
    int status = 0;
    if (!scratch || !shown) {
        fputs("mtref: out of memory\n", stderr);
        status = 2;
        goto done;
    }
    char query[8 + GAME_NAME_MAX_LEN];
    snprintf(query, sizeof query, "show%s%s", o->as ? " " : "", o->as ? o->as : "");
    walk_query(ref, scratch, query, shown);
    if (shown->kind != RESPONSE_SHOW) {
        fprintf(stderr, "mtref: %s: %s\n", query, shown->verdict.message);
        status = 2;
        goto done;
    }
    shown->line = resp->line;
    if (o->mode == OUTPUT_JSON) {
        if (rejected) output_response(out, OUTPUT_JSON, &ref->game, resp);
    } else if (verdict) {
        fprintf(out, "line %ld: %s\n", resp->line, desc);
        output_response(out, OUTPUT_TEXT, &ref->game, resp);
    } else {
        fprintf(out, "line %ld: a query\n", resp->line);
    }
    output_response(out, o->mode, &scratch->game, shown);
done:
    free(scratch);
    free(shown);
    return status;
}
