/* `mtref selfplay` as a whole: the rules loaded once, the matches played in one
 * thread or on several (selfplay_jobs), to one stream or one file each. */
#ifndef MTREF_SELFPLAY_RUN_H
#define MTREF_SELFPLAY_RUN_H

#include <stdio.h>

#include "selfplay.h"

/* Plays o->games matches under the rules files (via loader) and writes them to out,
 * or one file per match in o->out_dir. Returns 0, or 2 with err set
 * (RULES_MESSAGE_SIZE bytes), also when a write fails (it stops there): every write
 * to out is checked, and a --out file is written under a temporary name in
 * o->out_dir, renamed to match-NNNNNN.mtr only once complete. Same options, same
 * bytes, whatever o->jobs. */
int selfplay_run(const struct selfplay_options *o, const struct rules_loader *loader,
                 const char *const rules_files[], int nrules, FILE *out, char *err);

#endif
