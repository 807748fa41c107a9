/* Self-play on several cores: worker threads play blocks of consecutive matches (each
 * seeded by its own index, so a match is the same whoever plays it) into buffers, and
 * the calling thread writes the blocks in index order, to the stream or one file per
 * match: the bytes of one thread. A bounded ring of blocks keeps memory flat however
 * many matches are asked for. */
#include "selfplay_jobs.h"

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
    pthread_cond_t changed;
    const struct selfplay_options *o;
    const char *const *rules_files;
    int nrules;
    long nblocks, next, written;     /* blocks: count, next to play, written so far */
    bool stop;
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

static void to_slot(void *ctx, const char *data, size_t len)
{
    struct slot *s = ctx;
    if (s->out_of_memory) return;
    if (s->len + len > s->cap) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap < s->len + len) cap *= 2;
        char *grown = mt_realloc(s->data, cap);
        if (!grown) {
            s->out_of_memory = true;
            return;
        }
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->len, data, len);
    s->len += len;
}

static void play_block(struct worker *w, long block, struct slot *s)
{
    const struct selfplay_options *o = w->pool->o;
    struct selfplay_sink sink = {to_slot, s};
    s->len = 0;
    s->status = 0;
    s->out_of_memory = false;
    s->nended = 0;
    long end = (block + 1) * BLOCK_MATCHES < o->games ? (block + 1) * BLOCK_MATCHES : o->games;
    for (long i = block * BLOCK_MATCHES; i < end; i++) {
        s->status = selfplay_match(o, w->rules, w->pool->rules_files, w->pool->nrules, i, &sink, s->err);
        if (s->out_of_memory && s->status == 0) {
            snprintf(s->err, sizeof s->err, "out of memory");
            s->status = 2;
        }
        if (s->status != 0) return;
        s->ends[s->nended++] = s->len;
    }
}

/* The calling thread's part: a played block to the stream, or each match to its file
 * (up to a failed one, whose record is not kept). */
static int write_block(const struct selfplay_options *o, long block, const struct slot *s, FILE *out, char *err)
{
    if (!o->out_dir) {
        if (s->len) fwrite(s->data, 1, s->len, out);
        return 0;
    }
    for (int i = 0; i < s->nended; i++) {
        size_t from = i ? s->ends[i - 1] : 0;
        int status = selfplay_save_match(o, block * BLOCK_MATCHES + i, s->data + from, s->ends[i] - from, err);
        if (status != 0) return status;
    }
    return 0;
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->next < p->nblocks && p->next >= p->written + p->nslots)
            pthread_cond_wait(&p->changed, &p->lock);
        if (p->stop || p->next >= p->nblocks) break;
        long block = p->next++;
        struct slot *s = &p->slots[block % p->nslots];
        pthread_mutex_unlock(&p->lock);
        play_block(w, block, s);
        pthread_mutex_lock(&p->lock);
        s->done = true;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int selfplay_run_jobs(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                      int nrules, FILE *out, char *err)
{
    int jobs = o->jobs;
    struct pool p = {.o = o, .rules_files = rules_files, .nrules = nrules};
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
    pthread_cond_init(&p.changed, NULL);
    /* every worker its own rule set: a Lua state serves one thread */
    for (int i = 0; i < jobs; i++) {
        workers[i] = (struct worker){.pool = &p, .rules = rules};
        if (nrules > 0 && status == 0) {
            const struct rules_loader *l = &o->job_loaders[i];
            workers[i].handle = l->load(l->ctx, rules_files, nrules, &workers[i].rules, err);
            if (!workers[i].handle) status = 2;
        }
    }
    for (int i = 0; i < jobs && status == 0; i++) {
        if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
            snprintf(err, RULES_MESSAGE_SIZE, "cannot start a worker thread");
            status = 2;
            break;
        }
        workers[i].started = true;
    }
    for (long b = 0; b < p.nblocks && status == 0; b++) {
        struct slot *s = &p.slots[b % p.nslots];
        pthread_mutex_lock(&p.lock);
        while (!s->done) pthread_cond_wait(&p.changed, &p.lock);
        pthread_mutex_unlock(&p.lock);
        status = write_block(o, b, s, out, err);
        if (status == 0 && s->status != 0) {
            status = s->status;
            snprintf(err, RULES_MESSAGE_SIZE, "%s", s->err);
        }
        pthread_mutex_lock(&p.lock);
        s->done = false;
        p.written++;
        pthread_cond_broadcast(&p.changed);
        pthread_mutex_unlock(&p.lock);
    }
    pthread_mutex_lock(&p.lock);
    p.stop = true;
    pthread_cond_broadcast(&p.changed);
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < jobs; i++) {
        if (workers[i].started) pthread_join(workers[i].thread, NULL);
        const struct rules_loader *l = nrules > 0 ? &o->job_loaders[i] : NULL;
        if (workers[i].handle && l->release) l->release(l->ctx, workers[i].handle);
    }
    for (int i = 0; i < p.nslots; i++) free(p.slots[i].data);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(p.slots);
    free(workers);
    return status;
}
