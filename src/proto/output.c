/* Output: verdicts, events, the table and legal moves as text or JSON lines. */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "protocol.h"
#include "view.h"

void output_json_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    putc('"', out);
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') { putc('\\', out); putc((int)c, out); p++; continue; }
        if (c < 0x20) { fprintf(out, "\\u%04x", c); p++; continue; }
        if (c < 0x80) { putc((int)c, out); p++; continue; }
        size_t len = strlen((const char *)p);
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (need > len || !protocol_utf8_valid((const char *)p, need)) {
            fputs("\\ufffd", out);
            p++;
            continue;
        }
        fwrite(p, 1, need, out);
        p += need;
    }
    putc('"', out);
}

void output_format_move(const struct game *g, const struct move *m, char *buf)
{
    char tile[TILE_TEXT_SIZE];
    const char *who = g->names[m->seat];
    if (m->kind == MOVE_PLAY) {
        tile_format(m->tile, tile);
        snprintf(buf, OUTPUT_MOVE_SIZE, "%s play %s %s", who, tile, game_train_name(g, m->train));
    } else if (m->kind == MOVE_DRAW) {
        snprintf(buf, OUTPUT_MOVE_SIZE, "%s draw", who);
    } else {
        snprintf(buf, OUTPUT_MOVE_SIZE, "%s pass", who);
    }
}

static void json_tiles(FILE *out, const unsigned char *tiles, int n)
{
    char text[TILE_TEXT_SIZE];
    putc('[', out);
    for (int i = 0; i < n; i++) {
        tile_format(tiles[i], text);
        fprintf(out, "%s\"%s\"", i ? "," : "", text);
    }
    putc(']', out);
}

static int tiles_of(tileset s, unsigned char *out)
{
    int n = 0;
    for (tile_t t; (t = tileset_pop(&s)) != TILE_NONE;) out[n++] = (unsigned char)t;
    return n;
}

static void json_names_map(FILE *out, const struct game *g, const int64_t values[], const bool *only)
{
    putc('{', out);
    bool first = true;
    for (int s = 0; s < g->nplayers; s++) {
        if (only && !only[s]) continue;
        fprintf(out, "%s\"%s\":%lld", first ? "" : ",", g->names[s], (long long)values[s]);
        first = false;
    }
    putc('}', out);
}

/* The rule files in force as a JSON array (names come from file names: escaped). */
static void json_rules(FILE *out, const struct game *g)
{
    putc('[', out);
    for (int i = 0; i < g->rules->nfile_names; i++) {
        if (i) putc(',', out);
        output_json_string(out, g->rules->file_names[i]);
    }
    putc(']', out);
}

/* Without a seed a draw names its tile (a bare draw is refused): the legal draws are
 * then one per tile of the boneyard, each a line the referee accepts. */
static bool draw_is_named(const struct game *g, const struct move *m) { return m->kind == MOVE_DRAW && !g->seeded; }

static void json_legal(FILE *out, const struct game *g, const struct move *moves, int n)
{
    char text[OUTPUT_MOVE_SIZE], tile[TILE_TEXT_SIZE];
    fputs("\"legal\":[", out);
    bool first = true;
    for (int i = 0; i < n; i++) {
        output_format_move(g, &moves[i], text);
        if (!draw_is_named(g, &moves[i])) {
            fprintf(out, "%s\"%s\"", first ? "" : ",", text);
            first = false;
            continue;
        }
        tileset bone = g->boneyard;
        for (tile_t t; (t = tileset_pop(&bone)) != TILE_NONE;) {
            tile_format(t, tile);
            fprintf(out, "%s\"%s %s\"", first ? "" : ",", text, tile);
            first = false;
        }
    }
    putc(']', out);
}

static void text_legal(FILE *out, const struct game *g, const struct move *moves, int n)
{
    char text[OUTPUT_MOVE_SIZE];
    for (int i = 0; i < n; i++) {
        output_format_move(g, &moves[i], text);
        fprintf(out, "%s%s", i ? ", " : "", text);
        if (draw_is_named(g, &moves[i]))
            fprintf(out, " A-B, naming the tile drawn (one of the %d in the boneyard)", tileset_count(g->boneyard));
    }
}

static void json_show(FILE *out, const struct game *g)
{
    char text[TILE_TEXT_SIZE];
    unsigned char tiles[TILE_COUNT];
    static const char *const phases[] = {"setup", "dealing", "playing", "over"};
    fprintf(out, "\"show\":{\"phase\":\"%s\",\"round\":%d,\"rounds\":%d,\"engine\":", phases[g->phase],
            g->round, g->rounds);
    if (g->phase == PHASE_SETUP) fputs("null", out);
    else fprintf(out, "%d", g->engine_pip);
    if (g->phase == PHASE_PLAYING) fprintf(out, ",\"turn\":\"%s\"", g->names[g->turn]);
    fprintf(out, ",\"boneyard\":%d,\"trains\":[", tileset_count(g->boneyard));
    bool first = true;
    for (int t = 0; t < TRAIN_COUNT; t++) {
        if (t != TRAIN_MEX && (t >= g->nplayers || g->eliminated[t])) continue;
        const struct train *tr = &g->trains[t];
        fprintf(out, "%s{\"train\":\"%s\",\"open\":", first ? "" : ",", game_train_name(g, t));
        if (g->phase == PHASE_SETUP) fputs("null", out);       /* no engine yet [R6] */
        else fprintf(out, "%d", tr->open_pip);
        fprintf(out, ",\"marker\":%s,\"tiles\":", tr->marker ? "true" : "false");
        json_tiles(out, tr->tiles, tr->length);
        putc('}', out);
        first = false;
    }
    fputs("],\"uncovered\":[", out);
    for (int i = 0; i < g->ndoubles; i++) {
        tile_format(tile_double(g->doubles[i].pip), text);
        fprintf(out, "%s{\"double\":\"%s\",\"train\":\"%s\"}", i ? "," : "", text,
                game_train_name(g, g->doubles[i].train));
    }
    fputs("],\"hands\":{", out);
    first = true;
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        fprintf(out, "%s\"%s\":", first ? "" : ",", g->names[s]);
        json_tiles(out, tiles, tiles_of(g->hands[s], tiles));
        first = false;
    }
    fputs("},\"totals\":", out);
    json_names_map(out, g, g->totals, 0);
    fputs(",\"rules\":", out);
    json_rules(out, g);
    putc('}', out);
}

/* A train's tiles as laid, each shown with the side that touches the train first. */
static void text_train(FILE *out, const struct game *g, const struct train *tr)
{
    int open = g->engine_pip;
    for (int i = 0; i < tr->length; i++) {
        int far = tile_other_pip(tr->tiles[i], open);
        fprintf(out, " %d-%d", open, far);
        open = far;
    }
}

static void text_show(FILE *out, const struct game *g)
{
    char text[TILE_TEXT_SIZE];
    unsigned char tiles[TILE_COUNT];
    const char *rules = g->rules->names && g->rules->names[0] ? g->rules->names : "canonical";
    fprintf(out, "round %d of %d, ", g->round, g->rounds);
    if (g->phase == PHASE_SETUP) fputs("set-up", out);
    else fprintf(out, "engine %d-%d", g->engine_pip, g->engine_pip);
    fputs(", rules: ", out);
    escape_puts(out, rules);          /* names come from file names */
    putc('\n', out);
    if (g->phase == PHASE_SETUP || g->phase == PHASE_DEALING)
        fprintf(out, "  %s\n", g->nplayers ? "waiting for the deal" : "waiting for players");
    if (g->phase == PHASE_PLAYING) {
        fprintf(out, "  %s to play, boneyard %d\n", g->names[g->turn], tileset_count(g->boneyard));
        for (int t = 0; t < TRAIN_COUNT; t++) {
            if (t != TRAIN_MEX && (t >= g->nplayers || g->eliminated[t])) continue;
            const struct train *tr = &g->trains[t];
            fprintf(out, "  train %-16s open %2d%s |", game_train_name(g, t), tr->open_pip, tr->marker ? " marked" : "       ");
            text_train(out, g, tr);
            putc('\n', out);
        }
        for (int i = 0; i < g->ndoubles; i++) {
            tile_format(tile_double(g->doubles[i].pip), text);
            fprintf(out, "  uncovered double %s on the %s train\n", text, game_train_name(g, g->doubles[i].train));
        }
        for (int s = 0; s < g->nplayers; s++) {
            if (g->eliminated[s]) continue;
            int n = tiles_of(g->hands[s], tiles);
            fprintf(out, "  hand  %-16s %2d tiles |", g->names[s], n);
            for (int i = 0; i < n; i++) {
                tile_format(tiles[i], text);
                fprintf(out, " %s", text);
            }
            putc('\n', out);
        }
    }
    if (g->phase == PHASE_OVER) fputs("  the match is over\n", out);
    fputs("  totals:", out);
    for (int s = 0; s < g->nplayers; s++)
        fprintf(out, "%s %s %lld%s", s ? "," : "", g->names[s], (long long)g->totals[s], g->eliminated[s] ? " (out)" : "");
    putc('\n', out);
}

void output_score_line(const struct game *g, const struct verdict *v, char *buf, size_t size)
{
    size_t used = 0;
    int first = -1;
    for (int s = 0; s < g->nplayers && first < 0; s++)
        if (v->winners[s]) first = s;
    if (first < 0) { snprintf(buf, size, "?"); return; }
    used += (size_t)snprintf(buf, size, "%lld", (long long)g->totals[first]);
    for (int s = 0; s < g->nplayers && used < size; s++)
        if (s != first)
            used += (size_t)snprintf(buf + used, size - used, "-%lld", (long long)g->totals[s]);
}

void output_json_result(FILE *out, const struct game *g, const struct verdict *v)
{
    fputs("\"totals\":", out);
    json_names_map(out, g, g->totals, 0);
    fputs(",\"winners\":[", out);
    bool first = true;
    for (int s = 0; s < g->nplayers; s++)
        if (v->winners[s]) {
            fprintf(out, "%s\"%s\"", first ? "" : ",", g->names[s]);
            first = false;
        }
    fprintf(out, "],\"draw\":%s", v->nwinners > 1 ? "true" : "false");
}

void output_text_winners(FILE *out, const struct game *g, const struct verdict *v)
{
    bool first = true;
    for (int s = 0; s < g->nplayers; s++)
        if (v->winners[s]) {
            fprintf(out, "%s%s", first ? "" : " and ", g->names[s]);
            first = false;
        }
    fputs(v->nwinners > 1 ? " draw" : " wins", out);
}

/* What they write is what output_is_more_than_ok (output.h) says makes a verdict more
 * than "ok": keep them in step. */
static void json_events(FILE *out, const struct game *g, const struct verdict *v)
{
    if (v->round_ended) {
        const struct round_report *r = &v->report;
        fprintf(out, "{\"event\":\"round_end\",\"round\":%d,\"engine\":%d,\"reason\":\"%s\",\"out\":",
                r->round, r->engine_pip, r->out_seat >= 0 ? "out" : "blocked");
        if (r->out_seat >= 0) fprintf(out, "\"%s\"", g->names[r->out_seat]);
        else fputs("null", out);
        fputs(",\"points\":", out);
        json_names_map(out, g, r->points, r->in_round);
        fputs(",\"totals\":", out);
        json_names_map(out, g, g->totals, 0);
        fputs("}\n", out);
    }
    for (int i = 0; i < v->neliminated; i++) {
        int s = v->eliminated[i];
        fprintf(out, "{\"event\":\"eliminated\",\"player\":\"%s\",\"total\":%lld}\n", g->names[s],
                (long long)g->totals[s]);
    }
    if (v->match_ended) {
        fputs("{\"event\":\"match_end\",", out);
        output_json_result(out, g, v);
        fputs(",\"rules\":", out);
        json_rules(out, g);
        fputs("}\n", out);
    }
}

static void text_map(FILE *out, const struct game *g, const int64_t values[], const bool *only)
{
    bool first = true;
    for (int s = 0; s < g->nplayers; s++) {
        if (only && !only[s]) continue;
        fprintf(out, "%s%s %lld", first ? "" : ", ", g->names[s], (long long)values[s]);
        first = false;
    }
}

static void text_events(FILE *out, const struct game *g, const struct verdict *v)
{
    if (v->round_ended) {
        const struct round_report *r = &v->report;
        fprintf(out, "round %d over (engine %d-%d): ", r->round, r->engine_pip, r->engine_pip);
        if (r->out_seat >= 0) fprintf(out, "%s went out", g->names[r->out_seat]);
        else fputs("blocked", out);
        fputs("; points ", out);
        text_map(out, g, r->points, r->in_round);
        fputs("; totals ", out);
        text_map(out, g, g->totals, 0);
        putc('\n', out);
    }
    for (int i = 0; i < v->neliminated; i++) {
        int s = v->eliminated[i];
        fprintf(out, "%s is eliminated with %lld\n", g->names[s], (long long)g->totals[s]);
    }
    if (v->match_ended) {
        fputs("match over: ", out);
        output_text_winners(out, g, v);
        fputs("; totals ", out);
        text_map(out, g, g->totals, 0);
        if (g->rules->names && g->rules->names[0]) {
            fputs("; rules ", out);
            escape_puts(out, g->rules->names);
        }
        putc('\n', out);
    }
}

static void write_verdict(FILE *out, enum output_mode mode, const struct game *g, const struct response *resp)
{
    const struct verdict *v = &resp->verdict;
    char text[TILE_TEXT_SIZE];
    if (v->code == ERR_NONE) {
        if (mode == OUTPUT_JSON) {
            output_json_ok(out, resp->line, v->drew);
            json_events(out, g, v);
        } else {
            if (v->drew != TILE_NONE) {
                tile_format(v->drew, text);
                fprintf(out, "ok drew %s\n", text);
            } else {
                fputs("ok\n", out);
            }
            text_events(out, g, v);
        }
        return;
    }
    const struct move *moves = resp->legal;
    int n = resp->nlegal;
    if (mode == OUTPUT_JSON) {
        fprintf(out, "{\"line\":%ld,\"ok\":false,\"error\":\"%s\",\"message\":", resp->line,
                error_code_name(v->code));
        output_json_string(out, v->message);
        if (v->rule) fprintf(out, ",\"rule\":\"%s\"", v->rule);
        if (n > 0) {
            putc(',', out);
            json_legal(out, g, moves, n);
        }
        fputs("}\n", out);
    } else {
        /* the message may quote the line and a rules file's reason: one line, no
         * control bytes reach the terminal */
        fprintf(out, "error line %ld: %s: ", resp->line, error_code_name(v->code));
        escape_puts(out, v->message);
        if (v->rule) fprintf(out, " [%s]", v->rule);
        putc('\n', out);
        if (n > 0) {
            fputs("  legal: ", out);
            text_legal(out, g, moves, n);
            putc('\n', out);
        }
    }
}

/* `show NAME`: the table as that seat sees it (view.h), the only source of what it shows. */
static void show_view(FILE *out, enum output_mode mode, const struct game *snap, const struct response *resp)
{
    struct seat_view *v = mt_malloc(sizeof *v);
    char *buf = mt_malloc(VIEW_TEXT_MAX);
    if (!v || !buf) {
        free(v);
        free(buf);
        if (mode == OUTPUT_JSON) fprintf(out, "{\"line\":%ld,\"ok\":true,\"show\":null}\n", resp->line);
        else fputs("out of memory\n", out);
        return;
    }
    view_of(snap, resp->show_seat, v);
    if (mode == OUTPUT_JSON) {
        view_format_json(v, buf, VIEW_TEXT_MAX);
        fprintf(out, "{\"line\":%ld,\"ok\":true,\"show\":{%s,\"rules\":", resp->line, buf);
        json_rules(out, snap);
        fputs("}}\n", out);
    } else {
        const char *rules = snap->rules->names && snap->rules->names[0] ? snap->rules->names : "canonical";
        fprintf(out, "round %d of %d, ", v->round, v->rounds);
        if (v->engine_pip < 0) fputs("set-up", out);
        else fprintf(out, "engine %d-%d", v->engine_pip, v->engine_pip);
        fprintf(out, ", rules: %s, as %s sees it\n", rules, v->names[v->seat]);
        if (v->phase == PHASE_SETUP || v->phase == PHASE_DEALING)
            fprintf(out, "  %s\n", v->nplayers ? "waiting for the deal" : "waiting for players");
        if (v->phase == PHASE_PLAYING) {
            fprintf(out, "  %s to play, boneyard %d\n", v->names[v->turn], v->boneyard);
            char text[TILE_TEXT_SIZE];
            for (int t = 0; t < TRAIN_COUNT; t++) {
                if (t != TRAIN_MEX && (t >= v->nplayers || v->eliminated[t])) continue;
                const struct train *tr = &v->trains[t];
                fprintf(out, "  train %-16s open %2d%s |", view_train_name(v, t), tr->open_pip,
                        tr->marker ? " marked" : "       ");
                int open = v->engine_pip;
                for (int i = 0; i < tr->length; i++) {
                    int far = tile_other_pip(tr->tiles[i], open);
                    fprintf(out, " %d-%d", open, far);
                    open = far;
                }
                putc('\n', out);
            }
            for (int i = 0; i < v->ndoubles; i++) {
                tile_format(tile_double(v->doubles[i].pip), text);
                fprintf(out, "  uncovered double %s on the %s train\n", text,
                        view_train_name(v, v->doubles[i].train));
            }
            for (int s = 0; s < v->nplayers; s++) {
                if (v->eliminated[s]) continue;
                fprintf(out, "  hand  %-16s %2d tiles |", v->names[s], v->hand_size[s]);
                if (s == v->seat) {
                    tileset hand = v->hand;
                    for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
                        tile_format(t, text);
                        fprintf(out, " %s", text);
                    }
                }
                putc('\n', out);
            }
        }
        if (v->phase == PHASE_OVER) fputs("  the match is over\n", out);
        fputs("  totals:", out);
        for (int s = 0; s < v->nplayers; s++)
            fprintf(out, "%s %s %lld%s", s ? "," : "", v->names[s], (long long)v->totals[s],
                    v->eliminated[s] ? " (out)" : "");
        putc('\n', out);
    }
    free(buf);
    free(v);
}

void output_response(FILE *out, enum output_mode mode, const struct game *g, const struct response *resp)
{
    if (resp->kind == RESPONSE_NONE) return;
    if (resp->kind == RESPONSE_VERDICT) {
        write_verdict(out, mode, g, resp);
        return;
    }
    struct game snap;
    if (resp->kind == RESPONSE_SHOW) {
        game_snapshot(g, &snap);
        if (resp->show_view) {
            show_view(out, mode, &snap, resp);
            return;
        }
        if (mode == OUTPUT_JSON) {
            fprintf(out, "{\"line\":%ld,\"ok\":true,", resp->line);
            json_show(out, &snap);
            fputs("}\n", out);
        } else {
            text_show(out, &snap);
        }
        return;
    }
    const struct move *moves = resp->legal;
    int n = resp->nlegal;
    if (mode == OUTPUT_JSON) {
        fprintf(out, "{\"line\":%ld,\"ok\":true,", resp->line);
        if (n > 0) fprintf(out, "\"player\":\"%s\",", g->names[moves[0].seat]);
        json_legal(out, g, moves, n);
        fputs("}\n", out);
    } else {
        fputs("ok legal: ", out);
        if (n == 0) fputs(game_is_over(g) ? "none, the match is over" : "none yet, waiting for the deal", out);
        text_legal(out, g, moves, n);
        putc('\n', out);
    }
}
