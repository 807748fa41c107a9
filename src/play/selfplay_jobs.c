/* Self-play on several cores: worker threads play blocks of consecutive matches (each
 * seeded by its own index, so a match is the same whoever plays it) straight into
 * buffers, and whichever worker finds the next block in index order played writes it,
 * to the stream or one file per match: the bytes of one thread, and no thread that
 * only waits to write (it would take a core from the players each time it woke). A
 * bounded ring of blocks keeps memory flat however many matches are asked for. The
 * calling thread is the first worker. */
#include "selfplay_jobs.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define BLOCK_MATCHES 8          /* matches per block */
#define SLOTS_PER_JOB 3          /* blocks in flight per worker */

struct slot {
    bool done;                   /* played, not yet written */
    int status;
    bool out_of_memory;
    char err[RULES_MESSAGE_SIZE];
    char *data;
    size_t len, cap;
    int nended;                  /* matches played whole, ... */
    size_t ends[BLOCK_MATCHES];  /* ... and where each one's record ends in data */
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t freed;            /* a block was written: its slot can be played into */
    const struct selfplay_options *o;
    const char *const *rules_files;
    int nrules;
    FILE *out;
    long nblocks, next, written;     /* blocks: count, next to play, written so far */
    bool writing;                    /* a worker is writing block `written` */
    bool stop;                       /* a block failed, or could not be written */
    int status;                      /* the first failure in index order, and its message */
    char err[RULES_MESSAGE_SIZE];
    int nslots;
    struct slot *slots;
};

struct worker {
    struct pool *pool;
    const struct rules *rules;
    void *handle;                    /* the worker's own rule set, when files are loaded */
    pthread_t thread;
    bool started;
};

/* selfplay_buffer.reserve: a record is written in place after the slot's data. */
static char *slot_reserve(void *ctx, size_t used, size_t room, size_t *size)
{
    struct slot *s = ctx;
    s->len += used;
    if (s->cap - s->len < room) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap - s->len < room + (1 << 16)) cap *= 2;     /* so that calls stay rare */
        char *grown = mt_realloc(s->data, cap);
        if (!grown) {
            s->out_of_memory = true;
            return NULL;
        }
        s->data = grown;
        s->cap = cap;
    }
    *size = s->cap - s->len;
    return s->data + s->len;
}

static void play_block(struct worker *w, long block, struct slot *s)
{
    const struct selfplay_options *o = w->pool->o;
    struct selfplay_buffer buffer = {slot_reserve, s};
    s->len = 0;
    s->status = 0;
    s->out_of_memory = false;
    s->nended = 0;
    long end = (block + 1) * BLOCK_MATCHES < o->games ? (block + 1) * BLOCK_MATCHES : o->games;
    for (long i = block * BLOCK_MATCHES; i < end; i++) {
        s->status = selfplay_match_in_place(o, w->rules, w->pool->rules_files, w->pool->nrules, i, &buffer, s->err);
        if (s->out_of_memory) {
            snprintf(s->err, sizeof s->err, "out of memory");
            s->status = 2;
        }
        if (s->status != 0) return;
        s->ends[s->nended++] = s->len;
    }
}

/* A played block to the stream, or each match to its file (up to a failed one, whose
 * record is not kept); then the block's own failure, if it had one. */
static int write_block(const struct selfplay_options *o, long block, const struct slot *s, FILE *out, char *err)
{
    if (!o->out_dir) {
        errno = 0;
        if (s->len && (fwrite(s->data, 1, s->len, out) != s->len || ferror(out))) {
            /* stops there, as one thread does */
            snprintf(err, RULES_MESSAGE_SIZE, "cannot write the records: %s", strerror(errno ? errno : EIO));
            return 2;
        }
    } else {
        for (int i = 0; i < s->nended; i++) {
            size_t from = i ? s->ends[i - 1] : 0;
            int status = selfplay_save_match(o, block * BLOCK_MATCHES + i, s->data + from, s->ends[i] - from, err);
            if (status != 0) return status;
        }
    }
    if (s->status != 0) snprintf(err, RULES_MESSAGE_SIZE, "%s", s->err);
    return s->status;
}

/* Writes the blocks that are due, in order, unless another worker is at it (it looks
 * again after each block it writes). Called and returns with the lock held. */
static void write_due(struct pool *p)
{
    while (!p->stop && !p->writing && p->written < p->nblocks && p->slots[p->written % p->nslots].done) {
        long block = p->written;
        struct slot *s = &p->slots[block % p->nslots];
        p->writing = true;
        pthread_mutex_unlock(&p->lock);
        char err[RULES_MESSAGE_SIZE];
        int status = write_block(p->o, block, s, p->out, err);
        pthread_mutex_lock(&p->lock);
        p->writing = false;
        s->done = false;
        p->written++;
        if (status != 0) {
            p->status = status;
            memcpy(p->err, err, sizeof err);
            p->stop = true;
        }
        pthread_cond_broadcast(&p->freed);
    }
}

/* A worker: writes what is due, then plays the next block once its slot is free.
 * Every block played is written: by the worker that played it when it is due, else
 * by the one writing when it was played, or the one that plays the block before it. */
static void *work(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        write_due(p);
        if (p->stop || p->next >= p->nblocks) break;
        if (p->next >= p->written + p->nslots) {
            pthread_cond_wait(&p->freed, &p->lock);
            continue;
        }
        long block = p->next++;
        struct slot *s = &p->slots[block % p->nslots];
        pthread_mutex_unlock(&p->lock);
        play_block(w, block, s);
        pthread_mutex_lock(&p->lock);
        s->done = true;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Stops the workers at their next look (a worker that could not be started). */
static void stop_all(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->freed);
    pthread_mutex_unlock(&p->lock);
}

int selfplay_run_jobs(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                      int nrules, FILE *out, char *err)
{
    int jobs = o->jobs;
    struct pool p = {.o = o, .rules_files = rules_files, .nrules = nrules, .out = out};
    p.nblocks = (o->games + BLOCK_MATCHES - 1) / BLOCK_MATCHES;
    p.nslots = jobs * SLOTS_PER_JOB;
    p.slots = mt_malloc((size_t)p.nslots * sizeof *p.slots);
    struct worker *workers = mt_malloc((size_t)jobs * sizeof *workers);
    int status = 0;
    if (!p.slots || !workers) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        free(p.slots);
        free(workers);
        return 2;
    }
    memset(p.slots, 0, (size_t)p.nslots * sizeof *p.slots);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.freed, NULL);
    /* every worker its own rule set: a Lua state serves one thread */
    for (int i = 0; i < jobs; i++) {
        workers[i] = (struct worker){.pool = &p, .rules = rules};
        if (nrules > 0 && status == 0) {
            const struct rules_loader *l = &o->job_loaders[i];
            workers[i].handle = l->load(l->ctx, rules_files, nrules, &workers[i].rules, err);
            if (!workers[i].handle) status = 2;
        }
    }
    for (int i = 1; i < jobs && status == 0; i++) {
        if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
            snprintf(err, RULES_MESSAGE_SIZE, "cannot start a worker thread");
            status = 2;
            stop_all(&p);
            break;
        }
        workers[i].started = true;
    }
    if (status == 0) work(&workers[0]);
    for (int i = 0; i < jobs; i++) {
        if (workers[i].started) pthread_join(workers[i].thread, NULL);
        const struct rules_loader *l = nrules > 0 ? &o->job_loaders[i] : NULL;
        if (workers[i].handle && l->release) l->release(l->ctx, workers[i].handle);
    }
    if (status == 0 && p.status != 0) {
        status = p.status;
        snprintf(err, RULES_MESSAGE_SIZE, "%s", p.err);
    }
    for (int i = 0; i < p.nslots; i++) free(p.slots[i].data);
    pthread_cond_destroy(&p.freed);
    pthread_mutex_destroy(&p.lock);
    free(p.slots);
    free(workers);
    return status;
}
