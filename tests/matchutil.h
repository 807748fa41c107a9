/* Support for the end-to-end tests of mtref match (test_match.c, test_match_run.c):
 * the binaries under test, a scratch directory, shell commands, and the processes a
 * run leaves behind. */
#ifndef MTREF_MATCHUTIL_H
#define MTREF_MATCHUTIL_H

extern const char *mtref, *testbot;     /* MTREF_BINARY, MTREF_TESTBOT */
extern char mark[64];                   /* TESTBOT_MARK: in the environment of what a run starts */
extern char tmp[256];                   /* the scratch directory, removed at the end */

/* cmocka group set-up and tear-down: the binaries, the mark, the directory. */
int mu_setup(void **state);
int mu_teardown(void **state);

/* Runs a shell command line; its stdout (malloc'd) in *out; returns the exit status. */
int sh(const char *cmd, char **out);
/* How many times needle occurs in hay. */
int count(const char *hay, const char *needle);
/* Processes whose environment carries the mark, and a wait of up to ms for none. */
int marked_processes(void);
void wait_no_marked(int ms);
/* The records of tmp/DIR, their comment lines left out (they name the bots' commands). */
char *records_of(const char *dir);
/* The journal's match lines of tmp/DIR without what a clock measures, sorted. */
char *journal_of(const char *dir);

#endif
