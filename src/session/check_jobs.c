/* Adjudicating one stream on several cores, with the verdict of one thread.
 *
 * The calling thread reads the stream with the line reader and cuts it into chunks
 * of whole lines, each cut made just before a `players` line, so that a chunk
 * usually starts a match. Worker threads referee each chunk with a fresh session, as
 * if it opened the stream. That guess is right when the session before the cut had
 * ended its match (a `players` line then starts afresh whatever came before): the
 * calling thread merges the chunks in order and keeps a worker's result only then;
 * otherwise (a cut inside a match's set-up, a rejected line, a `rules` line, which
 * needs the Lua bridge that only the calling thread may use) it referees that chunk
 * again itself, carrying on from the session before it. Line numbers are the
 * reader's own. The chunks in flight are bounded: memory stays flat. */
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "reader.h"

#define CHUNK_LINES 8192          /* a cut waits for a `players` line after this many */
#define CHUNK_LINES_MAX 65536     /* ... and is made anyway at this many */
#define CHUNKS_PER_JOB 3

struct chunk_line {
    uint32_t offset, len;
    bool too_long;
};

struct chunk {
    /* input */
    long first_number;
    int nlines, lines_cap;
    struct chunk_line *lines;
    char *text;
    size_t len, cap;
    /* output of the worker */
    bool done;
    struct referee *ref;          /* the session after the chunk; owned */
    bool needs_rules;             /* asked for a rules file: redo it in order */
    bool rejected;
    bool failed;                  /* out of memory */
    long lines_done;
    bool ended;                   /* a match ended in the chunk: last, last_end */
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
};

/* The loader of the workers: it loads nothing and marks the chunk for the caller. */
static void *refuse_rules(void *ctx, const char *const files[], int n, const struct rules **rules, char *err)
{
    (void)files;
    (void)n;
    (void)rules;
    ((struct chunk *)ctx)->needs_rules = true;
    snprintf(err, RULES_MESSAGE_SIZE, "(left to the main thread)");
    return NULL;
}

/* Referees the chunk's lines on ref; false at a rejected line (its verdict in res). */
static bool run_lines(struct referee *ref, struct chunk *c, struct response *resp, struct check_result *res,
                      long *lines_done, bool *ended)
{
    for (int i = 0; i < c->nlines; i++) {
        const struct chunk_line *l = &c->lines[i];
        referee_line(ref, c->text + l->offset, l->len, l->too_long, c->first_number + i, resp);
        (*lines_done)++;
        if (resp->kind != RESPONSE_VERDICT) continue;
        if (resp->verdict.code != ERR_NONE) {
            res->line = resp->line;
            res->verdict = resp->verdict;
            return false;
        }
        if (resp->verdict.match_ended) {
            res->last = ref->game;
            res->last_end = resp->verdict;
            *ended = true;
        }
    }
    return true;
}

static void work_chunk(struct chunk *c, struct response *resp, struct check_result *scratch)
{
    c->ref = mt_malloc(sizeof *c->ref);
    if (!c->ref) {
        c->failed = true;
        return;
    }
    struct rules_loader refusing = {c, refuse_rules, NULL};
    char err[RULES_MESSAGE_SIZE];
    referee_init(c->ref, &refusing, NULL, 0, err);
    scratch->line = 0;
    c->rejected = !run_lines(c->ref, c, resp, scratch, &c->lines_done, &c->ended);
    if (c->ended) {
        c->last = scratch->last;
        c->last_end = scratch->last_end;
    }
}

static void *work(void *arg)
{
    struct pool *p = arg;
    struct response *resp = mt_malloc(sizeof *resp);
    struct check_result *scratch = mt_malloc(sizeof *scratch);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->finished && p->claimed == p->dispatched) pthread_cond_wait(&p->changed, &p->lock);
        if (p->claimed == p->dispatched) break;
        struct chunk *c = &p->slots[p->claimed++ % p->nslots];
        pthread_mutex_unlock(&p->lock);
        if (resp && scratch) work_chunk(c, resp, scratch);
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
    if (c->ref) {
        referee_free(c->ref);
        free(c->ref);
    }
    c->ref = NULL;
    c->nlines = 0;
    c->len = 0;
    c->done = c->needs_rules = c->rejected = c->failed = c->ended = false;
    c->lines_done = 0;
}

static bool chunk_add(struct chunk *c, const struct line *line)
{
    if (c->nlines == c->lines_cap) {
        int cap = c->lines_cap ? 2 * c->lines_cap : 1024;
        struct chunk_line *grown = mt_realloc(c->lines, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        c->lines = grown;
        c->lines_cap = cap;
    }
    if (c->len + line->len > c->cap) {
        size_t cap = c->cap ? c->cap : 1 << 16;
        while (cap < c->len + line->len) cap *= 2;
        char *grown = mt_realloc(c->text, cap);
        if (!grown) return false;
        c->text = grown;
        c->cap = cap;
    }
    if (c->nlines == 0) c->first_number = line->number;
    memcpy(c->text + c->len, line->text, line->len);
    c->lines[c->nlines++] = (struct chunk_line){(uint32_t)c->len, (uint32_t)line->len, line->too_long};
    c->len += line->len;
    return true;
}

/* Whether the line's first word is `players`: where a match can start afresh. */
static bool starts_players(const struct line *line)
{
    const char *s = line->text, *end = s + line->len;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    if (end - s < 7 || memcmp(s, "players", 7) != 0) return false;
    return end - s == 7 || s[7] == ' ' || s[7] == '\t' || s[7] == '#';
}

/* What the calling thread knows of the stream so far: the sequential verdict. */
struct merge {
    struct referee *ref;          /* the session after the chunks merged; owned */
    const struct rules_loader *loader;
    struct response *resp;
    struct check_result *res;
    bool stopped;                 /* a line was rejected: the verdict is final */
    bool failed;
};

static void merge_chunk(struct merge *m, struct chunk *c)
{
    if (m->stopped || m->failed) return;
    if (c->failed) {
        m->failed = true;
        return;
    }
    bool fresh_fits = m->ref == NULL || game_is_over(&m->ref->game);
    if (fresh_fits && !c->needs_rules && !c->rejected) {
        m->res->matches += c->ref->matches_ended;
        m->res->moves += c->lines_done;
        if (c->ended) {
            m->res->last = c->last;
            m->res->last_end = c->last_end;
        }
        if (m->ref) {
            referee_free(m->ref);
            free(m->ref);
        }
        m->ref = c->ref;          /* the worker's session is the stream's now */
        c->ref = NULL;
        m->ref->loader = *m->loader;
        return;
    }
    /* the guess was wrong or the chunk needs this thread: referee it again in order */
    if (!m->ref) {
        char err[RULES_MESSAGE_SIZE] = "";
        m->ref = mt_malloc(sizeof *m->ref);
        if (!m->ref) {
            m->failed = true;
            return;
        }
        referee_init(m->ref, m->loader, NULL, 0, err);
    }
    long before = m->ref->matches_ended, lines = 0;
    bool ended = false;
    bool ok = run_lines(m->ref, c, m->resp, m->res, &lines, &ended);
    m->res->matches += m->ref->matches_ended - before;
    m->res->moves += lines;
    if (!ok) m->stopped = true;
}

void check_descriptor_jobs(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                           int jobs, struct check_result *res)
{
    if (jobs <= 1 || nrules > 0) {        /* --rules: every session needs the bridge */
        check_descriptor(fd, loader, rules_files, nrules, res);
        return;
    }
    memset(res, 0, sizeof *res);
    verdict_reset(&res->verdict);
    verdict_reset(&res->last_end);
    struct pool p;
    memset(&p, 0, sizeof p);
    p.nslots = jobs * CHUNKS_PER_JOB;
    p.slots = mt_malloc((size_t)p.nslots * sizeof *p.slots);
    pthread_t *threads = mt_malloc((size_t)jobs * sizeof *threads);
    struct merge m = {NULL, loader, mt_malloc(sizeof *m.resp), res, false, false};
    struct reader rd;
    bool reading = p.slots && threads && m.resp && reader_open(&rd, fd, PROTOCOL_LINE_MAX);
    if (!reading) {
        free(p.slots);
        free(threads);
        free(m.resp);
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
        res->status = 2;
        return;
    }
    memset(p.slots, 0, (size_t)p.nslots * sizeof *p.slots);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    int started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, work, &p) != 0) break;
    if (started == 0) {                   /* no thread to be had: the plain way */
        reader_close(&rd);
        pthread_cond_destroy(&p.changed);
        pthread_mutex_destroy(&p.lock);
        free(p.slots);
        free(threads);
        free(m.resp);
        check_descriptor(fd, loader, rules_files, nrules, res);
        return;
    }

    long merged = 0;
    struct chunk *cur = &p.slots[0];
    struct line line;
    bool more = true;
    while (more && !m.stopped && !m.failed) {
        more = reader_next(&rd, &line);
        bool cut = more && cur->nlines > 0 &&
                   ((cur->nlines >= CHUNK_LINES && starts_players(&line)) || cur->nlines >= CHUNK_LINES_MAX);
        if (cut || (!more && cur->nlines > 0)) {
            pthread_mutex_lock(&p.lock);
            p.dispatched++;
            pthread_cond_broadcast(&p.changed);
            /* a free slot for the next chunk: merge the oldest when the ring is full */
            while (p.dispatched - merged >= p.nslots || (!more && merged < p.dispatched)) {
                struct chunk *old = &p.slots[merged % p.nslots];
                while (!old->done) pthread_cond_wait(&p.changed, &p.lock);
                pthread_mutex_unlock(&p.lock);
                merge_chunk(&m, old);
                chunk_reset(old);
                pthread_mutex_lock(&p.lock);
                merged++;
            }
            pthread_mutex_unlock(&p.lock);
            cur = &p.slots[p.dispatched % p.nslots];
        }
        if (more && !chunk_add(cur, &line)) m.failed = true;
    }
    pthread_mutex_lock(&p.lock);
    p.finished = true;
    pthread_cond_broadcast(&p.changed);
    /* chunks still in flight after a final verdict: wait for them, drop them */
    while (merged < p.dispatched) {
        struct chunk *old = &p.slots[merged % p.nslots];
        while (!old->done) pthread_cond_wait(&p.changed, &p.lock);
        merged++;
    }
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);

    if (m.failed) {
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
        res->status = 2;
    } else if (m.stopped) {
        res->status = error_code_status(res->verdict.code);
    } else if (rd.error) {
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(rd.error));
        res->status = 2;
    }
    res->complete = res->matches > 0 && m.ref && !m.ref->match_touched;
    if (m.ref) {
        referee_free(m.ref);
        free(m.ref);
    }
    for (int i = 0; i < p.nslots; i++) {
        chunk_reset(&p.slots[i]);
        free(p.slots[i].lines);
        free(p.slots[i].text);
    }
    reader_close(&rd);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(p.slots);
    free(threads);
    free(m.resp);
}
