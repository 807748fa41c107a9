/* The seats of one match as the runner talks to them: each bot's pipes, queue, line
 * assembly, stderr tail and clock, and the poll loop that drives them all. Private to
 * match_run.c and match_io.c. */
#ifndef MTREF_MATCH_IO_H
#define MTREF_MATCH_IO_H

#include <stdio.h>

#include "match.h"
#include "line_asm.h"
#include "outq.h"
#include "tail.h"
#include "proc.h"

enum waiting { WAIT_NONE, WAIT_HELLO, WAIT_MOVE };

struct seat_io {
    bool external;
    bool live;                  /* a process we talk to */
    bool retired;               /* forfeited: the fallback plays the seat */
    bool said_bye;
    bool urgent;                /* queued bytes it must get now (not just events) */
    enum proto_form form;
    struct proc proc;
    struct outq q;
    struct line_asm lines;
    struct tail err;
    enum waiting waiting;
    long pending_id;
    bool got;
    struct bot_answer answer;
    char raw[220];              /* the last line read, escaped, for comments */
    long unsolicited_lines;
    size_t unsolicited_bytes;
    enum fault_kind fault;
    char detail[240];
    int64_t move_us, bank_us;   /* its clock: per decision (< 0: none), and the bank left */
    struct proc_limits limits;
    FILE *log;
    char workdir[512];          /* its fresh working directory, removed at the end; "" none */
};

struct match_ctx {
    const struct match_setup *s;
    const struct match_config *c;
    struct game *g;
    struct match_result *r;
    struct mbuf *record;
    struct seat_io seats[RULES_MAX_PLAYERS];
    struct mbuf msg;
    long next_id;
    int64_t answer_at;          /* when the last answer was read: the referee's latency starts */
    bool lazy;                  /* sending events: they may wait in the queue */
    int64_t checked_at;         /* when the processes were last looked at */
    long lat_cap;
};

/* Bytes a bot wrote, printable ASCII for comments, details and tails. */
void match_io_escape(const char *data, size_t len, char *out, size_t size);
/* Notes seat's first fault (later ones are ignored); the runner applies the policy. */
void match_io_fault(struct match_ctx *x, int seat, enum fault_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The message composed in x->msg, to one seat (seat >= 0) or every live one. */
void match_io_send(struct match_ctx *x, int seat);
/* Composes and sends a message per live seat and form: build(x, seat, form, arg);
 * these are events, which wait in the queue for the bot's next question. */
typedef void match_build_fn(struct match_ctx *x, int seat, enum proto_form f, const void *arg);
void match_io_broadcast(struct match_ctx *x, match_build_fn *build, const void *arg);
/* One poll over every live seat, waiting until deadline (clock_us; < 0: no limit) at most. */
void match_io_pump(struct match_ctx *x, int64_t deadline);
/* Reads what a seat's pipes hold now. */
void match_io_drain(struct match_ctx *x, int seat);
/* Flushes, then stops the processes of these seats together (bye grace, TERM, KILL). */
void match_io_stop(struct match_ctx *x, const int *which, int n);
/* Asks the bot at seat; true with *m set when it answered in time with a move the
 * engine accepted (already played on x->g, its verdict in *v). Charges its clock. */
bool match_io_ask(struct match_ctx *x, int seat, const struct move *legal, int n, struct move *m, struct verdict *v);

#endif
