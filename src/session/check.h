/* Adjudication of record files: one verdict per file (mtref check). */
#ifndef MTREF_CHECK_H
#define MTREF_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"
#include "referee.h"

/* The record convention's tags (mtref(1), RECORDS), as a file's head and tail say:
 * "# [Event "Monday club"]" ... before its first line, "# [Result "..."]" after. */
#define CHECK_TAG_SIZE 200
struct check_tags {
    bool any;
    char event[CHECK_TAG_SIZE], site[CHECK_TAG_SIZE], date[CHECK_TAG_SIZE], round[CHECK_TAG_SIZE];
    char result[CHECK_TAG_SIZE];
    int nplayers;
    char player_names[RULES_MAX_PLAYERS][GAME_NAME_MAX_LEN + 1];
    char players[RULES_MAX_PLAYERS][CHECK_TAG_SIZE];
};

struct check_result {
    int status;                  /* 0 legal, 1 illegal, 2 syntax/rules/unreadable */
    long line;                   /* the rejected line, when status > 0 and not unreadable */
    struct verdict verdict;      /* the rejection */
    long matches;                /* matches that ended */
    bool complete;               /* every match in the file ended (and there was one) */
    long moves;                  /* lines handled, for throughput figures */
    struct game last;            /* the game as its last match ended */
    struct verdict last_end;     /* the verdict that ended it */
    char io_error[200];          /* unreadable file: why; empty otherwise */
    struct check_tags tags;      /* set by check_read_tags; reset by check_descriptor */
};

/* Reads the tags of the regular file on fd (its first and last few kilobytes, with
 * pread: the offset does not move) into tags; nothing for a pipe. */
void check_read_tags(int fd, struct check_tags *tags);

/* Adjudicates the record on descriptor fd with a fresh session (loader and rules
 * files as for referee_init); stops at the first rejected line. */
void check_descriptor(int fd, const struct rules_loader *loader, const char *const rules_files[],
                      int nrules, struct check_result *res);

/* The figures of `check --summary` over every file checked: what a club wants to know
 * of a season. Players are counted by name (the first CHECK_SUMMARY_NAMES names met;
 * later ones only by seat) and by seat. */
#define CHECK_SUMMARY_NAMES 256
struct check_tally {
    long matches, wins, draws;   /* draws: a shared win */
    int64_t total_sum;           /* sum of the final totals, for the mean */
};
struct check_summary {
    long files, legal, complete, matches, rounds, blocked;
    long round_moves;            /* moves of the round being played, in the file being read */
    long longest_moves, longest_line;   /* the longest round: moves, and the line that ended it */
    char longest_file[1024];
    const char *file;            /* the file being read, set by the caller (not owned) */
    int nnames;
    bool names_dropped;          /* a name was met past the first CHECK_SUMMARY_NAMES */
    char names[CHECK_SUMMARY_NAMES][GAME_NAME_MAX_LEN + 1];
    struct check_tally by_name[CHECK_SUMMARY_NAMES];
    struct check_tally by_seat[RULES_MAX_PLAYERS];
};

/* check_descriptor that also adds what it reads to summary (not NULL; zero it first,
 * set summary->file before each file). */
void check_descriptor_summed(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                             struct check_result *res, struct check_summary *summary);
/* Counts a file's verdict in the summary (after check_descriptor_summed). */
void check_summary_add_file(struct check_summary *summary, const struct check_result *res);
/* Counts one response of ref's session (the summary's file being read). */
void check_summary_add_response(struct check_summary *summary, const struct referee *ref,
                                const struct response *resp);
/* Adds part, the summary of lines refereed from a fresh session and numbered from 1,
 * to summary, where they are the lines after line `offset` of file (not owned): as
 * if summary had counted them itself, provided part dropped no name (a name it
 * dropped may be one that summary counts). */
void check_summary_add_part(struct check_summary *summary, const struct check_summary *part, long offset,
                            const char *file);
/* Writes the summary as a small table, or as one JSON object {"summary":{...}}. */
void check_summary_print(FILE *out, enum output_mode mode, const struct check_summary *summary);

/* A run of check over several inputs on several threads (check_jobs.c): the verdicts
 * of one thread, in input order, with true line numbers. */
struct check_run {
    const struct rules_loader *loader;       /* the calling thread's; not owned */
    const char *const *rules_files;          /* --rules; not owned */
    int nrules;
    int jobs;                                /* worker threads */
    /* one loader per job, each used by its thread alone (a Lua state serves one
     * thread), or NULL: a record's `rules` lines are then refereed by the calling
     * thread. With rules_files it must not be NULL. */
    const struct rules_loader *job_loaders;
    size_t chunk_bytes;                      /* bytes per chunk of a long input; 0: the default */
    /* Opens input i: 0 with *fd set (*owned: close it after), or an errno. */
    int (*open)(void *ctx, int i, int *fd, bool *owned);
    /* The verdict of input i, called in input order; false ends the run there. */
    bool (*verdict)(void *ctx, int i, struct check_result *res);
    void *ctx;
    /* --summary: what every input adds to it (but check_summary_add_file, which is the
     * verdict callback's), or NULL; names[i] is input i's name for its longest round */
    struct check_summary *summary;
    const char *const *names;
};

/* Checks inputs 0..n-1 (see struct check_run): each cut into chunks of whole lines
 * just before a `players` line (or the `rules` lines before one), the chunks refereed
 * on the worker threads, and merged in order by the calling thread, which referees
 * again itself any chunk whose verdict could differ from that of one thread. False
 * (and no verdict given) when no thread could be started. */
bool check_run_jobs(const struct check_run *run, int n);

/* The same verdict (and summary) as check_descriptor_summed for one descriptor (not
 * closed), the stream refereed on jobs threads (job_loaders as in struct check_run);
 * summary may be NULL. */
void check_descriptor_jobs(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                           int jobs, const struct rules_loader *job_loaders, size_t chunk_bytes,
                           struct check_result *res, struct check_summary *summary);

/* Writes a result as "FILE: ok, ana wins 40-61" / "FILE:LINE: code: message", or as one
 * JSON object. */
void check_print(FILE *out, enum output_mode mode, const char *file, const struct check_result *res);

/* With --require-complete: "FILE: incomplete: ..." (status 1), or its JSON object
 * with the error "incomplete", for a legal file whose last match did not end. */
void check_print_incomplete(FILE *out, enum output_mode mode, const char *file, const struct check_result *res);

#endif
