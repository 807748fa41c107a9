/* A run of matches: the journal (state and results), resuming, -j workers, Ctrl-C. */
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
#include "match_plan.h"
#include "match_plan_parts.h"
#include "line_asm.h"
#include "pipe.h"
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
        int status = match_play_one(r, pending[k], &line, &res, err);
        if (status != 0) {
            o->status = status;
            snprintf(o->reason, sizeof o->reason, "%s", err);
            mbuf_free(&line);
            match_result_free(&res);
            return;
        }
        /* a match cut short by a stop is not done: a rerun plays it again */
        if (res.ended || !res.stop) emit(ctx, line.data, line.len);
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
    if (!e->quiet) match_progress_line(e->progress, e->done, e->total, line);
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
        int st = 0;
        while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR) {
        }
        line_asm_free(&lines[w]);
        if ((!WIFEXITED(st) || WEXITSTATUS(st) != 0) && !o->status && !interrupted) {
            o->status = 2;          /* its matches are not in the journal: a rerun plays them */
            snprintf(o->reason, sizeof o->reason, "worker %d died (status %d)", w, st);
        }
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
    if (!match_build_tables(p, t, err)) {
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
    match_plan_json(p, t, rules, &plan);
    match_run_line(p, plan.data ? plan.data : "{}", &run);
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
    long total = match_total_matches(p, t);
    pending = mt_malloc((size_t)(total ? total : 1) * sizeof *pending);
    if (!pending) {
        fprintf(progress, "mtref: match: out of memory\n");
        status = 2;
        goto done_ref;
    }
    long npending = 0;
    for (long i = 0; i < total; i++) {
        struct slot sl = match_slot_of(p, t, i);
        char key[64];
        match_slot_key(&sl, key, sizeof key);
        if (!journal_has(&j, key)) pending[npending++] = i;
    }
    if (!p->quiet)
        fprintf(progress, "mtref match: %ld matches = %ld deals x %d table%s x %d seating%s%s; %ld to play\n", total,
                p->deals, t->n, t->n == 1 ? "" : "s", match_seatings(p), match_seatings(p) == 1 ? "" : "s",
                match_swaps(p) > 1 ? " x 2 swaps" : "", npending);
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
