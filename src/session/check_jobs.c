/* check on several cores, with the verdicts of one thread.
 *
 * The calling thread cuts each input into large chunks without looking at each line:
 * it walks the lines at a chunk's end back to the last `players` line (and takes the
 * `rules` lines just before it along) and hands the chunk on. A regular file's chunks
 * are read by the workers themselves (the calling thread reads only a window at each
 * chunk's end, to cut it, and a file's last chunk, which holds its descriptor, is not
 * cut at all: over a directory of small files this thread only opens them); a pipe's
 * are read into the chunk here, the bytes after the cut kept for the next. Worker
 * threads split the chunks into lines and referee each with a fresh session, as if it
 * opened its input. That guess is right when the session before the cut had ended its
 * match and the chunk opens the next one (a `players` or `rules` line starts afresh
 * whatever came before), or when the chunk is its input's first: the calling thread
 * merges the chunks in order and keeps a worker's result only then. Otherwise (a cut
 * inside a match, a rejected line, a `rules` line when the workers have no Lua bridge
 * of their own) it referees the chunk again itself, carrying on from the session
 * before it, with the true line numbers. A chunk's lines are counted by the thread
 * that referees it, so the calling thread does no work per line. The chunks in flight
 * are bounded: memory stays flat. The merge itself is check_merge.c. */
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
#include "check_chunk.h"
#include "check_cut.h"

#define CHUNK_BYTES (256 * 1024)  /* a chunk is cut after at least this many bytes */
#define CHUNKS_PER_JOB 3
#define LONG_KEPT (PROTOCOL_LINE_MAX + 2)   /* of a line over the limit: enough to stay over it */

struct pool {
    pthread_mutex_t lock;
    /* each waiter has its own condition and is woken only when it can go on: a wake
     * is a context switch, and with small inputs there are thousands of chunks */
    pthread_cond_t work_ready;    /* a chunk to claim, or finished */
    pthread_cond_t chunk_done;    /* the chunk the calling thread waits for is done */
    int nslots;
    struct chunk *slots;
    long dispatched, claimed;     /* chunks handed out so far, and taken by workers */
    int idle;                     /* workers waiting for a chunk */
    long awaited;                 /* the chunk the calling thread waits for, or -1 */
    bool finished;
    const struct check_run *run;
};

struct worker {
    struct pool *pool;
    int index;
    pthread_t thread;
    /* this thread's own, used again and again so that they stay in its core's cache
     * (memory another core wrote last is slow to write): the session of an input's
     * last chunk, which the calling thread does not take over, and the text of an
     * input read whole here */
    struct referee *ref;
    char *text;
    size_t cap;
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

static bool adoptable(const struct referee *ref)
{
    /* a rule set belongs to the Lua state of the worker's thread */
    return ref->match_handle == NULL && ref->cli_handle == NULL;
}

static bool worker_room(struct worker *w, size_t len)
{
    if (w->cap >= len && w->text) return true;
    char *grown = mt_realloc(w->text, len ? len : 1);
    if (!grown) return false;
    w->text = grown;
    w->cap = len ? len : 1;
    return true;
}

static void work_chunk(struct worker *w, struct chunk *c, struct response *resp, struct check_result *scratch)
{
    const struct check_run *run = w->pool->run;
    /* the slot's summary is the last chunk's until this one counts into it: a chunk
     * that stops early (a read failed) must add nothing */
    if (c->summary) memset(c->summary, 0, sizeof *c->summary);
    if (c->open_error) return;
    if (c->reads_tags) check_read_tags(c->fd, &c->tags);
    /* an input read whole here is read into this thread's buffer: the calling thread
     * needs its text only to referee it again (a line rejected, a rules file it loads
     * itself), and then gets a copy */
    bool whole = c->first && c->final && c->fd >= 0 && worker_room(w, c->len);
    char *text = whole ? w->text : c->text;
    if (c->fd >= 0 && c->final) {
        /* the file's rest, as far as it goes now, as one thread would read it */
        c->len = check_read_upto(c->fd, text, c->len, c->offset, &c->read_error);
        if (c->read_error) return;
    } else if (c->fd >= 0 && !check_read_at(c->fd, text, c->len, c->offset, &c->read_error)) {
        return;
    }
    /* the session after an input's last chunk is not taken over: this thread's own */
    struct referee *ref = c->final ? w->ref : NULL;
    if (!ref) ref = c->ref = mt_malloc(sizeof *c->ref);
    if (!ref) {
        c->failed = true;
        return;
    }
    struct rules_loader refusing = {c, refuse_rules, NULL};
    const struct rules_loader *loader = run->job_loaders ? &run->job_loaders[w->index] : &refusing;
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(ref, loader, run->rules_files, run->nrules, err)) {
        c->needs_rules = true;            /* the calling thread says why */
    } else {
        struct lines_run lr;
        chunk_run_lines(ref, text, c->len, 1, resp, scratch, &lr, c->summary);
        c->lines = lr.lines;
        c->rejected = lr.rejected;
        c->opens_match = lr.opens_match;
        c->matches = ref->matches_ended;
        c->ended = lr.ended;
        if (c->ended) {
            c->last = scratch->last;
            c->last_end = scratch->last_end;
        }
        c->over = game_is_over(&ref->game);
        c->touched = ref->match_touched;
    }
    /* (the first chunk of its input fits unless one of these: check_merge.c) */
    bool again = c->rejected || c->needs_rules || (c->summary && c->summary->names_dropped);
    if (whole && again) memcpy(c->text, text, c->len);
    /* a session holding rule sets of this thread's bridge is released here, by the
     * thread that uses the bridge; one without can move to the calling thread */
    if (ref == w->ref) referee_free(ref);
    else if (c->needs_rules || !adoptable(c->ref)) chunk_free_referee(&c->ref);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    struct response *resp = mt_malloc(sizeof *resp);
    struct check_result *scratch = mt_malloc(sizeof *scratch);
    w->ref = mt_malloc(sizeof *w->ref);   /* without it, each chunk gets its own */
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->finished && p->claimed == p->dispatched) {
            p->idle++;
            pthread_cond_wait(&p->work_ready, &p->lock);
            p->idle--;
        }
        if (p->claimed == p->dispatched) break;
        struct chunk *c = &p->slots[p->claimed++ % p->nslots];
        pthread_mutex_unlock(&p->lock);
        if (resp && scratch) work_chunk(w, c, resp, scratch);
        else c->failed = true;
        pthread_mutex_lock(&p->lock);
        c->done = true;
        if (c->seq == p->awaited) pthread_cond_signal(&p->chunk_done);
    }
    pthread_mutex_unlock(&p->lock);
    free(w->ref);
    free(w->text);
    free(scratch);
    free(resp);
    return NULL;
}

static void chunk_reset(struct chunk *c)
{
    chunk_free_referee(&c->ref);
    if (c->closes_fd >= 0) close(c->closes_fd);
    c->closes_fd = -1;
    c->reads_tags = false;
    c->len = 0;
    c->done = c->needs_rules = c->rejected = c->failed = c->opens_match = c->ended = false;
    c->first = c->final = false;
    c->open_error = c->read_error = 0;
    c->fd = -1;
    c->offset = 0;
    c->lines = c->matches = 0;
    c->over = c->touched = false;
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

/* Merges the oldest chunk, which is done. */
static void merge_done(struct reading *rd)
{
    struct pool *p = rd->pool;
    struct chunk *old = &p->slots[rd->merged % p->nslots];
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

/* Waits until chunk seq (dispatched) is done; then merges the oldest chunks that are. */
static void merge_until(struct reading *rd, long seq)
{
    struct pool *p = rd->pool;
    pthread_mutex_lock(&p->lock);
    while (!p->slots[seq % p->nslots].done) {
        p->awaited = seq;
        pthread_cond_wait(&p->chunk_done, &p->lock);
    }
    p->awaited = -1;
    long ready = rd->merged;
    while (ready < p->dispatched && p->slots[ready % p->nslots].done) ready++;
    pthread_mutex_unlock(&p->lock);
    while (rd->merged < ready) merge_done(rd);
}

/* Merges the oldest chunk (waiting for its worker), and any done after it. */
static void merge_oldest(struct reading *rd)
{
    merge_until(rd, rd->merged);
}

/* The slot for the next chunk, free (merging old ones), or NULL when out of memory. */
static struct chunk *next_slot(struct reading *rd)
{
    struct pool *p = rd->pool;
    /* all slots in use: wait for about half of them, so that this thread wakes once
     * per batch of chunks, not once per chunk, while the workers still have work */
    if (p->dispatched + 1 - rd->merged >= p->nslots) merge_until(rd, rd->merged + (p->nslots - 1) / 2);
    while (p->dispatched + 1 - rd->merged >= p->nslots) merge_oldest(rd);
    struct chunk *c = &p->slots[p->dispatched % p->nslots];
    chunk_reset(c);
    return grow(c, rd->chunk_bytes + LONG_KEPT + 1) ? c : NULL;
}

static void dispatch(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->slots[p->dispatched % p->nslots].seq = p->dispatched;
    p->dispatched++;
    if (p->idle > 0) pthread_cond_signal(&p->work_ready);
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
    /* a regular file: its chunks are read by the workers, the rest (and any other
     * input) is read and copied here */
    struct stat st;
    off_t pos = -1;
    bool direct = rd->window && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (pos = lseek(fd, 0, SEEK_CUR)) >= 0;
    if (direct) {
        c->reads_tags = true;
        c->fd = fd;
    } else {
        check_read_tags(fd, &c->tags);
    }
    bool handed = false;          /* a worker reads from fd: drain before closing it */
    while (direct && !(rd->merge->input == i && (rd->merge->stopped || rd->merge->read_error))) {
        if (st.st_size - pos <= (off_t)rd->chunk_bytes) {
            /* the file ends within a chunk (as its size said when opened): its last
             * chunk is read by a worker too and owns the descriptor, so that a
             * directory of small files costs this thread an open and an fstat */
            c->fd = fd;
            c->offset = pos;
            c->len = st.st_size > pos ? (size_t)(st.st_size - pos) : 0;
            c->final = true;
            if (owned) c->closes_fd = fd;
            dispatch(rd->pool);
            return true;
        }
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
    if (c->reads_tags && c->fd == fd && c->len == 0) {
        /* the first chunk is read here after all: so are the tags */
        c->reads_tags = false;
        c->fd = -1;
        check_read_tags(fd, &c->tags);
    }
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
    /* every slot is set, whatever failed: the clean-up below resets them all */
    if (p.slots) memset(p.slots, 0, (size_t)p.nslots * sizeof *p.slots);
    for (int i = 0; p.slots && i < p.nslots; i++) p.slots[i].fd = p.slots[i].closes_fd = -1;
    for (int i = 0; ok && run->summary && i < p.nslots; i++)
        ok = (p.slots[i].summary = mt_malloc(sizeof *p.slots[i].summary)) != NULL;
    p.awaited = -1;
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.work_ready, NULL);
    pthread_cond_init(&p.chunk_done, NULL);
    int started = 0;
    for (; ok && started < jobs; started++) {
        workers[started] = (struct worker){.pool = &p, .index = started};
        if (pthread_create(&workers[started].thread, NULL, work, &workers[started]) != 0) break;
    }
    for (int i = 0; ok && started > 0 && i < n && !m.quit; i++) ok = read_input(&rd, i);
    while (started > 0 && rd.merged < p.dispatched) merge_oldest(&rd);
    pthread_mutex_lock(&p.lock);
    p.finished = true;
    pthread_cond_broadcast(&p.work_ready);
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
    chunk_free_referee(&m.ref);
    for (int i = 0; p.slots && i < p.nslots; i++) {
        chunk_reset(&p.slots[i]);
        free(p.slots[i].text);
        free(p.slots[i].summary);
    }
    pthread_cond_destroy(&p.work_ready);
    pthread_cond_destroy(&p.chunk_done);
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
                           struct check_result *res, struct check_summary *summary)
{
    if (jobs <= 1 || (nrules > 0 && !job_loaders)) {
        check_descriptor_summed(fd, loader, rules_files, nrules, res, summary);
        return;
    }
    struct one_descriptor one = {fd, res};
    memset(res, 0, sizeof *res);
    const char *const names[] = {summary ? summary->file : NULL};
    struct check_run run = {loader, rules_files, nrules, jobs, job_loaders, chunk_bytes, open_given, keep_verdict, &one,
                            summary, names};
    /* no thread to be had: one thread's way */
    if (!check_run_jobs(&run, 1)) check_descriptor_summed(fd, loader, rules_files, nrules, res, summary);
}
