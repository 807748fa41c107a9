/* Refereeing one input stream: lines from a descriptor through a session, every
 * response written out, the exit status of protocol.md. What `mtref [FILE]` runs. */
#ifndef MTREF_STREAM_H
#define MTREF_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "referee.h"

struct stream_options {
    enum output_mode mode;
    bool keep_going;                 /* reject and read on instead of stopping */
    const char *const *rules_files;  /* --rules, not owned */
    int nrules;
    const char *name;                /* for read errors on err */
};

/* Referees fd (not closed) to out; flushes out before every read that may wait.
 * Returns 0, 1 or 2 as protocol.md's exit status; read errors go to err. */
int stream_run(int fd, FILE *out, FILE *err, const struct stream_options *o, const struct rules_loader *loader);

#endif
