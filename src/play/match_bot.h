/* `mtref bot greedy|random`: a built-in player as a program that speaks the bot
 * protocol (text form) on a pair of file descriptors. The reference bot for authors:
 * it chooses from the `legal` lines it is sent, knowing only its private view. */
#ifndef MTREF_MATCH_BOT_H
#define MTREF_MATCH_BOT_H

#include <stdint.h>
#include <stdio.h>

#include "bots.h"
#include "referee.h"

/* Reads the referee's lines from in_fd until `bye` or end of input, answers on out.
 * Rules named in `rules` are loaded through loader for the tile values (canonical
 * values when they cannot be). seed feeds random's choices. Returns the exit status. */
int match_bot_run(enum bot_kind kind, int in_fd, FILE *out, const struct rules_loader *loader, uint64_t seed);

#endif
