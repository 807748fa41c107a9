/* Suggestions for typos: the nearest of a list of words by edit distance, for
 * messages such as "unknown option '--jsn' (did you mean --json?)". */
#ifndef MTREF_NEAREST_H
#define MTREF_NEAREST_H

#include <stddef.h>

/* The Levenshtein distance of a and b (insertions, deletions, substitutions), or a
 * large number when either is longer than 64 bytes (no suggestion for those). */
int nearest_distance(const char *a, const char *b);

/* Whether candidate is close enough to word to be offered: at most two edits, and
 * fewer than half the word's length. */
int nearest_is_close(const char *word, const char *candidate);

/* The index of the closest of words[0..n) to word that nearest_is_close admits, or -1. */
int nearest_of(const char *word, const char *const words[], int n);

#endif
