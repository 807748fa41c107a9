/* Counting what a rule set does to self-played matches, with 95% intervals. Each
 * match is played by selfplay_match and its record read back through a referee
 * session, so the figures count what the referee saw. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "session.h"

#define Z95 1.959963984540054

struct buffer {
    char *data;
    size_t len, cap;
    bool failed;
};

static void buffer_write(void *ctx, const char *data, size_t len)
{
    struct buffer *b = ctx;
    if (b->failed) return;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->len + len + 1) cap *= 2;
        char *grown = mt_realloc(b->data, cap);
        if (!grown) { b->failed = true; return; }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

/* The doubles laid in the turn under way, to see which are left when it ends. */
struct turn_doubles {
    int seat;
    int pips[GAME_DOUBLES_MAX + 1];
    int n;
};

static bool still_uncovered(const struct game *g, int pip)
{
    for (int i = 0; i < g->ndoubles; i++)
        if (g->doubles[i].pip == pip) return true;
    return false;
}

/* Counts one line's effect; before is the game as the line found it. */
static void count_line(struct compare_tally *t, const struct game *before, const struct referee *ref,
                       const struct response *resp, struct turn_doubles *td, long *round_moves)
{
    const struct verdict *v = &resp->verdict;
    const struct command *cmd = &ref->cmd;
    const struct game *g = &ref->game;
    if (cmd->kind != CMD_PLAY && cmd->kind != CMD_DRAW && cmd->kind != CMD_PASS) return;
    t->moves++;
    (*round_moves)++;
    int seat = before->turn;
    if (td->seat != seat) td->n = 0;
    td->seat = seat;
    if (cmd->kind == CMD_PLAY && tile_is_double(cmd->tile) && td->n <= GAME_DOUBLES_MAX) {
        t->doubles++;
        td->pips[td->n++] = tile_low(cmd->tile);
    }
    if (v->round_ended) {
        /* out on a double owes no cover; a block ends every duty */
        td->n = 0;
        t->rounds++;
        if (v->report.out_seat < 0) t->blocked++;
        t->moves_sq += (double)*round_moves * (double)*round_moves;
        *round_moves = 0;
    } else if (g->turn != seat) {
        for (int i = 0; i < td->n; i++)
            if (still_uncovered(g, td->pips[i])) t->doubles_left++;
        td->n = 0;
    }
    if (v->match_ended) {
        t->matches++;
        double sum = 0;
        for (int s = 0; s < g->nplayers; s++) {
            double total = (double)g->totals[s];
            t->totals++;
            t->total_sum += total;
            t->total_sq += total * total;
            sum += total;
        }
        double mean = sum / g->nplayers;
        t->match_mean_sum += mean;
        t->match_mean_sq += mean * mean;
        if (v->winners[0] && v->nwinners > 0) t->first_wins += 1.0 / v->nwinners;
    }
}

/* Reads a record back through a fresh session; 0, or 2 with err set. */
/* What the session loop hands each response: the line counted against the game the
 * line found (the game after the response before). */
struct tally_reading {
    struct compare_tally *t;
    struct game *before;
    struct turn_doubles td;
    long round_moves;
    long rejected_line;
    char *err;
};

static void tally_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct tally_reading *r = ctx;
    if (resp->kind == RESPONSE_VERDICT && resp->verdict.code != ERR_NONE) {
        snprintf(r->err, RULES_MESSAGE_SIZE, "self-played line %ld rejected: %s", resp->line,
                 resp->verdict.message);
        r->rejected_line = resp->line;
        return;
    }
    if (resp->kind == RESPONSE_VERDICT) count_line(r->t, r->before, ref, resp, &r->td, &r->round_moves);
    *r->before = ref->game;
}

static int tally_record(const struct rules_loader *loader, const char *text, size_t len, struct compare_tally *t,
                        char *err)
{
    struct referee *ref = mt_malloc(sizeof *ref);
    struct game *before = mt_malloc(sizeof *before);
    struct response *resp = mt_malloc(sizeof *resp);
    int status = 0;
    if (!ref || !before || !resp) {
        free(ref);
        free(before);
        free(resp);
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        return 2;
    }
    /* the record names its own rules */
    if (!referee_init(ref, loader, NULL, 0, err)) {
        status = 2;
        goto done;
    }
    *before = ref->game;
    struct tally_reading reading = {t, before, {-1, {0}, 0}, 0, 0, err};
    struct session_options o = {.loader = loader, .respond = tally_response, .ctx = &reading};
    struct session_result res;
    session_run_text(ref, text, len, 1, &o, resp, &res);
    if (reading.rejected_line) status = 2;
done:
    referee_free(ref);
    free(ref);
    free(before);
    free(resp);
    return status;
}

int compare_tally_run(const struct selfplay_options *o, const struct rules_loader *loader, const char *const files[],
                      int n, struct compare_tally *t, char *err)
{
    memset(t, 0, sizeof *t);
    struct referee *ref = mt_malloc(sizeof *ref);
    if (!ref) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        return 2;
    }
    int status = 0;
    struct buffer buf = {NULL, 0, 0, false};
    if (!referee_init(ref, loader, files, n, err)) {
        status = 2;
        goto done;
    }
    const struct rules *rules = ref->cli_rules;
    if (o->players < rules->min_players || o->players > rules->max_players) {
        snprintf(err, RULES_MESSAGE_SIZE, "%d players: these rules seat %d to %d", o->players, rules->min_players,
                 rules->max_players);
        status = 2;
        goto done;
    }
    /* each record is read alone, as a file of selfplay --out: its rules come first */
    struct selfplay_options alone = *o;
    alone.out_dir = "";
    for (long i = 0; i < o->games && status == 0; i++) {
        buf.len = 0;
        struct selfplay_sink sink = {buffer_write, &buf};
        status = selfplay_match(&alone, rules, files, n, i, &sink, err);
        if (status == 0 && buf.failed) {
            snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
            status = 2;
        }
        if (status == 0 && buf.len) status = tally_record(loader, buf.data, buf.len, t, err);
    }
done:
    free(buf.data);
    referee_free(ref);
    free(ref);
    return status;
}

static struct compare_figure wilson(double successes, double trials)
{
    struct compare_figure f = {0, 0, 0};
    if (trials <= 0) return f;
    double p = successes / trials, z2 = Z95 * Z95;
    double centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
    double half = Z95 * sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials);
    f.value = p;
    f.low = centre - half < 0 ? 0 : centre - half;
    f.high = centre + half > 1 ? 1 : centre + half;
    return f;
}

/* Mean and standard error from a count, a sum and a sum of squares. */
static void mean_and_error(double n, double sum, double sq, double *mean, double *se)
{
    *mean = n > 0 ? sum / n : 0;
    double var = n > 1 ? (sq - n * *mean * *mean) / (n - 1) : 0;
    *se = n > 1 && var > 0 ? sqrt(var / n) : 0;
}

static double spread(const struct compare_tally *t)
{
    double n = (double)t->totals, mean = n > 0 ? t->total_sum / n : 0;
    double var = n > 1 ? (t->total_sq - n * mean * mean) / (n - 1) : 0;
    return var > 0 ? sqrt(var) : 0;
}

/* A row's value and its standard error (shares: of the proportion). */
static void value_and_error(const struct compare_tally *t, enum compare_row row, double *value, double *se)
{
    double n;
    switch (row) {
    case COMPARE_MEAN_TOTAL:
        mean_and_error((double)t->matches, t->match_mean_sum, t->match_mean_sq, value, se);
        return;
    case COMPARE_SPREAD:
        *value = spread(t);
        *se = t->totals > 1 ? *value / sqrt(2.0 * (double)(t->totals - 1)) : 0;
        return;
    case COMPARE_MOVES:
        mean_and_error((double)t->rounds, (double)t->moves, t->moves_sq, value, se);
        return;
    default:
        break;
    }
    double k = row == COMPARE_BLOCKED ? (double)t->blocked : row == COMPARE_FIRST_WINS ? t->first_wins
                                                                                        : (double)t->doubles_left;
    n = row == COMPARE_BLOCKED ? (double)t->rounds : row == COMPARE_FIRST_WINS ? (double)t->matches
                                                                               : (double)t->doubles;
    *value = n > 0 ? k / n : 0;
    *se = n > 0 ? sqrt(*value * (1 - *value) / n) : 0;
}

bool compare_row_is_share(enum compare_row row)
{
    return row == COMPARE_BLOCKED || row == COMPARE_FIRST_WINS || row == COMPARE_DOUBLES_LEFT;
}

struct compare_figure compare_figure_of(const struct compare_tally *t, enum compare_row row)
{
    if (row == COMPARE_BLOCKED) return wilson((double)t->blocked, (double)t->rounds);
    if (row == COMPARE_FIRST_WINS) return wilson(t->first_wins, (double)t->matches);
    if (row == COMPARE_DOUBLES_LEFT) return wilson((double)t->doubles_left, (double)t->doubles);
    double value, se;
    value_and_error(t, row, &value, &se);
    struct compare_figure f = {value, value - Z95 * se, value + Z95 * se};
    if (f.low < 0) f.low = 0;
    return f;
}

struct compare_figure compare_difference(const struct compare_tally *a, const struct compare_tally *b,
                                         enum compare_row row)
{
    double va, sa, vb, sb;
    value_and_error(a, row, &va, &sa);
    value_and_error(b, row, &vb, &sb);
    double half = Z95 * sqrt(sa * sa + sb * sb);
    struct compare_figure f = {vb - va, vb - va - half, vb - va + half};
    return f;
}

const char *compare_row_name(enum compare_row row)
{
    static const char *const names[COMPARE_ROWS] = {
        [COMPARE_MEAN_TOTAL] = "mean total",
        [COMPARE_SPREAD] = "spread of totals (sd)",
        [COMPARE_BLOCKED] = "rounds blocked",
        [COMPARE_MOVES] = "moves per round",
        [COMPARE_FIRST_WINS] = "first seat wins",
        [COMPARE_DOUBLES_LEFT] = "doubles left uncovered",
    };
    return row >= 0 && row < COMPARE_ROWS ? names[row] : "?";
}
