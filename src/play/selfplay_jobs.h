/* Self-play on several cores: the matches of selfplay_match, played by worker threads
 * and written in index order, the bytes of one thread. */
#ifndef MTREF_SELFPLAY_JOBS_H
#define MTREF_SELFPLAY_JOBS_H

#include <stdio.h>

#include "selfplay.h"

/* Plays o->games matches on o->jobs worker threads (rules checked and loaded for the
 * caller's thread; with rules files each worker loads its own from o->job_loaders)
 * and writes them to out, or one file per match in o->out_dir: the same bytes as one
 * thread. Returns 0, or 2 with err set (RULES_MESSAGE_SIZE bytes). */
int selfplay_run_jobs(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                      int nrules, FILE *out, char *err);

#endif
