/* Where check --jobs cuts a stream into chunks: before a `players` line, found by
 * walking lines back from a chunk's end (check_jobs.c). */
#ifndef MTREF_CHECK_CUT_H
#define MTREF_CHECK_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* pread of exactly len bytes at offset; false with *err set (EIO when the file has
 * become shorter meanwhile) */
bool check_read_at(int fd, char *buf, size_t len, off_t offset, int *err);

/* pread of up to len bytes at offset: fewer at the end of the file, or after an
 * error (*err set) */
size_t check_read_upto(int fd, char *buf, size_t len, off_t offset, int *err);

/* Where to cut text[0..len) (more follows): just before its last `players` line past
 * the start, and before the `rules` lines right above it; else after its last newline;
 * 0 when it holds no newline. *whole: the cut is before a `players` line and the walk
 * up its `rules` lines ended on another line of text (not at text[0], which may be the
 * middle of a line when text is a window). */
size_t check_cut_point(const char *text, size_t len, bool *whole);

/* The cut of the chunk of a regular file that starts at offset pos (chunk_bytes long,
 * and more follows), read through windows at its end into win (chunk_bytes long); 0
 * when there is none (the file ends within the chunk, a read failed, no line ends in
 * it): the caller reads on as from a pipe. */
size_t check_cut_in_file(int fd, off_t pos, size_t chunk_bytes, char *win);

#endif
