/* The monotonic clock every deadline of the match runner is measured on. */
#ifndef MTREF_CLOCK_H
#define MTREF_CLOCK_H

#include <stdint.h>

/* Microseconds since an arbitrary fixed point (CLOCK_MONOTONIC): never jumps with the
 * wall clock, so a deadline is never met early or missed because someone set the time. */
int64_t clock_us(void);

/* Sleeps about us microseconds (restarting after signals). */
void clock_sleep_us(int64_t us);

#endif
