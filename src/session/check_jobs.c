/* check on several cores, with the verdicts of one thread.
 *
 * The calling thread cuts each input into large chunks without looking at each line:
 * it walks the lines at a chunk's end back to the last `players` line (and takes the
 * `rules` lines just before it along) and hands the chunk on. A regular file's chunks
 * are read by the workers themselves (the calling thread reads only a window at each
 * chunk's end, to cut it); a pipe's are read into the chunk here, the bytes after the
 * cut kept for the next. Worker threads split the chunks into lines
 * and referee each with a fresh session, as if it opened its input. That guess is
 * right when the session before the cut had ended its match and the chunk opens the
 * next one (a `players` or `rules` line starts afresh whatever came before), or when
 * the chunk is its input's first: the calling thread merges the chunks in order and
 * keeps a worker's result only then. Otherwise (a cut inside a match, a rejected
 * line, a `rules` line when the workers have no Lua bridge of their own) it referees
 * the chunk again itself, carrying on from the session before it, with the true line
 * numbers. A chunk's lines are counted by the thread that referees it, so the calling
 * thread does no work per line. The chunks in flight are bounded: memory stays flat. */
#define _GNU_SOURCE               /* pread and friends under -std=c17 */
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "check_cut.h"
#include "session.h"

#define CHUNK_BYTES (256 * 1024)  /* a chunk is cut after at least this many bytes */
#define CHUNKS_PER_JOB 3
#define LONG_KEPT (PROTOCOL_LINE_MAX + 2)   /* of a line over the limit: enough to stay over it */

struct chunk {
    /* input, from the calling thread */
    int input;
    bool first, final;            /* the input's first chunk; its last */
    int open_error;               /* first: the input could not be opened (errno) */
    int read_error;               /* last: a read failed (errno) */
    struct check_tags tags;       /* first: the input's tags */
    char *text;                   /* whole lines; the input's last may lack its newline */
    size_t len, cap;
    /* a chunk of a regular file is read by its worker (pread of len bytes at offset),
     * so that the calling thread copies none of it and the text arrives in the cache
     * of the core that referees it; fd -1: text holds the chunk already */
    int fd;
    off_t offset;
    /* output of the worker */
    bool done;
    struct referee *ref;          /* the session after the chunk; owned */
    bool needs_rules;             /* asked for a rules file it could not load */
    bool rejected, failed;        /* a line was rejected; out of memory */
    bool opens_match;             /* its first command is `players` or `rules` */
    long lines;                   /* lines refereed */
    long matches;                 /* matches ended in it */
    bool ended;                   /* a match ended in it: last, last_end */
    bool over, touched;           /* at its end: the match over; a set-up line or move since one ended */
    struct game last;
    struct verdict last_end;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int nslots;
    struct chunk *slots;
    long dispatched, claimed;     /* chunks handed out so far, and taken by workers */
    bool finished;
    const struct check_run *run;
};

struct worker {
    struct pool *pool;
    int index;
    pthread_t thread;
};

/* The loader of workers without a bridge: it loads nothing and marks the chunk. */
static void *refuse_rules(void *ctx, const char *const files[], int n, const struct rules **rules, char *err)
{
    (void)files;
    (void)n;
    (void)rules;
    ((struct chunk *)ctx)->needs_rules = true;
    snprintf(err, RULES_MESSAGE_SIZE, "(left to the main thread)");
    return NULL;
}

/* What refereeing a chunk's lines found: counted into res (may be NULL: replayed). */
struct lines_run {
    long lines;
    bool ended, rejected, opens_match, seen_command;
};

/* What the session loop hands each response of a chunk's lines. */
struct chunk_reading {
    struct check_result *res;
    struct lines_run *lr;
};

static void chunk_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct chunk_reading *r = ctx;
    struct lines_run *lr = r->lr;
    if (resp->kind == RESPONSE_NONE) return;
    if (!lr->seen_command) {
        lr->seen_command = true;
        lr->opens_match = resp->kind == RESPONSE_VERDICT && resp->verdict.code == ERR_NONE &&
                          (ref->cmd.kind == CMD_PLAYERS || ref->cmd.kind == CMD_RULES);
    }
    if (resp->kind != RESPONSE_VERDICT) return;
    if (resp->verdict.code != ERR_NONE) {
        if (r->res) {
            r->res->line = resp->line;
            r->res->verdict = resp->verdict;
        }
        lr->rejected = true;
    } else if (resp->verdict.match_ended) {
        if (r->res) {
            r->res->last = ref->game;
            r->res->last_end = resp->verdict;
        }
        lr->ended = true;
    }
}

/* Referees c's lines on ref through the session loop, numbered from first_number;
 * stops at a rejected line (its verdict in res). */
static void run_lines(struct referee *ref, const struct chunk *c, long first_number, struct response *resp,
                      struct check_result *res, struct lines_run *lr)
{
    memset(lr, 0, sizeof *lr);
    struct chunk_reading reading = {res, lr};
    struct session_options o = {.respond = chunk_response, .ctx = &reading};
    struct session_result run;
    session_run_text(ref, c->text, c->len, first_number, &o, resp, &run);
    lr->lines = run.lines;
}

static void free_ref(struct referee **ref)
{
    if (*ref) {
        referee_free(*ref);
        free(*ref);
    }
    *ref = NULL;
}

static bool adoptable(const struct referee *ref)
{
    /* a rule set belongs to the Lua state of the worker's thread */
    return ref->match_handle == NULL && ref->cli_handle == NULL;
}

static void work_chunk(struct worker *w, struct chunk *c, struct response *resp, struct check_result *scratch)
{
    const struct check_run *run = w->pool->run;
    if (c->open_error) return;
    if (c->fd >= 0 && !check_read_at(c->fd, c->text, c->len, c->offset, &c->read_error)) return;
    c->ref = mt_malloc(sizeof *c->ref);
    if (!c->ref) {
        c->failed = true;
        return;
    }
    struct rules_loader refusing = {c, refuse_rules, NULL};
    const struct rules_loader *loader = run->job_loaders ? &run->job_loaders[w->index] : &refusing;
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(c->ref, loader, run->rules_files, run->nrules, err)) {
        c->needs_rules = true;            /* the calling thread says why */
        free_ref(&c->ref);
        return;
    }
    struct lines_run lr;
    run_lines(c->ref, c, 1, resp, scratch, &lr);
    c->lines = lr.lines;
    c->rejected = lr.rejected;
    c->opens_match = lr.opens_match;
    c->matches = c->ref->matches_ended;
    c->ended = lr.ended;
    if (c->ended) {
        c->last = scratch->last;
        c->last_end = scratch->last_end;
    }
    c->over = game_is_over(&c->ref->game);
    c->touched = c->ref->match_touched;
    /* a session holding rule sets of this thread's bridge is released here, by the
     * thread that uses the bridge; one without can move to the calling thread */
    if (!adoptable(c->ref)) free_ref(&c->ref);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    struct response *resp = mt_malloc(sizeof *resp);
    struct check_result *scratch = mt_malloc(sizeof *scratch);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->finished && p->claimed == p->dispatched) pthread_cond_wait(&p->changed, &p->lock);
        if (p->claimed == p->dispatched) break;
        struct chunk *c = &p->slots[p->claimed++ % p->nslots];
        pthread_mutex_unlock(&p->lock);
        if (resp && scratch) work_chunk(w, c, resp, scratch);
        else c->failed = true;
        pthread_mutex_lock(&p->lock);
        c->done = true;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    free(scratch);
    free(resp);
    return NULL;
}

static void chunk_reset(struct chunk *c)
{
    free_ref(&c->ref);
    c->len = 0;
    c->done = c->needs_rules = c->rejected = c->failed = c->opens_match = c->ended = false;
    c->first = c->final = false;
    c->open_error = c->read_error = 0;
    c->fd = -1;
    c->offset = 0;
    c->lines = c->matches = 0;
    c->over = c->touched = false;
}

/* --- the calling thread: the merge ------------------------------------------- */

/* The sequential verdict of the input being merged, so far. */
struct merge {
    const struct check_run *run;
    struct response *resp;
    struct check_result *res;
    int input;                    /* the input being merged */
    int emitted;                  /* verdicts handed to the caller so far */
    long lines;                   /* lines merged: the next chunk starts at line lines + 1 */
    bool fresh;                   /* nothing merged yet: a worker's fresh session is exact */
    /* the session after the chunks merged: this thread's own (ref), or else that of
     * the worker of the last chunk merged (replay: its text is still held; over: its
     * match had ended) */
    struct referee *ref;
    const struct chunk *replay;
    bool over, touched;
    bool stopped, failed;
    int read_error;               /* a worker could not read a chunk before the last */
    bool quit;                    /* the caller ended the run */
};

/* This thread's own session of the state so far; false when out of memory or the
 * --rules do not load (then the verdict says so, as one thread's would). */
static bool own_session(struct merge *m)
{
    if (m->ref) return true;
    m->ref = mt_malloc(sizeof *m->ref);
    if (!m->ref) {
        m->failed = true;
        return false;
    }
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(m->ref, m->run->loader, m->run->rules_files, m->run->nrules, err)) {
        m->res->line = 0;
        verdict_fail(&m->res->verdict, ERR_RULES, 0, "%s", err);
        m->stopped = true;
        return false;
    }
    if (m->replay) {
        /* the chunk before was kept from a worker whose session cannot move here:
         * referee it again (it opened its match, so from a fresh session) */
        struct lines_run lr;
        run_lines(m->ref, m->replay, m->lines - m->replay->lines + 1, m->resp, NULL, &lr);
        m->replay = NULL;
    }
    return true;
}

static void merge_chunk(struct merge *m, struct chunk *c)
{
    if (m->stopped || m->failed) return;
    if (c->failed) {
        m->failed = true;
        return;
    }
    if (c->open_error || m->read_error) return;
    if (c->read_error && !c->final) {
        /* the input ends here for this run, as a failed read ends one thread's */
        m->read_error = c->read_error;
        return;
    }
    bool before_over = m->ref ? game_is_over(&m->ref->game) : m->over;
    bool fits = !c->needs_rules && !c->rejected && (m->fresh || (before_over && c->opens_match));
    if (fits) {
        m->res->matches += c->matches;
        m->res->moves += c->lines;
        if (c->ended) {
            m->res->last = c->last;
            m->res->last_end = c->last_end;
        }
        m->lines += c->lines;
        m->fresh = false;
        free_ref(&m->ref);
        m->replay = NULL;
        m->touched = c->touched;
        if (c->ref) {
            m->ref = c->ref;      /* the worker's session is the input's now */
            c->ref = NULL;
            m->ref->loader = *m->run->loader;
        } else {
            m->over = c->over;
            m->replay = c;
        }
        return;
    }
    /* the guess was wrong or the chunk needs this thread: referee it again in order */
    if (m->fresh) m->replay = NULL;
    if (!own_session(m)) return;
    m->fresh = false;
    long before = m->ref->matches_ended;
    struct lines_run lr;
    run_lines(m->ref, c, m->lines + 1, m->resp, m->res, &lr);
    m->res->matches += m->ref->matches_ended - before;
    m->res->moves += lr.lines;
    m->lines += lr.lines;
    m->touched = m->ref->match_touched;
    if (lr.rejected) m->stopped = true;
}

static void merge_begin(struct merge *m, const struct chunk *first)
{
    struct check_result *res = m->res;
    memset(res, 0, sizeof *res);
    verdict_reset(&res->verdict);
    verdict_reset(&res->last_end);
    res->tags = first->tags;
    m->input = first->input;
    m->lines = 0;
    m->fresh = true;
    m->replay = NULL;
    m->over = m->touched = m->stopped = m->failed = false;
    m->read_error = 0;
}

/* The input's last chunk is merged: its verdict to the caller. */
static void merge_end(struct merge *m, const struct chunk *c)
{
    struct check_result *res = m->res;
    int read_error = m->read_error ? m->read_error : c->read_error;
    if (c->open_error) {
        res->status = 2;
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(c->open_error));
    } else if (m->failed) {
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
        res->status = 2;
    } else if (m->stopped) {
        res->status = error_code_status(res->verdict.code);
        if (read_error) res->status = 2;
    } else if (read_error) {
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(read_error));
        res->status = 2;
    }
    res->complete = res->matches > 0 && !m->touched;
    free_ref(&m->ref);
    m->replay = NULL;
    m->emitted++;
    if (!m->run->verdict(m->run->ctx, c->input, res)) m->quit = true;
}

/* --- the calling thread: reading and cutting ---------------------------------- */

static bool grow(struct chunk *c, size_t cap)
{
    if (c->cap >= cap) return true;
    char *grown = mt_realloc(c->text, cap);
    if (!grown) return false;
    c->text = grown;
    c->cap = cap;
    return true;
}

/* One read into c's free room; false at end of input or error (*err). */
static bool read_more(int fd, struct chunk *c, int *err)
{
    for (;;) {
        ssize_t got = read(fd, c->text + c->len, c->cap - c->len);
        if (got > 0) {
            c->len += (size_t)got;
            return true;
        }
        if (got == 0) return false;
        if (errno == EINTR) continue;
        *err = errno;
        return false;
    }
}

/* A line longer than a whole chunk: keep its first LONG_KEPT bytes (still too long
 * for the reader's rules) and drop the rest up to its newline, which is kept. */
static bool drop_long_line(int fd, struct chunk *c, size_t line_start, int *err)
{
    size_t keep = line_start + LONG_KEPT;
    for (;;) {
        char *nl = memchr(c->text + keep, '\n', c->len - keep);
        if (nl) {
            size_t rest = c->len - (size_t)(nl - c->text);
            memmove(c->text + keep, nl, rest);
            c->len = keep + rest;
            return true;
        }
        c->len = keep;
        if (!read_more(fd, c, err)) return false;
    }
}

struct reading {
    struct pool *pool;
    struct merge *merge;
    long merged;
    size_t chunk_bytes;
    char *window;                 /* chunk_bytes: the end of a file's chunk, to cut it */
};

/* Merges the oldest chunk (waiting for its worker). */
static void merge_oldest(struct reading *rd)
{
    struct pool *p = rd->pool;
    struct chunk *old = &p->slots[rd->merged % p->nslots];
    pthread_mutex_lock(&p->lock);
    while (!old->done) pthread_cond_wait(&p->changed, &p->lock);
    pthread_mutex_unlock(&p->lock);
    if (old->first) merge_begin(rd->merge, old);
    if (!rd->merge->quit) {
        merge_chunk(rd->merge, old);
        if (old->final) merge_end(rd->merge, old);
    }
    /* the chunk before stays held while the merge may need to replay it */
    if (rd->merged > 0) {
        struct chunk *held = &p->slots[(rd->merged - 1) % p->nslots];
        if (rd->merge->replay != held) chunk_reset(held);
    }
    rd->merged++;
}

/* The slot for the next chunk, free (merging old ones), or NULL when out of memory. */
static struct chunk *next_slot(struct reading *rd)
{
    struct pool *p = rd->pool;
    while (p->dispatched + 1 - rd->merged >= p->nslots) merge_oldest(rd);
    struct chunk *c = &p->slots[p->dispatched % p->nslots];
    chunk_reset(c);
    return grow(c, rd->chunk_bytes + LONG_KEPT + 1) ? c : NULL;
}

static void dispatch(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->dispatched++;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

/* Reads input i into chunks and dispatches them; false when out of memory. */
static bool read_input(struct reading *rd, int i)
{
    const struct check_run *run = rd->pool->run;
    struct chunk *c = next_slot(rd);
    if (!c) return false;
    c->input = i;
    c->first = true;
    int fd = -1;
    bool owned = false;
    c->open_error = run->open(run->ctx, i, &fd, &owned);
    if (c->open_error) {
        c->final = true;
        dispatch(rd->pool);
        return true;
    }
    check_read_tags(fd, &c->tags);
    /* a regular file: chunks its workers read themselves, while a whole chunk and
     * more is left; the rest (and any other input) is read and copied here */
    struct stat st;
    off_t pos = -1;
    bool direct = rd->window && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (pos = lseek(fd, 0, SEEK_CUR)) >= 0;
    bool handed = false;          /* a worker reads from fd: drain before closing it */
    while (direct && !(rd->merge->input == i && (rd->merge->stopped || rd->merge->read_error))) {
        size_t cut = check_cut_in_file(fd, pos, rd->chunk_bytes, rd->window);
        if (cut == 0) break;
        c->fd = fd;
        c->offset = pos;
        c->len = cut;
        pos += (off_t)cut;
        handed = owned;
        dispatch(rd->pool);
        c = next_slot(rd);
        if (!c) {
            lseek(fd, pos, SEEK_SET);
            while (rd->merged < rd->pool->dispatched) merge_oldest(rd);
            if (owned) close(fd);
            return false;
        }
        c->input = i;
    }
    if (direct && lseek(fd, pos, SEEK_SET) < 0) direct = false;
    int err = 0;
    bool more = true;
    while (more) {
        while (more && c->len < rd->chunk_bytes) more = read_more(fd, c, &err);
        size_t cut = c->len;
        if (more) {
            bool whole;
            cut = check_cut_point(c->text, c->len, &whole);
            if (cut == 0) {
                /* no newline in a whole chunk: a line far over the limit */
                more = drop_long_line(fd, c, 0, &err);
                if (more) continue;
                cut = c->len;
            }
        }
        /* a merge that stopped this input needs none of the rest */
        bool stopped = rd->merge->stopped && rd->merge->input == i;
        if (!more || stopped) {
            c->final = true;
            c->read_error = err;
            c->len = cut;
            dispatch(rd->pool);
            break;
        }
        struct chunk *prev = c;
        size_t tail = prev->len - cut;
        prev->len = cut;
        dispatch(rd->pool);
        c = next_slot(rd);
        if (!c) {
            if (handed) while (rd->merged < rd->pool->dispatched) merge_oldest(rd);
            if (owned) close(fd);
            return false;
        }
        c->input = i;
        memcpy(c->text, prev->text + cut, tail);   /* prev is read only now, and held */
        c->len = tail;
    }
    if (handed) while (rd->merged < rd->pool->dispatched) merge_oldest(rd);
    if (owned) close(fd);
    return true;
}

bool check_run_jobs(const struct check_run *run, int n)
{
    struct pool p;
    memset(&p, 0, sizeof p);
    p.run = run;
    int jobs = run->jobs < 1 ? 1 : run->jobs;
    p.nslots = jobs * CHUNKS_PER_JOB + 2;  /* + the one being filled, the one held */
    p.slots = mt_malloc((size_t)p.nslots * sizeof *p.slots);
    struct worker *workers = mt_malloc((size_t)jobs * sizeof *workers);
    struct merge m = {.run = run, .input = -1};
    m.resp = mt_malloc(sizeof *m.resp);
    m.res = mt_malloc(sizeof *m.res);
    struct reading rd = {&p, &m, 0, run->chunk_bytes ? run->chunk_bytes : CHUNK_BYTES, NULL};
    if (rd.chunk_bytes < 2 * LONG_KEPT) rd.chunk_bytes = 2 * LONG_KEPT;
    rd.window = mt_malloc(rd.chunk_bytes);   /* without it, files are read as pipes are */
    bool ok = p.slots && workers && m.resp && m.res;
    if (ok) memset(p.slots, 0, (size_t)p.nslots * sizeof *p.slots);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    int started = 0;
    for (; ok && started < jobs; started++) {
        workers[started] = (struct worker){.pool = &p, .index = started};
        if (pthread_create(&workers[started].thread, NULL, work, &workers[started]) != 0) break;
    }
    for (int i = 0; ok && started > 0 && i < n && !m.quit; i++) ok = read_input(&rd, i);
    while (started > 0 && rd.merged < p.dispatched) merge_oldest(&rd);
    pthread_mutex_lock(&p.lock);
    p.finished = true;
    pthread_cond_broadcast(&p.changed);
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < started; i++) pthread_join(workers[i].thread, NULL);
    if (!ok && started > 0 && m.res && !m.quit && m.emitted < n) {
        /* out of memory: the input being read gets the verdict one thread would give */
        memset(m.res, 0, sizeof *m.res);
        m.res->status = 2;
        snprintf(m.res->io_error, sizeof m.res->io_error, "out of memory");
        run->verdict(run->ctx, m.emitted, m.res);
    }
    bool ran = started > 0 || n == 0;
    free_ref(&m.ref);
    for (int i = 0; p.slots && i < p.nslots; i++) {
        chunk_reset(&p.slots[i]);
        free(p.slots[i].text);
    }
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(rd.window);
    free(p.slots);
    free(workers);
    free(m.resp);
    free(m.res);
    return ran;
}

/* --- one descriptor ------------------------------------------------------------ */

struct one_descriptor {
    int fd;
    struct check_result *res;
};

static int open_given(void *ctx, int i, int *fd, bool *owned)
{
    (void)i;
    *fd = ((struct one_descriptor *)ctx)->fd;
    *owned = false;
    return 0;
}

static bool keep_verdict(void *ctx, int i, struct check_result *res)
{
    (void)i;
    struct check_result *out = ((struct one_descriptor *)ctx)->res;
    struct check_tags tags = out->tags;
    *out = *res;
    out->tags = tags;
    return true;
}

void check_descriptor_jobs(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                           int jobs, const struct rules_loader *job_loaders, size_t chunk_bytes,
                           struct check_result *res)
{
    if (jobs <= 1 || (nrules > 0 && !job_loaders)) {
        check_descriptor(fd, loader, rules_files, nrules, res);
        return;
    }
    struct one_descriptor one = {fd, res};
    memset(res, 0, sizeof *res);
    struct check_run run = {loader, rules_files, nrules, jobs, job_loaders, chunk_bytes, open_given, keep_verdict, &one};
    if (!check_run_jobs(&run, 1)) check_descriptor(fd, loader, rules_files, nrules, res);   /* no thread to be had */
}
