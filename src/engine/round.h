/* Rounds inside the engine: starting one, dealing it, ending it, scoring it, and the
 * end of the match. Engine-internal (engine.c and move.c only). */
#ifndef MTREF_ROUND_H
#define MTREF_ROUND_H

#include "game.h"

/* Lays out round g->round: engine, first seat, empty trains, no hands yet [R3-R6].
 * Returns false with v set to a `rules` error when a hook failed. */
bool round_start(struct game *g, struct verdict *v);
/* Deals the round from the referee's shuffle (seeded games) [R5]; false with v set
 * when a rules hook failed. */
bool round_deal_seeded(struct game *g, struct verdict *v);
/* Called once every hand is in: the boneyard is what is left [R5]; an engine dealt
 * with the rest is laid from its holder's hand, or hunted for. False with v set when a
 * rules hook failed. */
bool round_begin_play(struct game *g, struct verdict *v);
/* Lays the engine from seat's hand (where it is) and opens the round with the next seat. */
bool round_lay_engine_from(struct game *g, int seat, struct verdict *v);
/* Ends the round (out_seat or -1 for a block): scores it, eliminates, ends the match
 * or starts the next round; writes the events into v [R19-R22]. */
void round_finish(struct game *g, int out_seat, bool out_on_double, struct verdict *v);

#endif
