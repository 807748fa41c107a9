/* Statistics over journal lines: the duplicate margin and its interval over deals. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "stats_json.h"

#define STATS_SEATS 16
#define STATS_BOTS 64
#define STATS_KINDS 8

static const char *const kinds[STATS_KINDS] = {"none", "start", "timeout", "crash", "garbled", "illegal", "flood", "stalled"};

struct srow {
    long deal;
    int n;
    int bot[STATS_SEATS];
    double adj[STATS_SEATS], raw[STATS_SEATS];
    int rank[STATS_SEATS];
    int fault[STATS_SEATS];
    long decisions[STATS_SEATS];
    double ms[STATS_SEATS], max_ms[STATS_SEATS];
    char key[64];
};

struct stats {
    char names[STATS_BOTS][24];
    int nbots;
    struct srow *rows;
    long nrows, cap;
    char *plan;                     /* the plan's text, as the first run line had it */
    bool high;                      /* positive scoring: higher totals are better */
    long abandoned;
};

struct stats *stats_new(void)
{
    struct stats *st = mt_malloc(sizeof *st);
    if (st) memset(st, 0, sizeof *st);
    return st;
}

void stats_free(struct stats *st)
{
    if (!st) return;
    free(st->rows);
    free(st->plan);
    free(st);
}

static int bot_index(struct stats *st, const char *name)
{
    for (int i = 0; i < st->nbots; i++)
        if (strcmp(st->names[i], name) == 0) return i;
    size_t len = strlen(name);
    if (st->nbots == STATS_BOTS || len == 0 || len > 16) return -1;
    for (size_t i = 0; i < len; i++)        /* bot names are player names: safe to print */
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
            return -1;
    snprintf(st->names[st->nbots], sizeof st->names[0], "%s", name);
    return st->nbots++;
}

static bool fail(char *err, size_t size, const char *what)
{
    snprintf(err, size, "%s", what);
    return false;
}

static bool add_run(struct stats *st, const char *line, const struct stats_json *d, char *err, size_t size)
{
    const struct stats_json_value *plan = stats_json_get(d, &d->v[0], "plan");
    if (!plan) return fail(err, size, "a run line without its plan");
    size_t n = plan->end - plan->start;
    if (st->plan) {
        if (strlen(st->plan) != n || memcmp(st->plan, line + plan->start, n) != 0)
            return fail(err, size, "the journals belong to different plans");
        return true;
    }
    st->plan = mt_malloc(n + 1);
    if (!st->plan) return fail(err, size, "out of memory");
    memcpy(st->plan, line + plan->start, n);
    st->plan[n] = '\0';
    const struct stats_json_value *scoring = stats_json_get(d, plan, "scoring");
    st->high = scoring && scoring->type == STATS_JSON_STR && strcmp(scoring->str, "positive") == 0;
    return true;
}

static bool add_match(struct stats *st, const struct stats_json *d, char *err, size_t size)
{
    const struct stats_json_value *root = &d->v[0];
    const struct stats_json_value *status = stats_json_get(d, root, "status"), *key = stats_json_get(d, root, "key");
    const struct stats_json_value *players = stats_json_get(d, root, "players"), *bots = stats_json_get(d, root, "bots");
    const struct stats_json_value *deal = stats_json_get(d, root, "deal");
    if (!status || status->type != STATS_JSON_STR || !key || key->type != STATS_JSON_STR || !players || !bots || !deal)
        return fail(err, size, "a match line without status, key, players, bots or deal");
    for (long i = 0; i < st->nrows; i++)
        if (strcmp(st->rows[i].key, key->str) == 0) return true;      /* counted once */
    if (strcmp(status->str, "ended") != 0) {
        st->abandoned++;
        return true;
    }
    struct srow r;
    memset(&r, 0, sizeof r);
    snprintf(r.key, sizeof r.key, "%s", key->str);
    r.deal = (long)deal->num;
    r.n = stats_json_count(d, players);
    if (r.n < 2 || r.n > STATS_SEATS || stats_json_count(d, bots) != r.n) return fail(err, size, "bad players or bots");
    const struct stats_json_value *adj = stats_json_get(d, root, "adjudicated");
    const struct stats_json_value *raw = stats_json_get(d, root, "totals"), *ranks = stats_json_get(d, root, "ranks");
    const struct stats_json_value *clock = stats_json_get(d, root, "clock"), *faults = stats_json_get(d, root, "faults");
    for (int s = 0; s < r.n; s++) {
        const struct stats_json_value *name = stats_json_at(d, players, s), *bot = stats_json_at(d, bots, s);
        if (!name || name->type != STATS_JSON_STR || !bot || bot->type != STATS_JSON_STR)
            return fail(err, size, "bad players or bots");
        if ((r.bot[s] = bot_index(st, bot->str)) < 0) return fail(err, size, "a bad bot name, or too many bots");
        const struct stats_json_value *a = stats_json_get(d, adj, name->str), *t = stats_json_get(d, raw, name->str);
        const struct stats_json_value *k = stats_json_get(d, ranks, name->str);
        if (!a || !t || !k || a->type != STATS_JSON_NUM || t->type != STATS_JSON_NUM || k->type != STATS_JSON_NUM)
            return fail(err, size, "a match line without totals, adjudicated totals or ranks");
        r.adj[s] = a->num;
        r.raw[s] = t->num;
        r.rank[s] = (int)k->num;
        const struct stats_json_value *c = stats_json_get(d, clock, name->str);
        if (c) {
            const struct stats_json_value *dec = stats_json_get(d, c, "decisions"), *ms = stats_json_get(d, c, "ms");
            const struct stats_json_value *mx = stats_json_get(d, c, "max_ms");
            if (dec) r.decisions[s] = (long)dec->num;
            if (ms) r.ms[s] = ms->num;
            if (mx) r.max_ms[s] = mx->num;
        }
    }
    for (int i = 0; i < stats_json_count(d, faults); i++) {
        const struct stats_json_value *f = stats_json_at(d, faults, i);
        const struct stats_json_value *seat = stats_json_get(d, f, "seat"), *kind = stats_json_get(d, f, "kind");
        if (!seat || !kind || seat->type != STATS_JSON_STR || kind->type != STATS_JSON_STR) continue;
        for (int s = 0; s < r.n; s++) {
            const struct stats_json_value *name = stats_json_at(d, players, s);
            if (strcmp(name->str, seat->str) != 0) continue;
            for (int k = 1; k < STATS_KINDS; k++)
                if (strcmp(kinds[k], kind->str) == 0) r.fault[s] = k;
        }
    }
    if (st->nrows == st->cap) {
        long cap = st->cap ? st->cap * 2 : 256;
        struct srow *rows = mt_realloc(st->rows, (size_t)cap * sizeof *rows);
        if (!rows) return fail(err, size, "out of memory");
        st->rows = rows;
        st->cap = cap;
    }
    st->rows[st->nrows++] = r;
    return true;
}

bool stats_add_line(struct stats *st, const char *line, size_t len, char *err, size_t errsize)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
    if (i == len) return true;
    struct stats_json d;
    if (!stats_json_parse(&d, line, len)) return fail(err, errsize, "not a JSON line");
    const struct stats_json_value *event = stats_json_get(&d, &d.v[0], "event");
    bool ok = true;
    if (!event || event->type != STATS_JSON_STR) ok = fail(err, errsize, "a line without its event");
    else if (strcmp(event->str, "run") == 0) ok = add_run(st, line, &d, err, errsize);
    else if (strcmp(event->str, "match") == 0) ok = add_match(st, &d, err, errsize);
    stats_json_free(&d);
    return ok;
}

double stats_t975(long df)
{
    static const double table[] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                   2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                   2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1) return NAN;
    if (df <= 30) return table[df];
    double z = 1.959964, n = (double)df;     /* Cornish-Fisher expansion: good to 1e-4 past 30 */
    return z + (z * z * z + z) / (4 * n) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

/* Mean and 95% half-width of x[0..n). */
static void mean_ci(const double *x, long n, double *mean, double *ci)
{
    double sum = 0, sq = 0;
    for (long i = 0; i < n; i++) sum += x[i];
    *mean = n ? sum / (double)n : NAN;
    for (long i = 0; i < n; i++) sq += (x[i] - *mean) * (x[i] - *mean);
    *ci = n > 1 ? stats_t975(n - 1) * sqrt(sq / (double)(n - 1)) / sqrt((double)n) : NAN;
}

static int by_deal(const void *a, const void *b)
{
    const struct srow *x = a, *y = b;
    if (x->deal != y->deal) return x->deal < y->deal ? -1 : 1;
    return strcmp(x->key, y->key);
}

int stats_nbots(const struct stats *st) { return st->nbots; }

/* The hand of seat s in match a against the same hand in match o: 1 beaten, 1/2 a tie,
 * 0 lost; a forfeit (any fault but start, which stops the run) loses to a real game. */
static double matchpoint(const struct stats *st, const struct srow *a, const struct srow *o, int s)
{
    bool fa = a->fault[s] > 1, fo = o->fault[s] > 1;
    if (fa != fo) return fa ? 0 : 1;
    if (a->adj[s] == o->adj[s]) return 0.5;
    return (st->high ? a->adj[s] > o->adj[s] : a->adj[s] < o->adj[s]) ? 1 : 0;
}

bool stats_bot(const struct stats *st, int b, struct stats_bot *out)
{
    if (b < 0 || b >= st->nbots) return false;
    memset(out, 0, sizeof *out);
    out->name = st->names[b];
    struct srow *rows = mt_malloc((size_t)(st->nrows ? st->nrows : 1) * sizeof *rows);
    double *per_deal = mt_malloc((size_t)(st->nrows + 1) * sizeof(double));
    double *per_match = mt_malloc((size_t)(st->nrows + 1) * sizeof(double));
    double *mp_deal = mt_malloc((size_t)(st->nrows + 1) * sizeof(double));
    if (!rows || !per_deal || !per_match || !mp_deal) {
        free(rows);
        free(per_deal);
        free(per_match);
        free(mp_deal);
        return false;
    }
    memcpy(rows, st->rows, (size_t)st->nrows * sizeof *rows);
    qsort(rows, (size_t)st->nrows, sizeof *rows, by_deal);
    long ndeals = 0, nmatches = 0, nmp = 0;
    double ms = 0;
    for (long i = 0; i < st->nrows;) {
        long j = i;
        while (j < st->nrows && rows[j].deal == rows[i].deal) j++;
        /* the datum of each seat's hand: the mean over every match of the deal */
        double sum_margin = 0;
        long held = 0;
        for (int s = 0; s < STATS_SEATS; s++) {
            double datum = 0;
            long k = 0;
            for (long m = i; m < j; m++)
                if (s < rows[m].n) { datum += rows[m].adj[s]; k++; }
            if (!k) continue;
            datum /= (double)k;
            for (long m = i; m < j; m++)
                if (s < rows[m].n && rows[m].bot[s] == b) { sum_margin += rows[m].adj[s] - datum; held++; }
        }
        if (held) per_deal[ndeals++] = sum_margin / (double)held;
        /* matchpoints: each hand b held, against every other holder of that hand */
        double sum_mp = 0;
        long hands = 0;
        for (int s = 0; s < STATS_SEATS; s++)
            for (long m = i; m < j; m++) {
                if (s >= rows[m].n || rows[m].bot[s] != b) continue;
                double points = 0;
                long versus = 0;
                for (long o = i; o < j; o++) {
                    if (o == m || s >= rows[o].n) continue;
                    versus++;
                    points += matchpoint(st, &rows[m], &rows[o], s);
                }
                if (versus) { sum_mp += points / (double)versus; hands++; }
            }
        if (hands) mp_deal[nmp++] = 100 * sum_mp / (double)hands;
        for (long m = i; m < j; m++) {
            const struct srow *r = &rows[m];
            int seats = 0, winners = 0;
            double total = 0, place = 0;
            bool won = false;
            for (int s = 0; s < r->n; s++) {
                if (r->rank[s] == 1) winners++;
                if (r->bot[s] != b) continue;
                seats++;
                total += r->adj[s];
                place += r->rank[s];
                won |= r->rank[s] == 1;
                if (r->fault[s]) out->faults[r->fault[s]]++;
                out->decisions += r->decisions[s];
                ms += r->ms[s];
                if (r->max_ms[s] > out->max_ms) out->max_ms = r->max_ms[s];
            }
            if (!seats) continue;
            per_match[nmatches++] = total / seats;
            out->placement += place / seats;
            if (won && winners) out->win_share += 1.0 / winners;
        }
        i = j;
    }
    out->matches = nmatches;
    out->deals = ndeals;
    if (nmatches) {
        out->placement /= (double)nmatches;
        out->win_share /= (double)nmatches;
    }
    out->mean_ms = out->decisions ? ms / (double)out->decisions : 0;
    mean_ci(per_deal, ndeals, &out->margin, &out->margin_ci);
    mean_ci(per_match, nmatches, &out->total, &out->total_ci);
    mean_ci(mp_deal, nmp, &out->mp, &out->mp_ci);
    free(mp_deal);
    free(rows);
    free(per_deal);
    free(per_match);
    return true;
}

/* A bot's mean adjudicated total in one match, or NAN when it did not sit there. */
static double mean_in(const struct srow *r, int b)
{
    double t = 0;
    int k = 0;
    for (int s = 0; s < r->n; s++)
        if (r->bot[s] == b) { t += r->adj[s]; k++; }
    return k ? t / k : NAN;
}

bool stats_pair(const struct stats *st, int a, int b, double *diff, double *ci, double *beat, long *deals)
{
    double *per_deal = mt_malloc((size_t)(st->nrows + 1) * sizeof(double));
    struct srow *rows = mt_malloc((size_t)(st->nrows ? st->nrows : 1) * sizeof *rows);
    if (!per_deal || !rows) {
        free(per_deal);
        free(rows);
        return false;
    }
    memcpy(rows, st->rows, (size_t)st->nrows * sizeof *rows);
    qsort(rows, (size_t)st->nrows, sizeof *rows, by_deal);
    long nd = 0, shared = 0;
    double beats = 0;
    for (long i = 0; i < st->nrows;) {
        long j = i, k = 0;
        double sum = 0;
        while (j < st->nrows && rows[j].deal == rows[i].deal) j++;
        for (long m = i; m < j; m++) {
            double ta = mean_in(&rows[m], a), tb = mean_in(&rows[m], b);
            if (isnan(ta) || isnan(tb)) continue;
            sum += tb - ta;
            k++;
            shared++;
            bool a_better = st->high ? ta > tb : ta < tb;
            beats += a_better ? 1 : ta == tb ? 0.5 : 0;
        }
        if (k) per_deal[nd++] = sum / (double)k;
        i = j;
    }
    mean_ci(per_deal, nd, diff, ci);
    *beat = shared ? beats / (double)shared : NAN;
    *deals = nd;
    free(per_deal);
    free(rows);
    return nd > 0;
}

static void print_pm(FILE *out, double mean, double ci)
{
    if (isnan(mean)) fprintf(out, "  %7s %6s", "-", "");
    else if (isnan(ci)) fprintf(out, "  %+7.1f %6s", mean, "");
    else fprintf(out, "  %+7.1f ±%5.1f", mean, ci);
}

/* A share in percent: no sign. */
static void print_pct(FILE *out, double mean, double ci)
{
    if (isnan(mean)) fprintf(out, "  %7s %6s", "-", "");
    else if (isnan(ci)) fprintf(out, "  %7.1f %6s", mean, "");
    else fprintf(out, "  %7.1f ±%5.1f", mean, ci);
}

void stats_print(const struct stats *st, FILE *out)
{
    long deals = 0;
    for (long i = 0; i < st->nrows; i++) {
        bool seen = false;
        for (long j = 0; j < i && !seen; j++) seen = st->rows[j].deal == st->rows[i].deal;
        deals += !seen;
    }
    fprintf(out, "mtref match: %ld matches over %ld deals", st->nrows, deals);
    if (st->abandoned) fprintf(out, " (%ld abandoned, not counted)", st->abandoned);
    fprintf(out, "; margins and intervals over deals; %s totals are better\n", st->high ? "higher" : "lower");
    fprintf(out, "  %-16s %7s %6s %6s  %15s  %15s  %15s  %-22s %8s %7s %7s\n", "bot", "matches", "win%", "place",
            "dup.margin ±95%", "MP% ±95%", "total ±95%", "faults S/T/C/G/I/F/St", "decided", "ms/dec", "max ms");
    double ratio = 0;
    int nratio = 0;
    for (int b = 0; b < st->nbots; b++) {
        struct stats_bot s;
        if (!stats_bot(st, b, &s)) continue;
        fprintf(out, "  %-16s %7ld %6.1f %6.2f", s.name, s.matches, 100 * s.win_share, s.placement);
        print_pm(out, s.margin, s.margin_ci);
        fprintf(out, " ");
        print_pct(out, s.mp, s.mp_ci);
        fprintf(out, " ");
        print_pm(out, s.total, s.total_ci);
        char f[64];
        snprintf(f, sizeof f, "%ld/%ld/%ld/%ld/%ld/%ld/%ld", s.faults[1], s.faults[2], s.faults[3], s.faults[4],
                 s.faults[5], s.faults[6], s.faults[7]);
        fprintf(out, "  %-22s %8ld %7.2f %7.1f\n", f, s.decisions, s.mean_ms, s.max_ms);
        if (s.margin_ci > 0 && s.total_ci > 0) {
            ratio += s.margin_ci / s.total_ci;
            nratio++;
        }
    }
    bool header = false;
    for (int a = 0; a < st->nbots; a++)
        for (int b = a + 1; b < st->nbots; b++) {
            double d, ci, beat;
            long nd;
            if (!stats_pair(st, a, b, &d, &ci, &beat, &nd)) continue;
            if (!header) {
                fprintf(out, "pairs (second minus first, mean total per match, ±95%% over deals; first's beat rate):\n");
                header = true;
            }
            fprintf(out, "  %-16s %-16s", st->names[a], st->names[b]);
            print_pm(out, d, ci);
            fprintf(out, "  %5.1f%%\n", 100 * beat);
        }
    if (nratio)
        fprintf(out, "duplicate efficiency: the margin's interval is %.2f as wide as the raw totals' (mean over bots)\n",
                ratio / nratio);
}

/* ,"key":x (null when x is not a number) */
static void json_field(FILE *out, const char *key, double x)
{
    fprintf(out, ",\"%s\":", key);
    if (isnan(x) || isinf(x)) fputs("null", out);
    else fprintf(out, "%.4f", x);
}

void stats_print_json(const struct stats *st, FILE *out)
{
    fprintf(out, "{\"event\":\"summary\",\"matches\":%ld,\"abandoned\":%ld,\"bots\":[", st->nrows, st->abandoned);
    for (int b = 0; b < st->nbots; b++) {
        struct stats_bot s;
        if (!stats_bot(st, b, &s)) continue;
        fprintf(out, "%s{\"bot\":\"%s\",\"matches\":%ld,\"deals\":%ld", b ? "," : "", s.name, s.matches, s.deals);
        json_field(out, "win_share", s.win_share);
        json_field(out, "placement", s.placement);
        json_field(out, "margin", s.margin);
        json_field(out, "margin_ci", s.margin_ci);
        json_field(out, "mp", s.mp);
        json_field(out, "mp_ci", s.mp_ci);
        json_field(out, "total", s.total);
        json_field(out, "total_ci", s.total_ci);
        fputs(",\"faults\":{", out);
        for (int k = 1; k < STATS_KINDS; k++) fprintf(out, "%s\"%s\":%ld", k > 1 ? "," : "", kinds[k], s.faults[k]);
        fprintf(out, "},\"decisions\":%ld", s.decisions);
        json_field(out, "mean_ms", s.mean_ms);
        json_field(out, "max_ms", s.max_ms);
        fputs("}", out);
    }
    fputs("],\"pairs\":[", out);
    bool first = true;
    for (int a = 0; a < st->nbots; a++)
        for (int b = a + 1; b < st->nbots; b++) {
            double d, ci, beat;
            long nd;
            if (!stats_pair(st, a, b, &d, &ci, &beat, &nd)) continue;
            fprintf(out, "%s{\"a\":\"%s\",\"b\":\"%s\",\"deals\":%ld", first ? "" : ",", st->names[a], st->names[b], nd);
            json_field(out, "diff", d);
            json_field(out, "ci", ci);
            json_field(out, "beat_rate", beat);
            fputs("}", out);
            first = false;
        }
    fputs("]}\n", out);
}
