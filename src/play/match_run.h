/* One match between bots: built-ins in process, programs as subprocesses speaking the
 * bot protocol, each sent only its private view. One poll loop on the monotonic clock
 * drives every pipe; a misbehaving bot becomes a fault with a stable name, never a
 * hang; a forfeited seat is finished by a built-in so the record stays legal. */
#ifndef MTREF_MATCH_RUN_H
#define MTREF_MATCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"

/* The stable name of a fault kind: "timeout", "crash", ... ("none" for FAULT_NONE). */
const char *match_fault_name(enum fault_kind kind);
/* The run's defaults (mtref(1), match). */
void match_config_defaults(struct match_config *c);
/* Frees what r holds (its latency list); NULL does nothing. */
void match_result_free(struct match_result *r);

/* Plays one match. The record (a stand-alone, checkable record: header, rules,
 * players, rounds, deals, moves with named draws, comments for forfeits) is appended
 * to record. Returns 0, or 2 with err (RULES_MESSAGE_SIZE) when the set-up is refused,
 * a rules hook fails or memory runs out. Faults are results, not errors. */
int match_run(const struct match_setup *s, const struct match_config *c, const struct rules *rules,
              const char *const rules_files[], int nrules, struct mbuf *record, struct match_result *r, char *err);

/* The adjudication of totals (exposed for tests): forfeiters rank last and score no
 * better than the worst real total at their table. */
void match_adjudicate(const struct rules *rules, int n, const int64_t totals[], const bool forfeited[],
                      int64_t adjudicated[], int ranks[]);

#endif
