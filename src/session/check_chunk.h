/* The chunks of check --jobs (check_jobs.c) and their merge in input order
 * (check_merge.c): what a worker hands the calling thread, and what that thread
 * keeps of the input being merged. */
#ifndef MTREF_CHECK_CHUNK_H
#define MTREF_CHECK_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "check.h"
#include "session.h"

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
    bool reads_tags;              /* first, fd >= 0: the worker reads the input's tags too */
    int closes_fd;                /* the input's descriptor, closed when the chunk is reset
                                   * (in input order, so after every chunk that reads it); -1 */
    long seq;                     /* its place among the chunks dispatched */
    /* output of the worker */
    bool done;
    /* the session after the chunk, for the calling thread to carry on from; NULL after
     * an input's last chunk (refereed on the worker's own) or when it holds rule sets
     * of the worker's bridge; owned */
    struct referee *ref;
    bool needs_rules;             /* asked for a rules file it could not load */
    bool rejected, failed;        /* a line was rejected; out of memory */
    bool opens_match;             /* its first command is `players` or `rules` */
    long lines;                   /* lines refereed */
    long matches;                 /* matches ended in it */
    bool ended;                   /* a match ended in it: last, last_end */
    bool over, touched;           /* at its end: the match over; a set-up line or move since one ended */
    struct game last;
    struct verdict last_end;
    /* with --summary: what the chunk's lines add to it, counted from a fresh session
     * and lines numbered from 1; owned, kept with the slot */
    struct check_summary *summary;
};

/* What refereeing a chunk's lines found: counted into res (may be NULL: replayed). */
struct lines_run {
    long lines;
    bool ended, rejected, opens_match, seen_command;
};

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

/* Referees text[0..len) on ref through the session loop, its lines numbered from
 * first_number; stops at a rejected line (its verdict in res, which may be NULL).
 * Counts every response into summary (its file being read), unless NULL. */
void chunk_run_lines(struct referee *ref, const char *text, size_t len, long first_number, struct response *resp,
                     struct check_result *res, struct lines_run *lr, struct check_summary *summary);

/* Frees *ref (referee_free, then the memory) and sets it NULL; NULL does nothing. */
void chunk_free_referee(struct referee **ref);

/* The merge of an input's chunks, each once its worker is done, in order: begun at its
 * first, ended (the verdict handed to the run's caller) at its last. */
void merge_begin(struct merge *m, const struct chunk *first);
void merge_chunk(struct merge *m, struct chunk *c);
void merge_end(struct merge *m, const struct chunk *c);

#endif
