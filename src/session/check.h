/* Adjudication of record files: one verdict per file (mtref check). */
#ifndef MTREF_CHECK_H
#define MTREF_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "referee.h"

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
};

/* Adjudicates the record on descriptor fd with a fresh session (loader and rules
 * files as for referee_init); stops at the first rejected line. */
void check_descriptor(int fd, const struct rules_loader *loader, const char *const rules_files[],
                      int nrules, struct check_result *res);

/* The same verdict, the stream refereed in chunks on jobs worker threads (see
 * check_jobs.c); with --rules files, or jobs <= 1, it is check_descriptor. */
void check_descriptor_jobs(int fd, const struct rules_loader *loader, const char *const rules_files[], int nrules,
                           int jobs, struct check_result *res);

/* Writes a result as "FILE: ok, ana wins 40-61" / "FILE:LINE: code: message", or as one
 * JSON object. */
void check_print(FILE *out, enum output_mode mode, const char *file, const struct check_result *res);

#endif
