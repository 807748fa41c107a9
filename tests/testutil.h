/* Test support: run protocol text through a real session and look at the result. */
#ifndef MTREF_TESTUTIL_H
#define MTREF_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine.h"
#include "output.h"
#include "referee.h"
#include "stream.h"

/* A session with the Lua loader and --rules files (may be NULL/0); free with tu_free. */
struct referee *tu_session(const char *const rules[], int nrules);
void tu_free(struct referee *ref);

/* Feeds the lines of text (separated by \n) to ref; fails the test at the first
 * rejected line, naming it. */
void tu_feed(struct referee *ref, const char *text);
/* Feeds one line and returns its verdict code (the session is left as after it). */
enum error_code tu_line(struct referee *ref, const char *line);
/* The full verdict of the last tu_line. */
const struct verdict *tu_last(void);

/* Runs a whole record through stream_run; returns the exit status and the output
 * (malloc'd, caller frees) in *out. */
int tu_run(const char *record, bool json, bool keep_going, const char *const rules[], int nrules, char **out);

/* Self-plays o under the rules files (may be NULL/0), with a Lua bridge of its own, into
 * memory: returns selfplay_run's status, the record (malloc'd, caller frees) in *text
 * and its size in *size (may be NULL), and any error in err (RULES_MESSAGE_SIZE bytes). */
struct selfplay_options;
int tu_selfplay(const struct selfplay_options *o, const char *const files[], int nfiles, char **text, size_t *size,
                char *err);

/* Reads a file under tests/ (MTREF_TEST_DIR); malloc'd, NUL-terminated; NULL if absent. */
char *tu_read_test_file(const char *relative, size_t *len);

/* Tests as data: runs test once for every file NAME<suffix> of tests/<subdir>
 * (MTREF_TEST_DIR), in name order, as the cmocka group group, each test named and
 * handed (as *state) NAME<suffix>, or NAME when strip_suffix. Fewer than min files is
 * a failure (a directory that lost its files must not pass). Returns main's status. */
int tu_run_data_files(const char *group, const char *subdir, const char *suffix, bool strip_suffix, size_t min,
                      CMUnitTestFunction test);


/* Engine tests. */

/* Whether two verdicts agree on what a caller reads of a move's verdict: the code (and
 * the message of a rejection), the tile drawn, the round's report (the seats round_finish
 * fills), the eliminations, and the winners once the match ends. */
bool tu_same_verdict(const struct verdict *a, const struct verdict *b, int nplayers);

/* The files of a rule set as the loader takes them: names[] is NULL-terminated (at most
 * 3), a name with a '/' is a file under rules/ (MTREF_TEST_DIR/../rules/NAME.lua),
 * written into paths[]; any other is a rules name. Returns how many. */
int tu_rule_files(const char *const names[], char paths[][4096], const char *files[]);

/* The rule set of files[0..n) through loader (*handle to release), or canonical when n
 * is 0 (*handle NULL); fails the test when the files do not load. */
const struct rules *tu_load_rules(const struct rules_loader *loader, const char *const files[], int n,
                                  const struct rules *canonical, void **handle);

/* game_init under rules, then players seats named p1..pN; fails the test if refused. */
void tu_seat_players(struct game *g, const struct rules *rules, int players);

/* The tiles seat s of g was dealt this round, as a deal line lists them (the engine back
 * in the hand that laid it), into tiles; returns how many. */
int tu_dealt_tiles(const struct game *g, int s, tile_t tiles[TILE_COUNT]);

#endif

/* Building positions from real deals. */

/* A set of pips for tu_deal: TU_PIP(0) | TU_PIP(4). */
#define TU_PIP(p) (1u << (p))

/* Deals the round about to be played with explicit `deal` lines. Seat s gets the tiles
 * listed in fixed[s] ("1-12 0-4", may be ""), topped up to the hand size with filler
 * tiles that show none of the pips in avoid[s]; no filler is the engine, a tile listed
 * in fixed[] or in keep (tiles that must stay in the boneyard, may be NULL). Fillers are
 * handed out in tile order, most constrained seat first, so a deal is reproducible.
 * Fails the test when the hands cannot be made. out (may be NULL) receives each seat's
 * hand as a tile set. */
void tu_deal(struct referee *ref, const char *const fixed[], const unsigned avoid[], const char *keep,
             tileset out[]);

/* The tiles of a list like "1-12 0-4" as a set; fails the test on a bad tile. */
tileset tu_tiles(const char *list);
/* Sum of the pips of a set [R1]. */
int64_t tu_pips(tileset s);

/* Feeds the lines of text like tu_feed, and also fails the test if one of them ends a
 * round: the scenario must keep the round alive up to the line under test. */
void tu_moves(struct referee *ref, const char *text);
