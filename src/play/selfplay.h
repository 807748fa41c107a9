/* Self-play: complete matches between built-in players, written as records that
 * stand alone (players, rounds, rules, explicit deals, named draws). */
#ifndef MTREF_SELFPLAY_H
#define MTREF_SELFPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bots.h"
#include "rules.h"

/* Self-play gives up on a match that has not ended after this many rounds (the
 * default of max_rounds). */
#define SELFPLAY_MAX_ROUNDS 1000

struct selfplay_options {
    int players;                              /* 4 */
    int rounds;                               /* 0: the rules' default */
    long games;                               /* 1 */
    uint64_t seed;                            /* 1 */
    enum bot_kind bots[RULES_MAX_PLAYERS];    /* seat i plays bots[i % nbots] */
    int nbots;
    const char *out_dir;                      /* NULL: one stream on out */
    const char *date;                         /* --tags: the Date tag ("2026.12.01"); NULL: no tags */
    int jobs;                                 /* worker threads; 1 (the default): none */
    /* with rules files and jobs > 1: one loader per job (a Lua state serves one
     * thread); NULL runs such a stream in one thread */
    const struct rules_loader *job_loaders;
    int max_rounds;                           /* SELFPLAY_MAX_ROUNDS */
    /* every move through game_move's full check, not game_apply_known: the same
     * records (the test of the short way) */
    bool check_moves;
};

void selfplay_defaults(struct selfplay_options *o);
/* Parses "greedy,random,..." into o->bots; false on an unknown name. */
bool selfplay_parse_bots(const char *list, struct selfplay_options *o);

/* Plays match number `index` of o->seed under rules and writes its record through
 * the sink, in chunks. Returns 0, or 2 with err set (RULES_MESSAGE_SIZE bytes) when
 * the set-up is refused, a rules hook failed, memory ran out, or the match had not
 * ended after o->max_rounds rounds. Same options, same bytes. */
struct selfplay_sink {
    void (*write)(void *ctx, const char *data, size_t len);
    void *ctx;
};
int selfplay_match(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                   int nrules, long index, const struct selfplay_sink *sink, char *err);
/* selfplay_match written in place into a buffer of the caller's, without a copy:
 * reserve keeps the `used` bytes written at the area it returned last, and returns a
 * free area of at least `room` bytes (its size in *size), or NULL when memory ran out
 * (the match then fails). It is called with room 0 once the record is complete. */
struct selfplay_buffer {
    char *(*reserve)(void *ctx, size_t used, size_t room, size_t *size);
    void *ctx;
};
int selfplay_match_in_place(const struct selfplay_options *o, const struct rules *rules,
                            const char *const rules_files[], int nrules, long index,
                            const struct selfplay_buffer *buffer, char *err);
/* selfplay_match written to out, stopping at the first write that fails (2, err set). */
int selfplay_stream_match(const struct selfplay_options *o, const struct rules *rules,
                          const char *const rules_files[], int nrules, long index, FILE *out, char *err);
/* selfplay_match into o->out_dir/match-NNNNNN.mtr (index + 1), written under a
 * temporary name in o->out_dir and renamed only once complete. */
int selfplay_match_file(const struct selfplay_options *o, const struct rules *rules, const char *const rules_files[],
                        int nrules, long index, char *err);
/* The record of match `index`, already played into data[0..len), saved the same way. */
int selfplay_save_match(const struct selfplay_options *o, long index, const char *data, size_t len, char *err);

#endif
