/* A run of matches: the bots, tables, the schedule of deals and seatings, one match
 * with its record and journal line. The journal itself and the workers: match_journal.c. */
#include "match_plan.h"
#include "match_plan_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "clock.h"
#include "protocol.h"
#include "rng.h"

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
    for (const char *c = base; c < cmd + len && k < GAME_NAME_MAX_LEN; c++) {
        char ch = *c;
        if (ch == '.') break;                      /* bot.py -> bot */
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        if (k == 0 && !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) continue;
        out[k++] = ok ? ch : '_';
    }
    out[k] = '\0';
    if (k == 0 || !protocol_is_name(out, k)) snprintf(out, GAME_NAME_MAX_LEN + 1, "bot");
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
    char base[GAME_NAME_MAX_LEN + 1];
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

bool match_build_tables(const struct match_plan *p, struct tables *t, char *err)
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


int match_seatings(const struct match_plan *p) { return p->seating == SEATING_ROTATE ? p->players : 1; }
int match_swaps(const struct match_plan *p) { return p->swap_a >= 0 ? 2 : 1; }

long match_total_matches(const struct match_plan *p, const struct tables *t)
{
    return p->deals * t->n * match_seatings(p) * match_swaps(p);
}

struct slot match_slot_of(const struct match_plan *p, const struct tables *t, long i)
{
    struct slot s;
    s.swap = (int)(i % match_swaps(p));
    i /= match_swaps(p);
    s.seating = (int)(i % match_seatings(p));
    i /= match_seatings(p);
    s.table = (int)(i % t->n);
    s.deal = p->first_deal + i / t->n;
    return s;
}

void match_slot_key(const struct slot *s, char *out, size_t size)
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
void match_plan_json(const struct match_plan *p, const struct tables *t, const struct rules *rules, struct mbuf *b)
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
    mbuf_put(b, "}");
    if (c->limits.mem_bytes > 0 || c->limits.cpu_seconds > 0)     /* only when set: older journals resume */
        mbuf_put(b, ",\"limits\":{\"mem_bytes\":%lld,\"cpu_s\":%lld}", (long long)c->limits.mem_bytes,
                 (long long)c->limits.cpu_seconds);
    mbuf_put(b, ",\"on_fault\":\"%s\",\"recover\":%s,\"fallback\":\"%s\",\"ask_forced\":%s,\"bots\":{",
             c->policy == POLICY_STOP ? "stop" : "forfeit", c->recover ? "true" : "false", bot_name(c->fallback),
             c->ask_forced ? "true" : "false");
    for (int i = 0; i < p->nbots; i++) {
        const struct match_bot *bot = &p->bots[i];
        mbuf_put(b, "%s\"%s\":", i ? "," : "", bot->name);
        if (bot->cmd) {
            mbuf_put(b, "{\"cmd\":");
            mbuf_json_string(b, bot->cmd, strlen(bot->cmd));
            mbuf_put(b, ",\"proto\":\"%s\"", bot->form == PROTO_JSON ? "json" : "text");
        } else {
            mbuf_put(b, "{\"builtin\":\"%s\"", bot_name(bot->builtin));
        }
        /* a bot's own settings, only when it has them: journals without stay as they were */
        if (bot->own_time) {
            mbuf_put(b, ",\"time\":{");
            put_duration(b, "move_ms", bot->move_us);
            mbuf_put(b, ",");
            put_duration(b, "bank_ms", bot->move_us < 0 ? -1 : bot->bank_us);
            mbuf_put(b, "}");
        }
        if (bot->limits.mem_bytes > 0 || bot->limits.cpu_seconds > 0)
            mbuf_put(b, ",\"limits\":{\"mem_bytes\":%lld,\"cpu_s\":%lld}", (long long)bot->limits.mem_bytes,
                     (long long)bot->limits.cpu_seconds);
        mbuf_put(b, "}");
    }
    mbuf_put(b, "}}");
}

void match_run_line(const struct match_plan *p, const char *plan, struct mbuf *b)
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
static void seat_names(const struct run *r, const int bots[], int n, char names[][GAME_NAME_MAX_LEN + 1])
{
    for (int s = 0; s < n; s++) {
        if (r->p->anonymous) {
            snprintf(names[s], GAME_NAME_MAX_LEN + 1, "p%d", s + 1);
            continue;
        }
        const char *base = r->p->bots[bots[s]].name;
        snprintf(names[s], GAME_NAME_MAX_LEN + 1, "%s", base);
        for (int k = 2;; k++) {
            bool taken = false;
            for (int o = 0; o < s && !taken; o++) taken = strcmp(names[o], names[s]) == 0;
            if (!taken) break;
            snprintf(names[s], GAME_NAME_MAX_LEN + 1, "%.13s_%d", base, k);
        }
    }
}

static void put_map(struct mbuf *b, int n, char names[][GAME_NAME_MAX_LEN + 1], const int64_t *v)
{
    mbuf_put(b, "{");
    for (int s = 0; s < n; s++) mbuf_put(b, "%s\"%s\":%lld", s ? "," : "", names[s], (long long)v[s]);
    mbuf_put(b, "}");
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The referee's own time per decision asked (answer read -> next question sent). */
static void put_latency(struct mbuf *b, struct match_result *res)
{
    if (res->nlatency == 0) {
        mbuf_put(b, "null");
        return;
    }
    qsort(res->latency_us, (size_t)res->nlatency, sizeof res->latency_us[0], by_value);
    long n = res->nlatency;
    mbuf_put(b, "{\"decisions\":%ld,\"median\":%lld,\"p99\":%lld,\"max\":%lld}", n,
             (long long)res->latency_us[n / 2], (long long)res->latency_us[(n * 99) / 100],
             (long long)res->latency_us[n - 1]);
}

/* Plays match i of the schedule; its journal line into line. Returns 0, or 2 with err. */
int match_play_one(struct run *r, long i, struct mbuf *line, struct match_result *res, char *err)
{
    struct match_plan *p = r->p;
    struct slot sl = match_slot_of(p, r->t, i);
    char key[64];
    match_slot_key(&sl, key, sizeof key);
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
    if (r->records_dir[0] && res->ended) {
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
    mbuf_put(line, "},\"referee_us\":");
    put_latency(line, res);
    mbuf_put(line, ",\"record\":");
    if (rec_rel[0]) mbuf_put(line, "\"%s\"", rec_rel);
    else mbuf_put(line, "null");
    mbuf_put(line, ",\"ms\":%lld}\n", (long long)ms_taken);
    return line->failed ? (snprintf(err, RULES_MESSAGE_SIZE, "out of memory"), 2) : 0;
}

/* "[37/800] d000009-t00-s1-w0: alice wins 98-140 (bob forfeits: timeout)" */
void match_progress_line(FILE *out, long done, long total, const char *line)
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
