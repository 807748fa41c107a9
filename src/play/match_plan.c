/* A run of matches: tables, deals, seatings, the journal, resuming, -j workers. */
#include "match_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "clock.h"
#include "pipe.h"
#include "protocol.h"
#include "rng.h"
#include "stats.h"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    if (interrupted) {               /* the second one: now, bots die with us (PDEATHSIG) */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    interrupted = 1;
}

void match_plan_defaults(struct match_plan *p)
{
    memset(p, 0, sizeof *p);
    p->seating = SEATING_ROTATE;
    p->swap_a = p->swap_b = -1;
    p->deals = 100;
    p->jobs = 1;
    match_config_defaults(&p->config);
}

int match_plan_find_bot(const struct match_plan *p, const char *name, size_t len)
{
    for (int i = 0; i < p->nbots; i++)
        if (strlen(p->bots[i].name) == len && memcmp(p->bots[i].name, name, len) == 0) return i;
    return -1;
}

/* A player name made of a command's first word: its basename, cut to what names allow. */
static void name_from_command(const char *cmd, char *out)
{
    size_t len = strcspn(cmd, " \t");
    const char *base = cmd;
    for (size_t i = 0; i < len; i++)
        if (cmd[i] == '/') base = cmd + i + 1;
    size_t k = 0;
    for (const char *c = base; c < cmd + len && k < NAME_MAX_LEN; c++) {
        char ch = *c;
        if (ch == '.') break;                      /* bot.py -> bot */
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        if (k == 0 && !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) continue;
        out[k++] = ok ? ch : '_';
    }
    out[k] = '\0';
    if (k == 0 || !protocol_is_name(out, k)) snprintf(out, NAME_MAX_LEN + 1, "bot");
}

bool match_plan_add_bot(struct match_plan *p, const char *spec, char *err)
{
    if (p->nbots == MATCH_MAX_BOTS) {
        snprintf(err, 200, "at most %d bots", MATCH_MAX_BOTS);
        return false;
    }
    struct match_bot *b = &p->bots[p->nbots];
    memset(b, 0, sizeof *b);
    const char *eq = strchr(spec, '=');
    const char *body = spec;
    if (eq && eq > spec && strcspn(spec, " \t/") > (size_t)(eq - spec)) {
        size_t len = (size_t)(eq - spec);
        if (!protocol_is_name(spec, len)) {
            snprintf(err, 200, "'%.*s' is not a player name (1-16 of A-Za-z0-9_, a letter first, no keyword)",
                     (int)(len > 40 ? 40 : len), spec);
            return false;
        }
        memcpy(b->name, spec, len);
        b->name[len] = '\0';
        body = eq + 1;
    }
    if (strncmp(body, "builtin:", 8) == 0) {
        int kind = bot_parse(body + 8, (int)strlen(body + 8));
        if (kind < 0) {
            snprintf(err, 200, "unknown built-in '%s' (builtin:greedy, builtin:random)", body);
            return false;
        }
        b->builtin = (enum bot_kind)kind;
        if (!b->name[0]) snprintf(b->name, sizeof b->name, "%s", bot_name(b->builtin));
    } else {
        if (!*body) {
            snprintf(err, 200, "an empty bot command");
            return false;
        }
        b->cmd = body;
        if (!b->name[0]) name_from_command(body, b->name);
    }
    /* a name taken: a digit suffix, as a table of two "greedy" would want */
    char base[NAME_MAX_LEN + 1];
    snprintf(base, sizeof base, "%s", b->name);
    for (int k = 2; match_plan_find_bot(p, b->name, strlen(b->name)) >= 0; k++) {
        if (eq && body != spec) {
            snprintf(err, 200, "two bots named %s", b->name);
            return false;
        }
        snprintf(b->name, sizeof b->name, "%.13s%d", base, k);
    }
    p->nbots++;
    return true;
}

/* ---- tables ---- */

struct tables {
    int n, size;
    int seats[MATCH_MAX_TABLES][RULES_MAX_PLAYERS];
};

static void combinations(struct tables *t, int k, int from, int start, int *pick, int depth, int size, int fixed)
{
    if (t->n == MATCH_MAX_TABLES) return;
    if (depth == size) {
        memcpy(t->seats[t->n++], pick, sizeof(int) * (size_t)size);
        return;
    }
    for (int i = start; i < k; i++) {
        if (i == fixed) continue;
        pick[depth] = i;
        combinations(t, k, from, i + 1, pick, depth + 1, size, fixed);
    }
}

static bool build_tables(const struct match_plan *p, struct tables *t, char *err)
{
    t->n = 0;
    t->size = p->players;
    int pick[RULES_MAX_PLAYERS];
    if (p->ntable) {
        memcpy(t->seats[0], p->table, sizeof(int) * (size_t)p->ntable);
        t->n = 1;
    } else if (p->tournament == TOURNAMENT_TABLE) {
        for (int s = 0; s < p->players; s++) t->seats[0][s] = s % p->nbots;   /* cycled to fill */
        t->n = 1;
    } else if (p->tournament == TOURNAMENT_ROUNDROBIN) {
        if (p->nbots < p->players) { snprintf(err, 200, "a round robin needs at least %d bots", p->players); return false; }
        combinations(t, p->nbots, 0, 0, pick, 0, p->players, -1);
    } else {
        if (p->nbots < p->players) { snprintf(err, 200, "a gauntlet needs at least %d bots", p->players); return false; }
        pick[0] = 0;
        combinations(t, p->nbots, 0, 1, pick, 1, p->players, 0);
    }
    if (t->n == MATCH_MAX_TABLES) {
        snprintf(err, 200, "more than %d tables: use fewer bots or --table", MATCH_MAX_TABLES - 1);
        return false;
    }
    return true;
}

/* ---- the schedule ---- */

struct slot {
    long deal;
    int table, seating, swap;
};

static int seatings(const struct match_plan *p) { return p->seating == SEATING_ROTATE ? p->players : 1; }
static int swaps(const struct match_plan *p) { return p->swap_a >= 0 ? 2 : 1; }

static long total_matches(const struct match_plan *p, const struct tables *t)
{
    return p->deals * t->n * seatings(p) * swaps(p);
}

static struct slot slot_of(const struct match_plan *p, const struct tables *t, long i)
{
    struct slot s;
    s.swap = (int)(i % swaps(p));
    i /= swaps(p);
    s.seating = (int)(i % seatings(p));
    i /= seatings(p);
    s.table = (int)(i % t->n);
    s.deal = p->first_deal + i / t->n;
    return s;
}

static void slot_key(const struct slot *s, char *out, size_t size)
{
    snprintf(out, size, "d%06ld-t%02d-s%d-w%d", s->deal, s->table, s->seating, s->swap);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (0x9E3779B97F4A7C15ULL * (b + 1));
    rng_next(&s);
    return rng_next(&s);
}

static uint64_t deal_seed(const struct match_plan *p, long deal) { return mix(p->seed, (uint64_t)deal); }

/* ---- what the journal says about the run ---- */

/* FNV-1a of the bot's executable (its command's first word, found on PATH): a changed
 * build is a different bot. 0 when the file cannot be read. */
static uint64_t executable_hash(const char *cmd)
{
    char word[1024], path[4096];
    size_t len = strcspn(cmd, " \t");
    if (len >= sizeof word) return 0;
    memcpy(word, cmd, len);
    word[len] = '\0';
    int fd = -1;
    if (strchr(word, '/')) {
        fd = open(word, O_RDONLY);
    } else {
        const char *dirs = getenv("PATH");
        while (dirs && *dirs && fd < 0) {
            size_t n = strcspn(dirs, ":");
            snprintf(path, sizeof path, "%.*s/%s", (int)n, dirs, word);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) fd = open(path, O_RDONLY);
            dirs += n + (dirs[n] == ':');
        }
    }
    if (fd < 0) return 0;
    uint64_t h = 0xcbf29ce484222325ULL;
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++) h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
    close(fd);
    return h;
}

static void put_duration(struct mbuf *b, const char *key, int64_t us)
{
    mbuf_put(b, "\"%s\":", key);
    if (us < 0) mbuf_put(b, "null");
    else mbuf_put(b, "%lld", (long long)(us / 1000));
}

/* The plan, as JSON: everything that decides the matches but the deal range. */
static void plan_json(const struct match_plan *p, const struct tables *t, const struct rules *rules, struct mbuf *b)
{
    const struct match_config *c = &p->config;
    mbuf_put(b, "{\"seed\":\"0x%016llx\",\"players\":%d,\"rounds\":%d,\"rules\":[", (unsigned long long)p->seed,
             p->players, p->rounds);
    for (int i = 0; i < p->nrules; i++) {
        if (i) mbuf_put(b, ",");
        mbuf_json_string(b, p->rules[i], strlen(p->rules[i]));
    }
    mbuf_put(b, "],\"scoring\":\"%s\",\"seating\":\"%s\",\"swap\":", rules->scoring == SCORING_POSITIVE ? "positive" : "penalty",
             p->seating == SEATING_ROTATE ? "rotate" : "none");
    if (p->swap_a >= 0) mbuf_put(b, "[\"%s\",\"%s\"]", p->bots[p->swap_a].name, p->bots[p->swap_b].name);
    else mbuf_put(b, "null");
    mbuf_put(b, ",\"anonymous\":%s,\"tables\":[", p->anonymous ? "true" : "false");
    for (int i = 0; i < t->n; i++) {
        mbuf_put(b, "%s[", i ? "," : "");
        for (int s = 0; s < t->size; s++) mbuf_put(b, "%s\"%s\"", s ? "," : "", p->bots[t->seats[i][s]].name);
        mbuf_put(b, "]");
    }
    mbuf_put(b, "],\"time\":{");
    put_duration(b, "init_ms", c->init_us);
    mbuf_put(b, ",");
    put_duration(b, "move_ms", c->move_us);
    mbuf_put(b, ",");
    put_duration(b, "bank_ms", c->move_us < 0 ? -1 : c->bank_us);
    mbuf_put(b, ",");
    put_duration(b, "margin_ms", c->margin_us);
    mbuf_put(b, "},\"on_fault\":\"%s\",\"recover\":%s,\"fallback\":\"%s\",\"ask_forced\":%s,\"bots\":{",
             c->policy == POLICY_STOP ? "stop" : "forfeit", c->recover ? "true" : "false", bot_name(c->fallback),
             c->ask_forced ? "true" : "false");
    for (int i = 0; i < p->nbots; i++) {
        const struct match_bot *bot = &p->bots[i];
        mbuf_put(b, "%s\"%s\":", i ? "," : "", bot->name);
        if (bot->cmd) {
            mbuf_put(b, "{\"cmd\":");
            mbuf_json_string(b, bot->cmd, strlen(bot->cmd));
            mbuf_put(b, ",\"proto\":\"%s\"}", bot->form == PROTO_JSON ? "json" : "text");
        } else {
            mbuf_put(b, "{\"builtin\":\"%s\"}", bot_name(bot->builtin));
        }
    }
    mbuf_put(b, "}}");
}

static void run_line(const struct match_plan *p, const char *plan, struct mbuf *b)
{
    mbuf_put(b, "{\"event\":\"run\",\"version\":1,\"first_deal\":%ld,\"deals\":%ld,\"plan\":%s,\"executables\":{",
             p->first_deal, p->deals, plan);
    bool first = true;
    for (int i = 0; i < p->nbots; i++) {
        if (!p->bots[i].cmd) continue;
        mbuf_put(b, "%s\"%s\":\"fnv1a64:%016llx\"", first ? "" : ",", p->bots[i].name,
                 (unsigned long long)executable_hash(p->bots[i].cmd));
        first = false;
    }
    mbuf_put(b, "}}\n");
}

/* ---- one match ---- */

struct run {
    struct match_plan *p;
    struct tables *t;
    const struct rules *rules;
    const char *plan_text;
    char records_dir[4096], logs_dir[4096];
};

static void escape_ascii(const char *s, char *out, size_t size)
{
    size_t k = 0;
    for (; *s && k + 5 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f) out[k++] = (char)c;
        else k += (size_t)snprintf(out + k, size - k, "\\x%02x", c);
    }
    out[k] = '\0';
}

/* Seat names: bot names (a digit suffix when a bot holds two seats), or p1..pN. */
static void seat_names(const struct run *r, const int bots[], int n, char names[][NAME_MAX_LEN + 1])
{
    for (int s = 0; s < n; s++) {
        if (r->p->anonymous) {
            snprintf(names[s], NAME_MAX_LEN + 1, "p%d", s + 1);
            continue;
        }
        const char *base = r->p->bots[bots[s]].name;
        snprintf(names[s], NAME_MAX_LEN + 1, "%s", base);
        for (int k = 2;; k++) {
            bool taken = false;
            for (int o = 0; o < s && !taken; o++) taken = strcmp(names[o], names[s]) == 0;
            if (!taken) break;
            snprintf(names[s], NAME_MAX_LEN + 1, "%.13s_%d", base, k);
        }
    }
}

static void put_map(struct mbuf *b, int n, char names[][NAME_MAX_LEN + 1], const int64_t *v)
{
    mbuf_put(b, "{");
    for (int s = 0; s < n; s++) mbuf_put(b, "%s\"%s\":%lld", s ? "," : "", names[s], (long long)v[s]);
    mbuf_put(b, "}");
}

/* Plays match i of the schedule; its journal line into line. Returns 0, or 2 with err. */
static int play_one(struct run *r, long i, struct mbuf *line, struct match_result *res, char *err)
{
    struct match_plan *p = r->p;
    struct slot sl = slot_of(p, r->t, i);
    char key[64];
    slot_key(&sl, key, sizeof key);
    int n = p->players, bots[RULES_MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        int b = r->t->seats[sl.table][(s + sl.seating) % n];
        if (sl.swap && b == p->swap_a) b = p->swap_b;
        else if (sl.swap && b == p->swap_b) b = p->swap_a;
        bots[s] = b;
    }
    struct match_setup ms;
    memset(&ms, 0, sizeof ms);
    ms.nplayers = n;
    seat_names(r, bots, n, ms.names);
    uint64_t seed = deal_seed(p, sl.deal);
    char id[32], header[2048];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)mix(seed ^ p->seed, (uint64_t)i * 977 + 13));
    ms.id = id;
    ms.rounds = p->rounds;
    ms.deal_seed = seed;
    ms.log_name = key;
    for (int s = 0; s < n; s++) {
        ms.bots[s] = &p->bots[bots[s]];
        ms.bot_seeds[s] = mix(seed, (uint64_t)(sl.seating * 131 + sl.swap * 17 + s));
    }
    size_t h = (size_t)snprintf(header, sizeof header, "# mtref match: deal %ld (seed %llu), table %d, seating %d%s\n",
                                sl.deal, (unsigned long long)seed, sl.table, sl.seating, sl.swap ? ", swapped" : "");
    for (int s = 0; s < n && h < sizeof header - 300; s++) {
        char cmd[220];
        const struct match_bot *b = ms.bots[s];
        if (b->cmd) {
            char cut[100];
            snprintf(cut, sizeof cut, "%s", b->cmd);
            escape_ascii(cut, cmd, sizeof cmd);
        } else {
            snprintf(cmd, sizeof cmd, "builtin:%s", bot_name(b->builtin));
        }
        h += (size_t)snprintf(header + h, sizeof header - h, "# %s: %s = %s\n", ms.names[s], b->name, cmd);
    }
    ms.header = header;
    struct match_config config = p->config;
    if (r->logs_dir[0]) config.log_dir = r->logs_dir;
    struct mbuf record = {0};
    int64_t start = clock_us();
    int status = match_run(&ms, &config, r->rules, p->rules, p->nrules, &record, res, err);
    int64_t ms_taken = (clock_us() - start) / 1000;
    if (status != 0) {
        mbuf_free(&record);
        return status;
    }
    char rec_rel[128] = "";
    if (r->records_dir[0] && res->ended && !res->stop) {
        char path[4200], tmp[4300];
        snprintf(rec_rel, sizeof rec_rel, "records/%s.mtr", key);
        snprintf(path, sizeof path, "%s/%s.mtr", r->records_dir, key);
        snprintf(tmp, sizeof tmp, "%s/.%s.mtr.tmp", r->records_dir, key);
        FILE *f = fopen(tmp, "w");
        bool ok = f && fwrite(record.data, 1, record.len, f) == record.len;
        if (f && fclose(f) != 0) ok = false;
        if (!ok || rename(tmp, path) != 0) {     /* a record appears whole, or not at all */
            snprintf(err, RULES_MESSAGE_SIZE, "cannot write %s: %s", path, strerror(errno));
            mbuf_free(&record);
            return 2;
        }
    } else if (r->records_dir[0] && record.len) {
        /* a stopped match: the record so far, for reproducing the fault */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.stopped.mtr", r->records_dir, key);
        FILE *f = fopen(path, "w");
        if (f) {
            fwrite(record.data, 1, record.len, f);
            fclose(f);
        }
    }
    mbuf_free(&record);
    /* the journal line */
    mbuf_put(line, "{\"event\":\"match\",\"key\":\"%s\",\"deal\":%ld,\"deal_seed\":\"%llu\",\"table\":%d,\"seating\":%d,"
             "\"swap\":%d,\"status\":\"%s\",\"players\":[",
             key, sl.deal, (unsigned long long)seed, sl.table, sl.seating, sl.swap,
             res->ended ? "ended" : res->stop ? "stopped" : "abandoned");
    for (int s = 0; s < n; s++) mbuf_put(line, "%s\"%s\"", s ? "," : "", ms.names[s]);
    mbuf_put(line, "],\"bots\":[");
    for (int s = 0; s < n; s++) mbuf_put(line, "%s\"%s\"", s ? "," : "", ms.bots[s]->name);
    mbuf_put(line, "],\"totals\":");
    put_map(line, n, ms.names, res->totals);
    if (res->ended) {
        mbuf_put(line, ",\"adjudicated\":");
        put_map(line, n, ms.names, res->adjudicated);
        int64_t ranks[RULES_MAX_PLAYERS];
        for (int s = 0; s < n; s++) ranks[s] = res->ranks[s];
        mbuf_put(line, ",\"ranks\":");
        put_map(line, n, ms.names, ranks);
        mbuf_put(line, ",\"winners\":[");
        bool first = true;
        for (int s = 0; s < n; s++)
            if (res->ranks[s] == 1) {
                mbuf_put(line, "%s\"%s\"", first ? "" : ",", ms.names[s]);
                first = false;
            }
        mbuf_put(line, "]");
    }
    mbuf_put(line, ",\"faults\":[");
    bool first = true;
    for (int s = 0; s < n; s++) {
        const struct seat_result *sr = &res->seats[s];
        if (sr->fault == FAULT_NONE) continue;
        const char *policy = sr->fault == FAULT_START ? "stop"
                             : p->config.policy == POLICY_STOP ? "stop"
                             : sr->fault == FAULT_CRASH && !p->config.recover ? "forfeit+stop" : "forfeit";
        mbuf_put(line, "%s{\"seat\":\"%s\",\"bot\":\"%s\",\"kind\":\"%s\",\"detail\":", first ? "" : ",", ms.names[s],
                 ms.bots[s]->name, match_fault_name(sr->fault));
        mbuf_json_string(line, sr->detail, strlen(sr->detail));
        mbuf_put(line, ",\"decision\":%ld,\"round\":%d,\"policy\":\"%s\",\"stderr_tail\":", sr->fault_decision,
                 sr->fault_round, policy);
        mbuf_json_string(line, sr->tail, strlen(sr->tail));
        mbuf_put(line, "}");
        first = false;
    }
    mbuf_put(line, "],\"clock\":{");
    first = true;
    for (int s = 0; s < n; s++) {
        const struct seat_result *sr = &res->seats[s];
        if (!ms.bots[s]->cmd) continue;
        mbuf_put(line, "%s\"%s\":{\"decisions\":%ld,\"ms\":%.3f,\"max_ms\":%.3f,\"near_misses\":%d,\"bank_left_ms\":%lld}",
                 first ? "" : ",", ms.names[s], sr->decisions, (double)sr->think_us / 1000.0, (double)sr->max_us / 1000.0,
                 sr->near_misses, (long long)(sr->bank_left_us / 1000));
        first = false;
    }
    mbuf_put(line, "},\"record\":");
    if (rec_rel[0]) mbuf_put(line, "\"%s\"", rec_rel);
    else mbuf_put(line, "null");
    mbuf_put(line, ",\"ms\":%lld}\n", (long long)ms_taken);
    return line->failed ? (snprintf(err, RULES_MESSAGE_SIZE, "out of memory"), 2) : 0;
}

/* "[37/800] d000009-t00-s1-w0: alice wins 98-140 (bob forfeits: timeout)" */
static void progress_line(FILE *out, long done, long total, const char *line)
{
    const char *key = strstr(line, "\"key\":\"");
    const char *status = strstr(line, "\"status\":\"");
    const char *winners = strstr(line, "\"winners\":[");
    const char *kind = strstr(line, "\"kind\":\"");
    fprintf(out, "[%ld/%ld] %.*s", done, total, key ? (int)strcspn(key + 7, "\"") : 1, key ? key + 7 : "?");
    if (status && strncmp(status + 10, "ended", 5) == 0 && winners) {
        size_t n = strcspn(winners + 11, "]");
        fputs(": winners ", out);
        for (size_t i = 0; i < n && i < 200; i++)
            if (winners[11 + i] != '"') putc(winners[11 + i] == ',' ? ' ' : winners[11 + i], out);
    } else if (status) {
        fprintf(out, ": %.9s", status + 10);
    }
    if (kind) {
        const char *seat = strstr(line, "\"faults\":[{\"seat\":\"");
        fprintf(out, " (fault: %.*s %.*s)", seat ? (int)strcspn(seat + 19, "\"") : 1, seat ? seat + 19 : "?",
                (int)strcspn(kind + 8, "\""), kind + 8);
    }
    putc('\n', out);
    fflush(out);
}

/* ---- the journal: state and results ---- */

struct journal {
    FILE *f;                        /* appended to; NULL without -o */
    char **done;                    /* keys already journaled */
    long ndone, cap;
    struct stats *stats;
};

static bool journal_has(const struct journal *j, const char *key)
{
    for (long i = 0; i < j->ndone; i++)
        if (strcmp(j->done[i], key) == 0) return true;
    return false;
}

static void journal_note(struct journal *j, const char *line, size_t len)
{
    char err[200];
    stats_add_line(j->stats, line, len, err, sizeof err);
    const char *key = strstr(line, "\"event\":\"match\",\"key\":\"");
    if (!key) return;
    key += 23;
    size_t n = strcspn(key, "\"");
    if (j->ndone == j->cap) {
        long cap = j->cap ? j->cap * 2 : 256;
        char **d = mt_realloc(j->done, (size_t)cap * sizeof *d);
        if (!d) return;
        j->done = d;
        j->cap = cap;
    }
    char *copy = mt_malloc(n + 1);
    if (!copy) return;
    memcpy(copy, key, n);
    copy[n] = '\0';
    j->done[j->ndone++] = copy;
}

static void journal_free(struct journal *j)
{
    if (j->f) fclose(j->f);
    for (long i = 0; i < j->ndone; i++) free(j->done[i]);
    free(j->done);
    stats_free(j->stats);
}

/* Reads an existing journal: checks its plan, notes its matches, cuts a torn last line.
 * Returns 0, or 2 with a message on progress. */
static int journal_resume(struct journal *j, const char *path, const struct match_plan *p, const char *run_text,
                          FILE *progress)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long good = 0, lineno = 0;
    int status = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n') break;                 /* torn by a kill: replayed */
        lineno++;
        if (lineno == 1) {
            const char *plan_at = strstr(line, "\"plan\":"), *mine = strstr(run_text, "\"plan\":");
            const char *exe_at = strstr(line, ",\"executables\":"), *my_exe = strstr(run_text, ",\"executables\":");
            if (!plan_at || !exe_at || strncmp(plan_at, mine, (size_t)(my_exe - mine)) != 0 ||
                plan_at + (my_exe - mine) != exe_at) {
                fprintf(progress, "mtref: match: %s holds another plan (seed, bots, tables, time or rules differ): "
                                  "use another --out, or --force to start over\n", path);
                status = 2;
                break;
            }
            if (strcmp(exe_at, my_exe) != 0 && !p->allow_changed_bots) {
                fprintf(progress, "mtref: match: a bot's executable changed since %s was started: "
                                  "--allow-changed-bots to go on anyway, --force to start over\n", path);
                status = 2;
                break;
            }
        }
        journal_note(j, line, (size_t)len);
        good = ftell(f);
    }
    free(line);
    fclose(f);
    if (status == 0 && truncate(path, good) != 0) {
        fprintf(progress, "mtref: match: %s: %s\n", path, strerror(errno));
        status = 2;
    }
    return status;
}

/* The seed a previous run of this directory used (so a rerun without --seed resumes). */
static bool journal_seed(const char *path, uint64_t *seed)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char buf[512];
    bool ok = false;
    if (fgets(buf, sizeof buf, f)) {
        const char *s = strstr(buf, "\"seed\":\"0x");
        if (s) {
            *seed = strtoull(s + 10, NULL, 16);
            ok = true;
        }
    }
    fclose(f);
    return ok;
}

static void journal_write(struct journal *j, const char *line, size_t len)
{
    if (j->f) {
        fwrite(line, 1, len, j->f);
        fflush(j->f);
    }
    journal_note(j, line, len);
}

/* ---- running ---- */

struct outcome {
    int status;                     /* 0, or the run's exit status */
    char reason[400];
};

/* Plays the pending matches i with i % jobs == worker, in order; each journal line goes
 * to emit. Stops early on a stopping fault or an interrupt. */
typedef void emit_fn(void *ctx, const char *line, size_t len);
static void play_share(struct run *r, const long *pending, long npending, int worker, int jobs, emit_fn *emit,
                       void *ctx, struct outcome *o)
{
    for (long k = worker; k < npending && !interrupted; k += jobs) {
        struct mbuf line = {0};
        struct match_result res;
        char err[RULES_MESSAGE_SIZE] = "";
        int status = play_one(r, pending[k], &line, &res, err);
        if (status != 0) {
            o->status = status;
            snprintf(o->reason, sizeof o->reason, "%s", err);
            mbuf_free(&line);
            match_result_free(&res);
            return;
        }
        if (!res.stop || res.stop_status != 2) emit(ctx, line.data, line.len);
        mbuf_free(&line);
        match_result_free(&res);
        if (res.stop) {
            o->status = res.stop_status;
            snprintf(o->reason, sizeof o->reason, "%s", res.stop_reason);
            return;
        }
    }
}

struct emit_direct {
    struct journal *j;
    FILE *progress, *out;
    long done, total;
    bool quiet, json;
};

static void emit_direct(void *ctx, const char *line, size_t len)
{
    struct emit_direct *e = ctx;
    journal_write(e->j, line, len);
    e->done++;
    if (!e->quiet) progress_line(e->progress, e->done, e->total, line);
    if (e->json) {
        fwrite(line, 1, len, e->out);
        fflush(e->out);
    }
}

static void emit_pipe(void *ctx, const char *line, size_t len)
{
    int fd = *(int *)ctx;
    while (len > 0) {
        ssize_t n = write(fd, line, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        line += n;
        len -= (size_t)n;
    }
}

struct worker_lines {
    struct emit_direct *e;
    struct outcome *o;
    pid_t *pids;
    int jobs;
};

/* A line from a worker: a journal line, or its reason to stop the run. */
static void worker_line(void *ctx, const char *line, size_t len, bool too_long)
{
    struct worker_lines *wl = ctx;
    if (too_long) return;
    if (len > 6 && memcmp(line, "!stop ", 6) == 0) {
        if (!wl->o->status) {
            wl->o->status = line[6] - '0';
            snprintf(wl->o->reason, sizeof wl->o->reason, "%.*s", (int)(len > 300 ? 300 : len - 8), line + 8);
        }
        for (int w = 0; w < wl->jobs; w++) kill(wl->pids[w], SIGINT);   /* the others: stop after their match */
        return;
    }
    char *copy = mt_malloc(len + 1);
    if (!copy) return;
    memcpy(copy, line, len);
    copy[len] = '\n';
    emit_direct(wl->e, copy, len + 1);
    free(copy);
}

/* -j J: J worker processes, each its share of the matches; lines come back on pipes. */
static void play_parallel(struct run *r, const long *pending, long npending, struct emit_direct *e, struct outcome *o)
{
    int jobs = r->p->jobs;
    pid_t pids[64];
    int fds[64];
    struct line_asm lines[64];
    int live = 0;
    fflush(NULL);
    for (int w = 0; w < jobs; w++) {
        int pp[2];
        if (!pipe_open(pp) || !line_asm_init(&lines[w], 1 << 22)) {
            o->status = 2;
            snprintf(o->reason, sizeof o->reason, "cannot start workers: %s", strerror(errno));
            jobs = w;
            break;
        }
        pid_t pid = fork();
        if (pid == 0) {
            close(pp[0]);
            struct outcome mine = {0, ""};
            int fd = pp[1];
            play_share(r, pending, npending, w, r->p->jobs, emit_pipe, &fd, &mine);
            if (mine.status) {
                char buf[500];
                int n = snprintf(buf, sizeof buf, "!stop %d %s\n", mine.status, mine.reason);
                emit_pipe(&fd, buf, (size_t)n);
            }
            _exit(0);
        }
        close(pp[1]);
        pids[w] = pid;
        fds[w] = pp[0];
        live++;
    }
    struct worker_lines wl = {e, o, pids, jobs};
    while (live > 0) {
        struct pollfd pf[64];
        for (int w = 0; w < jobs; w++) pf[w] = (struct pollfd){fds[w], POLLIN, 0};
        if (poll(pf, (nfds_t)jobs, 200) < 0 && errno != EINTR) break;
        for (int w = 0; w < jobs; w++) {
            if (fds[w] < 0 || !(pf[w].revents & (POLLIN | POLLHUP))) continue;
            char buf[65536];
            ssize_t n = read(fds[w], buf, sizeof buf);
            if (n > 0) {
                line_asm_feed(&lines[w], buf, (size_t)n, worker_line, &wl);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            close(fds[w]);
            fds[w] = -1;
            live--;
        }
    }
    for (int w = 0; w < jobs; w++) {
        int st;
        while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR) {
        }
        line_asm_free(&lines[w]);
    }
}

static bool make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

static uint64_t random_seed(void)
{
    uint64_t seed = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &seed, sizeof seed) != (ssize_t)sizeof seed) seed = 0;
        close(fd);
    }
    if (!seed) seed = (uint64_t)clock_us() ^ ((uint64_t)getpid() << 32);
    return seed;
}

int match_plan_run(struct match_plan *p, const struct rules_loader *loader, FILE *out, FILE *progress)
{
    char err[RULES_MESSAGE_SIZE] = "";
    int status = 0;
    if (p->nbots == 0) {
        fprintf(progress, "mtref: match: no bots: give at least one BOT (a command, or builtin:greedy)\n");
        return 2;
    }
    if (!p->players) p->players = p->ntable ? p->ntable : p->nbots >= 2 && p->nbots <= 8 ? p->nbots : 4;
    if (p->ntable && p->ntable != p->players) {
        fprintf(progress, "mtref: match: --table names %d seats, --players says %d\n", p->ntable, p->players);
        return 2;
    }
    if (!p->tournament_given) p->tournament = p->nbots <= p->players ? TOURNAMENT_TABLE : TOURNAMENT_ROUNDROBIN;
    if (p->jobs > 64) p->jobs = 64;
    struct referee *ref = mt_malloc(sizeof *ref);
    struct tables *t = mt_malloc(sizeof *t);
    struct journal j;
    memset(&j, 0, sizeof j);
    j.stats = stats_new();
    struct mbuf plan = {0}, run = {0};
    long *pending = NULL;
    if (!ref || !t || !j.stats) {
        fprintf(progress, "mtref: match: out of memory\n");
        status = 2;
        goto done;
    }
    if (!referee_init(ref, loader, p->rules, p->nrules, err)) {
        fprintf(progress, "mtref: match: %s\n", err);
        status = 2;
        goto done_ref;
    }
    const struct rules *rules = ref->cli_rules;
    if (p->players < rules->min_players || p->players > rules->max_players) {
        fprintf(progress, "mtref: match: %d players: these rules seat %d to %d\n", p->players, rules->min_players,
                rules->max_players);
        status = 2;
        goto done_ref;
    }
    if (!build_tables(p, t, err)) {
        fprintf(progress, "mtref: match: %s\n", err);
        status = 2;
        goto done_ref;
    }
    struct run r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.t = t;
    r.rules = rules;
    char journal_path[4200] = "";
    if (p->out_dir) {
        snprintf(journal_path, sizeof journal_path, "%s/results.jsonl", p->out_dir);
        snprintf(r.records_dir, sizeof r.records_dir, "%s/records", p->out_dir);
        snprintf(r.logs_dir, sizeof r.logs_dir, "%s/logs", p->out_dir);
        if (!make_dir(p->out_dir) || !make_dir(r.records_dir) || !make_dir(r.logs_dir)) {
            fprintf(progress, "mtref: match: cannot make %s: %s\n", p->out_dir, strerror(errno));
            status = 2;
            goto done_ref;
        }
        if (p->force) unlink(journal_path);
        if (!p->seed_given && journal_seed(journal_path, &p->seed)) p->seed_given = true;
    }
    if (!p->seed_given) p->seed = random_seed();
    if (!p->out_dir && p->config.log_dir) snprintf(r.logs_dir, sizeof r.logs_dir, "%s", p->config.log_dir);
    plan_json(p, t, rules, &plan);
    run_line(p, plan.data ? plan.data : "{}", &run);
    if (plan.failed || run.failed) {
        fprintf(progress, "mtref: match: out of memory\n");
        status = 2;
        goto done_ref;
    }
    if (p->out_dir) {
        struct stat st;
        bool existed = stat(journal_path, &st) == 0 && st.st_size > 0;
        if (existed && (status = journal_resume(&j, journal_path, p, run.data, progress)) != 0) goto done_ref;
        j.f = fopen(journal_path, "a");
        if (!j.f) {
            fprintf(progress, "mtref: match: %s: %s\n", journal_path, strerror(errno));
            status = 2;
            goto done_ref;
        }
        if (!existed) journal_write(&j, run.data, run.len);
    } else {
        journal_note(&j, run.data, run.len);
    }
    if (p->json) fwrite(run.data, 1, run.len, out);
    long total = total_matches(p, t);
    pending = mt_malloc((size_t)(total ? total : 1) * sizeof *pending);
    if (!pending) {
        fprintf(progress, "mtref: match: out of memory\n");
        status = 2;
        goto done_ref;
    }
    long npending = 0;
    for (long i = 0; i < total; i++) {
        struct slot sl = slot_of(p, t, i);
        char key[64];
        slot_key(&sl, key, sizeof key);
        if (!journal_has(&j, key)) pending[npending++] = i;
    }
    if (!p->quiet)
        fprintf(progress, "mtref match: %ld matches = %ld deals x %d table%s x %d seating%s%s; %ld to play\n", total,
                p->deals, t->n, t->n == 1 ? "" : "s", seatings(p), seatings(p) == 1 ? "" : "s",
                swaps(p) > 1 ? " x 2 swaps" : "", npending);
    interrupted = 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    struct emit_direct e = {&j, progress, out, total - npending, total, p->quiet, p->json};
    struct outcome o = {0, ""};
    if (p->jobs <= 1 || npending <= 1) {
        play_share(&r, pending, npending, 0, 1, emit_direct, &e, &o);
    } else {
        play_parallel(&r, pending, npending, &e, &o);
    }
    bool was_interrupted = interrupted;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (o.status) {
        fprintf(progress, "mtref: match: stopped: %s\n", o.reason);
        if (p->out_dir && o.status == 1)
            fprintf(progress, "mtref: match: the record so far and the bots' transcripts are in %s (records/, logs/)\n",
                    p->out_dir);
        status = o.status;
    } else if (was_interrupted && e.done < total) {
        fprintf(progress, "mtref: match: interrupted after %ld/%ld matches; to resume, run the same command\n",
                e.done, total);
        status = 130;
    }
    if (p->json) stats_print_json(j.stats, out);
    else stats_print(j.stats, out);
    fflush(out);
done_ref:
    referee_free(ref);
done:
    free(pending);
    mbuf_free(&plan);
    mbuf_free(&run);
    journal_free(&j);
    free(t);
    free(ref);
    return status;
}
