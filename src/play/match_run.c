/* One match between bots: the poll loop, the clocks, faults, the fallback, the record. */
#include "match_run.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "clock.h"
#include "output.h"
#include "pipe.h"
#include "proc.h"

/* A match cut off after this many rounds (rules that never end it). */
#define MATCH_MAX_ROUNDS 1000

const char *match_fault_name(enum fault_kind kind)
{
    static const char *const names[FAULT_COUNT] = {"none", "start", "timeout", "crash", "garbled",
                                                   "illegal", "flood", "stalled"};
    return kind >= 0 && kind < FAULT_COUNT ? names[kind] : "?";
}

void match_config_defaults(struct match_config *c)
{
    memset(c, 0, sizeof *c);
    c->init_us = 10000000;
    c->move_us = 1000000;
    c->bank_us = 60000000;
    c->margin_us = 10000;
    c->grace_us = 500000;
    c->max_line = 4096;
    c->flood_lines = 1000;
    c->flood_bytes = 1 << 20;
    c->stall_bytes = 1 << 20;
    c->policy = POLICY_FORFEIT;
    c->fallback = BOT_GREEDY;
}

void match_result_free(struct match_result *r)
{
    free(r->latency_us);
    r->latency_us = NULL;
    r->nlatency = 0;
}

enum waiting { WAIT_NONE, WAIT_HELLO, WAIT_MOVE };

struct seat_io {
    bool external;
    bool live;                  /* a process we talk to */
    bool retired;               /* forfeited: the fallback plays the seat */
    bool said_bye;
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
    int64_t bank_us;
    FILE *log;
};

struct ctx {
    const struct match_setup *s;
    const struct match_config *c;
    struct game *g;
    struct match_result *r;
    struct mbuf *record;
    struct seat_io seats[RULES_MAX_PLAYERS];
    struct mbuf msg;
    long next_id;
    int64_t answer_at;          /* when the last answer was read: the referee's latency starts */
    long lat_cap;
};

/* ---- escaping what a bot wrote, for comments, details and tails ---- */

static void escape_bytes(const char *data, size_t len, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 5 < size; i++) {
        unsigned char ch = (unsigned char)data[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '\\') out[k++] = (char)ch;
        else if (ch == '\\') { out[k++] = '\\'; out[k++] = '\\'; }
        else if (ch == '\n') { out[k++] = '\\'; out[k++] = 'n'; }
        else k += (size_t)snprintf(out + k, size - k, "\\x%02x", ch);
    }
    if (size) out[k < size ? k : size - 1] = '\0';
}

static void log_line(struct seat_io *io, const char *dir, const char *data, size_t len)
{
    if (!io->log) return;
    fputs(dir, io->log);
    fwrite(data, 1, len, io->log);
    if (!len || data[len - 1] != '\n') putc('\n', io->log);
}

/* ---- faults ---- */

static void fault(struct ctx *x, int seat, enum fault_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fault(struct ctx *x, int seat, enum fault_kind kind, const char *fmt, ...)
{
    struct seat_io *io = &x->seats[seat];
    if (io->fault != FAULT_NONE) return;
    io->fault = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(io->detail, sizeof io->detail, fmt, ap);
    va_end(ap);
}

/* ---- sending ---- */

static void lost(struct ctx *x, int seat, const char *what);

static void send_to(struct ctx *x, int seat, const char *data, size_t len)
{
    struct seat_io *io = &x->seats[seat];
    if (!io->live || io->fault != FAULT_NONE) return;
    log_line(io, "> ", data, len);
    if (!outq_push(&io->q, data, len)) {
        fault(x, seat, FAULT_STALLED, "does not read its input (%zu bytes waiting)", io->q.len);
        return;
    }
    if (outq_flush(&io->q, io->proc.in_fd) < 0 && !io->said_bye) lost(x, seat, "closed its input");
}

/* The message composed in x->msg, to one seat (seat >= 0) or every live one. */
static void send_msg(struct ctx *x, int seat)
{
    if (x->msg.failed) return;
    for (int s = 0; s < x->s->nplayers; s++)
        if (seat < 0 || s == seat) send_to(x, s, x->msg.data, x->msg.len);
}

/* Composes and sends a message per live seat and form: build(x, seat, form). */
typedef void build_fn(struct ctx *x, int seat, enum proto_form f, const void *arg);
static void broadcast(struct ctx *x, build_fn *build, const void *arg)
{
    for (int s = 0; s < x->s->nplayers; s++) {
        struct seat_io *io = &x->seats[s];
        if (!io->live || io->fault != FAULT_NONE) continue;
        x->msg.len = 0;
        build(x, s, io->form, arg);
        send_msg(x, s);
    }
}

/* ---- reading ---- */

static void on_line(void *ctx, const char *line, size_t len, bool too_long);

struct line_ctx {
    struct ctx *x;
    int seat;
};

static void count_unsolicited(struct ctx *x, int seat, size_t len)
{
    struct seat_io *io = &x->seats[seat];
    io->unsolicited_lines++;
    io->unsolicited_bytes += len + 1;
    if (io->unsolicited_lines > x->c->flood_lines || io->unsolicited_bytes > x->c->flood_bytes)
        fault(x, seat, FAULT_FLOOD, "%ld lines, %zu bytes unasked", io->unsolicited_lines, io->unsolicited_bytes);
}

static void on_line(void *ctx, const char *line, size_t len, bool too_long)
{
    struct line_ctx *lc = ctx;
    struct ctx *x = lc->x;
    struct seat_io *io = &x->seats[lc->seat];
    if (io->fault != FAULT_NONE) return;
    log_line(io, "< ", line, len);
    escape_bytes(line, len < 200 ? len : 200, io->raw, sizeof io->raw);
    if (too_long) {
        if (io->waiting == WAIT_MOVE) fault(x, lc->seat, FAULT_GARBLED, "a line longer than %zu bytes", x->c->max_line);
        else if (io->waiting == WAIT_HELLO) fault(x, lc->seat, FAULT_START, "a line longer than %zu bytes before hello", x->c->max_line);
        else count_unsolicited(x, lc->seat, len);
        return;
    }
    struct bot_answer a;
    proto_parse_answer(line, len, io->form, &a);
    if (a.kind == ANSWER_BLANK || a.kind == ANSWER_COMMENT) {
        count_unsolicited(x, lc->seat, len);
        return;
    }
    if (io->waiting == WAIT_HELLO) {
        if (a.kind != ANSWER_HELLO) fault(x, lc->seat, FAULT_START, "no hello: \"%s\"", io->raw);
        else if (a.version != MATCH_PROTO_VERSION)
            fault(x, lc->seat, FAULT_START, "speaks protocol version %ld, not %d", a.version, MATCH_PROTO_VERSION);
        else { io->got = true; io->waiting = WAIT_NONE; x->answer_at = clock_us(); }
        return;
    }
    if (io->waiting == WAIT_MOVE) {
        if (a.kind == ANSWER_MOVE && a.id >= 0 && a.id != io->pending_id) {
            count_unsolicited(x, lc->seat, len);        /* stale: answers another decision */
            return;
        }
        if (a.kind != ANSWER_MOVE) {
            fault(x, lc->seat, FAULT_GARBLED, "%s: \"%s\"", a.kind == ANSWER_HELLO ? "hello again" : a.why, io->raw);
            return;
        }
        io->answer = a;
        io->got = true;
        io->waiting = WAIT_NONE;
        x->answer_at = clock_us();
        return;
    }
    count_unsolicited(x, lc->seat, len);
}

/* The bot closed a pipe: usually it is exiting, and its exit status says more. */
static void lost(struct ctx *x, int seat, const char *what)
{
    struct seat_io *io = &x->seats[seat];
    for (int i = 0; i < 100 && !proc_check(&io->proc); i++) clock_sleep_us(1000);
    char how[64];
    snprintf(how, sizeof how, "%s", what);
    if (io->proc.exited) proc_describe(&io->proc, how, sizeof how);
    if (io->waiting == WAIT_HELLO) fault(x, seat, FAULT_START, "%s before hello", how);
    else fault(x, seat, FAULT_CRASH, "%s", how);
}

/* Reads what a seat's pipes hold now: stdout into lines, stderr into its tail. */
static void drain(struct ctx *x, int seat)
{
    struct seat_io *io = &x->seats[seat];
    char buf[16384];
    struct line_ctx lc = {x, seat};
    for (int round = 0; round < 16 && io->proc.out_fd >= 0; round++) {
        ssize_t n = read(io->proc.out_fd, buf, sizeof buf);
        if (n > 0) { line_asm_feed(&io->lines, buf, (size_t)n, on_line, &lc); continue; }
        if (n == 0) {
            close(io->proc.out_fd);
            io->proc.out_fd = -1;
            if (!io->said_bye) lost(x, seat, "closed its output");
        }
        break;
    }
    for (int round = 0; round < 64 && io->proc.err_fd >= 0; round++) {
        ssize_t n = read(io->proc.err_fd, buf, sizeof buf);
        if (n > 0) { tail_add(&io->err, buf, (size_t)n); continue; }
        if (n == 0) { close(io->proc.err_fd); io->proc.err_fd = -1; }
        break;
    }
}

static void check_exit(struct ctx *x, int seat)
{
    struct seat_io *io = &x->seats[seat];
    if (!io->live || io->said_bye || !proc_check(&io->proc)) return;
    drain(x, seat);                 /* what it wrote before it went */
    char how[64];
    proc_describe(&io->proc, how, sizeof how);
    if (io->waiting == WAIT_HELLO) fault(x, seat, FAULT_START, "%s before hello", how);
    else fault(x, seat, FAULT_CRASH, "%s", how);
}

/* One poll over every live seat, waiting until deadline (clock_us; < 0: no limit) at most. */
static void pump(struct ctx *x, int64_t deadline)
{
    struct pollfd fds[1 + 3 * RULES_MAX_PLAYERS];
    int owner[1 + 3 * RULES_MAX_PLAYERS];
    int n = 0;
    fds[n] = (struct pollfd){proc_sigchld_fd(), POLLIN, 0};
    owner[n++] = -1;
    for (int s = 0; s < x->s->nplayers; s++) {
        struct seat_io *io = &x->seats[s];
        if (!io->live) continue;
        if (io->proc.out_fd >= 0) { fds[n] = (struct pollfd){io->proc.out_fd, POLLIN, 0}; owner[n++] = s; }
        if (io->proc.err_fd >= 0) { fds[n] = (struct pollfd){io->proc.err_fd, POLLIN, 0}; owner[n++] = s; }
        if (io->q.len && io->proc.in_fd >= 0) { fds[n] = (struct pollfd){io->proc.in_fd, POLLOUT, 0}; owner[n++] = s; }
    }
    int ms = 100;                   /* a lost SIGCHLD costs at most this */
    if (deadline >= 0) {
        int64_t left = deadline - clock_us();
        if (left < 0) left = 0;
        if ((left + 999) / 1000 < ms) ms = (int)((left + 999) / 1000);
    }
    int ready = poll(fds, (nfds_t)n, ms);
    if (ready < 0 && errno != EINTR) clock_sleep_us(1000);
    proc_sigchld_drain();
    for (int i = 1; i < n; i++) {
        if (!fds[i].revents) continue;
        int s = owner[i];
        struct seat_io *io = &x->seats[s];
        if (fds[i].fd == io->proc.in_fd) {
            if (outq_flush(&io->q, io->proc.in_fd) < 0 && !io->said_bye) lost(x, s, "closed its input");
        } else {
            drain(x, s);
        }
    }
    for (int s = 0; s < x->s->nplayers; s++) check_exit(x, s);
}

/* ---- the record ---- */

static void record_deals(struct ctx *x)
{
    struct game *g = x->g;
    mbuf_put(x->record, "round %d\n", g->round);
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        mbuf_put(x->record, "deal %s", g->names[s]);
        tileset hand = g->hands[s];
        char text[TILE_TEXT_SIZE];
        for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
            tile_format(t, text);
            mbuf_put(x->record, " %s", text);
        }
        mbuf_put(x->record, "\n");
    }
}

static void record_move(struct ctx *x, const struct move *m, tile_t drew)
{
    char text[OUTPUT_MOVE_SIZE], tile[TILE_TEXT_SIZE];
    output_format_move(x->g, m, text);
    if (m->kind == MOVE_DRAW) {
        tile_format(drew, tile);
        mbuf_put(x->record, "%s %s\n", text, tile);
    } else {
        mbuf_put(x->record, "%s\n", text);
    }
}

/* ---- the messages ---- */

static void build_round(struct ctx *x, int seat, enum proto_form f, const void *arg)
{
    (void)arg;
    proto_round(&x->msg, f, x->g, seat);
}

struct moved {
    const struct move *m;
    const struct verdict *v;
    const tileset *hands_left;
};

static void build_move(struct ctx *x, int seat, enum proto_form f, const void *arg)
{
    const struct moved *mv = arg;
    proto_move(&x->msg, f, x->g, mv->m);
    if (mv->m->kind == MOVE_DRAW && seat == mv->m->seat) proto_drew(&x->msg, f, mv->v->drew);
    proto_events(&x->msg, f, x->g, mv->v, mv->hands_left);
}

/* ---- retiring a seat ---- */

static void stop_seats(struct ctx *x, const int *which, int n)
{
    struct proc *ps[RULES_MAX_PLAYERS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        struct seat_io *io = &x->seats[which[i]];
        if (!io->live) continue;
        outq_flush(&io->q, io->proc.in_fd);
        io->said_bye = true;
        ps[k++] = &io->proc;
    }
    proc_stop_many(ps, k, x->c->grace_us);
    for (int i = 0; i < n; i++) {
        struct seat_io *io = &x->seats[which[i]];
        if (!io->live) continue;
        drain(x, which[i]);
        io->live = false;
    }
}

/* A fault has been found at seat: note it, apply the policy. */
static void handle_fault(struct ctx *x, int seat)
{
    struct seat_io *io = &x->seats[seat];
    struct seat_result *sr = &x->r->seats[seat];
    if (sr->fault != FAULT_NONE) return;
    sr->fault = io->fault;
    snprintf(sr->detail, sizeof sr->detail, "%s", io->detail);
    sr->fault_decision = x->next_id;
    sr->fault_round = x->g->round;
    io->retired = true;
    x->r->forfeited[seat] = io->fault != FAULT_START;
    mbuf_put(x->record, "# forfeit: %s %s: %s (decision %ld, round %d); %s plays %s from here\n", x->s->names[seat],
             match_fault_name(io->fault), io->detail, x->next_id, x->g->round, bot_name(x->c->fallback),
             x->s->names[seat]);
    if (io->live) {
        io->fault = FAULT_NONE;          /* lets the last word through */
        x->msg.len = 0;
        proto_retired(&x->msg, io->form, match_fault_name(sr->fault), sr->detail);
        send_msg(x, seat);
        io->fault = sr->fault;
        int one = seat;
        stop_seats(x, &one, 1);
    }
    char tail[TAIL_SIZE + 1];
    size_t n = tail_copy(&io->err, tail, sizeof tail);
    size_t from = n > 180 ? n - 180 : 0;
    escape_bytes(tail + from, n - from, sr->tail, sizeof sr->tail);
    if (io->fault == FAULT_START) {
        x->r->stop = true;
        x->r->stop_status = 2;
    } else if (x->c->policy == POLICY_STOP || (io->fault == FAULT_CRASH && !x->c->recover)) {
        x->r->stop = true;
        x->r->stop_status = 1;
    }
    if (x->r->stop && !x->r->stop_reason[0])
        snprintf(x->r->stop_reason, sizeof x->r->stop_reason, "%s: %s: %s", x->s->names[seat],
                 match_fault_name(sr->fault), sr->detail);
}

static void check_faults(struct ctx *x)
{
    for (int s = 0; s < x->s->nplayers; s++)
        if (x->seats[s].fault != FAULT_NONE && x->r->seats[s].fault == FAULT_NONE) handle_fault(x, s);
}

/* ---- decisions ---- */

static void note_latency(struct ctx *x)
{
    if (!x->answer_at) return;
    if (x->r->nlatency == x->lat_cap) {
        long cap = x->lat_cap ? x->lat_cap * 2 : 256;
        int64_t *p = mt_realloc(x->r->latency_us, (size_t)cap * sizeof *p);
        if (!p) return;
        x->r->latency_us = p;
        x->lat_cap = cap;
    }
    x->r->latency_us[x->r->nlatency++] = clock_us() - x->answer_at;
    x->answer_at = 0;
}

/* Asks the bot at seat; true with *m set when it answered in time with a move the
 * engine accepted (already played on x->g, its verdict in *v). */
static bool ask(struct ctx *x, int seat, const struct move *legal, int n, struct move *m, struct verdict *v)
{
    struct seat_io *io = &x->seats[seat];
    struct seat_result *sr = &x->r->seats[seat];
    const struct match_config *c = x->c;
    bool clock = c->move_us >= 0;
    long id = ++x->next_id;
    x->msg.len = 0;
    proto_decision(&x->msg, io->form, x->g, seat, legal, n, id, clock ? c->move_us / 1000 : -1,
                   clock ? io->bank_us / 1000 : -1);
    pump(x, 0);             /* what came before the question is not its answer */
    if (io->fault != FAULT_NONE) return false;
    io->waiting = WAIT_MOVE;
    io->pending_id = id;
    io->got = false;
    note_latency(x);
    send_msg(x, seat);
    int64_t sent = clock_us();
    int64_t deadline = clock ? sent + c->move_us + io->bank_us + c->margin_us : -1;
    sr->decisions++;
    x->r->decisions++;
    while (!io->got && io->fault == FAULT_NONE) {
        if (deadline >= 0 && clock_us() >= deadline) {
            long unread = pipe_unread(io->proc.in_fd);
            if (io->q.len > 0 || unread > 0)
                fault(x, seat, FAULT_STALLED, "had not read its input at the deadline (%ld bytes unread)",
                      (long)io->q.len + (unread > 0 ? unread : 0));
            else
                fault(x, seat, FAULT_TIMEOUT, "no answer in %lld+%lld ms", (long long)(c->move_us / 1000),
                      (long long)(io->bank_us / 1000));
            break;
        }
        pump(x, deadline);
    }
    io->waiting = WAIT_NONE;
    if (io->fault != FAULT_NONE) return false;
    int64_t used = clock_us() - sent;
    sr->think_us += used;
    if (used > sr->max_us) sr->max_us = used;
    if (clock) {
        if (used > c->move_us) io->bank_us -= used - c->move_us;
        if (io->bank_us < 0) io->bank_us = 0;      /* inside the margin: not charged */
        if (used * 10 > (c->move_us + io->bank_us) * 9) sr->near_misses++;
        sr->bank_left_us = io->bank_us;
    }
    if (!proto_answer_move(x->g, &io->answer, m, v)) {
        fault(x, seat, FAULT_ILLEGAL, "%s [%s]: \"%s\"", error_code_name(v->code), v->rule ? v->rule : "-", io->raw);
        return false;
    }
    game_move(x->g, m, v);
    if (v->code != ERR_NONE) {
        fault(x, seat, FAULT_ILLEGAL, "%s [%s]: \"%s\"", error_code_name(v->code), v->rule ? v->rule : "-", io->raw);
        return false;
    }
    return true;
}

/* ---- the whole match ---- */

static bool start_bots(struct ctx *x, const char *const rule_names[])
{
    const struct match_setup *s = x->s;
    const struct match_config *c = x->c;
    static const char *const env[] = {"MTREF_BOT_PROTOCOL=1", NULL};
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        const struct match_bot *b = s->bots[seat];
        if (!b->cmd) continue;
        io->external = true;
        io->form = b->form;
        io->bank_us = c->bank_us;
        outq_init(&io->q, c->stall_bytes);
        if (!line_asm_init(&io->lines, c->max_line)) {
            fault(x, seat, FAULT_START, "out of memory");
            continue;
        }
        if (c->log_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%s.log", c->log_dir, s->log_name ? s->log_name : "match", s->names[seat]);
            io->log = fopen(path, "w");
        }
        char err[200];
        if (!proc_spawn(&io->proc, b->cmd, NULL, env, err, sizeof err)) {
            fault(x, seat, FAULT_START, "%s", err);
            continue;
        }
        io->live = true;
        io->waiting = WAIT_HELLO;
        x->msg.len = 0;
        proto_hello(&x->msg, io->form);
        send_msg(x, seat);
    }
    int64_t deadline = clock_us() + c->init_us;
    for (;;) {
        bool waiting = false;
        for (int seat = 0; seat < s->nplayers; seat++)
            waiting |= x->seats[seat].waiting == WAIT_HELLO && x->seats[seat].fault == FAULT_NONE;
        if (!waiting) break;
        if (clock_us() >= deadline) {
            for (int seat = 0; seat < s->nplayers; seat++)
                if (x->seats[seat].waiting == WAIT_HELLO)
                    fault(x, seat, FAULT_START, "no hello within %lld ms", (long long)(c->init_us / 1000));
            break;
        }
        pump(x, deadline);
    }
    for (int seat = 0; seat < s->nplayers; seat++) x->seats[seat].waiting = WAIT_NONE;
    check_faults(x);
    if (x->r->stop) return false;
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        if (!io->live) continue;
        struct proto_match pm = {s->id, seat, rule_names, c->move_us >= 0 ? c->move_us / 1000 : -1,
                                 c->bank_us / 1000};
        x->msg.len = 0;
        proto_match(&x->msg, io->form, x->g, &pm);
        send_msg(x, seat);
    }
    return true;
}

void match_adjudicate(const struct rules *rules, int n, const int64_t totals[], const bool forfeited[],
                      int64_t adjudicated[], int ranks[])
{
    bool high = rules->scoring == SCORING_POSITIVE;
    bool any_real = false;
    int64_t worst = 0;
    for (int s = 0; s < n; s++) {
        adjudicated[s] = totals[s];
        if (forfeited[s]) continue;
        if (!any_real || (high ? totals[s] < worst : totals[s] > worst)) worst = totals[s];
        any_real = true;
    }
    int nreal = 0;
    for (int s = 0; s < n; s++) {
        if (!forfeited[s]) { nreal++; continue; }
        if (any_real && (high ? worst < adjudicated[s] : worst > adjudicated[s])) adjudicated[s] = worst;
    }
    for (int s = 0; s < n; s++) {
        if (forfeited[s]) { ranks[s] = nreal + 1; continue; }
        int better = 0;
        for (int o = 0; o < n; o++)
            if (!forfeited[o] && (high ? adjudicated[o] > adjudicated[s] : adjudicated[o] < adjudicated[s])) better++;
        ranks[s] = better + 1;
    }
}

static int play(struct ctx *x, const char *const rule_names[], char *err)
{
    struct game *g = x->g;
    const struct match_setup *s = x->s;
    const struct match_config *c = x->c;
    uint64_t rng[RULES_MAX_PLAYERS];
    for (int seat = 0; seat < s->nplayers; seat++) rng[seat] = s->bot_seeds[seat];
    if (!start_bots(x, rule_names)) return 0;
    struct move legal[GAME_MAX_LEGAL];
    while (!game_is_over(g)) {
        if (g->round > MATCH_MAX_ROUNDS) return 0;              /* abandoned: never ends */
        if (game_needs_deal(g)) {
            struct game snap;
            game_snapshot(g, &snap);
            if (game_needs_deal(&snap)) {
                snprintf(err, RULES_MESSAGE_SIZE, "a rules hook failed while dealing round %d", g->round);
                return 2;
            }
            *g = snap;
            record_deals(x);
            broadcast(x, build_round, NULL);
            check_faults(x);
            if (x->r->stop && c->policy == POLICY_STOP) return 0;
        }
        int seat = g->turn;
        struct verdict v;
        int n = game_legal_moves_checked(g, legal, GAME_MAX_LEGAL, &v);
        if (n < 0) {
            snprintf(err, RULES_MESSAGE_SIZE, "%s", v.message);
            return 2;
        }
        tileset hands[RULES_MAX_PLAYERS];
        memcpy(hands, g->hands, sizeof hands);
        struct seat_io *io = &x->seats[seat];
        struct move m;
        bool played = false;
        if (io->live && !io->retired && (n > 1 || c->ask_forced)) {
            played = ask(x, seat, legal, n, &m, &v);
            check_faults(x);
            if (x->r->stop && c->policy == POLICY_STOP) return 0;
        }
        if (!played) {
            enum bot_kind kind = io->external ? c->fallback : s->bots[seat]->builtin;
            m = bot_choose_among(kind, g, legal, n, &rng[seat]);
            game_move(g, &m, &v);
            if (v.code != ERR_NONE) {
                snprintf(err, RULES_MESSAGE_SIZE, "%s: %s", error_code_name(v.code), v.message);
                return 2;
            }
        }
        record_move(x, &m, v.drew);
        if (v.round_ended && m.kind == MOVE_PLAY) tileset_remove(&hands[m.seat], m.tile);
        struct moved mv = {&m, &v, hands};
        broadcast(x, build_move, &mv);
        check_faults(x);
        if (x->r->stop && c->policy == POLICY_STOP) return 0;
    }
    x->r->ended = true;
    return 0;
}

int match_run(const struct match_setup *s, const struct match_config *c, const struct rules *rules,
              const char *const rules_files[], int nrules, struct mbuf *record, struct match_result *r, char *err)
{
    memset(r, 0, sizeof *r);
    r->nplayers = s->nplayers;
    signal(SIGPIPE, SIG_IGN);            /* a bot gone mid-write is a fault, not our death */
    struct ctx *x = mt_malloc(sizeof *x);
    struct game *g = mt_malloc(sizeof *g);
    if (!x || !g) {
        free(x);
        free(g);
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        return 2;
    }
    memset(x, 0, sizeof *x);
    x->s = s;
    x->c = c;
    x->g = g;
    x->r = r;
    x->record = record;
    const char *names[RULES_MAX_PLAYERS];
    for (int i = 0; i < s->nplayers; i++) names[i] = s->names[i];
    struct verdict v;
    game_init(g, rules);
    game_set_players(g, s->nplayers, names, &v);
    if (v.code == ERR_NONE && s->rounds) game_set_rounds(g, s->rounds, &v);
    int status = 0;
    if (v.code != ERR_NONE) {
        snprintf(err, RULES_MESSAGE_SIZE, "%s", v.message);
        status = 2;
    } else {
        game_set_seed(g, s->deal_seed, &v);
        if (s->header) mbuf_put(record, "%s", s->header);
        const char *rule_names[RULES_MAX_FILES + 1];
        int k = 0;
        for (int i = 0; i < rules->nfile_names && k < RULES_MAX_FILES; i++) rule_names[k++] = rules->file_names[i];
        rule_names[k] = NULL;
        for (int i = 0; i < nrules; i++) mbuf_put(record, "rules %s\n", rules_files[i]);
        mbuf_put(record, "players");
        for (int i = 0; i < s->nplayers; i++) mbuf_put(record, " %s", s->names[i]);
        mbuf_put(record, "\nrounds %d\n", g->rounds);
        status = play(x, rule_names, err);
    }
    /* goodbye to everyone still there, then the teardown, all at once */
    int all[RULES_MAX_PLAYERS], n = 0;
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        if (!io->live) continue;
        if (io->fault == FAULT_NONE) {
            x->msg.len = 0;
            proto_bye(&x->msg, io->form);
            send_msg(x, seat);
        }
        all[n++] = seat;
    }
    stop_seats(x, all, n);
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        outq_free(&io->q);
        line_asm_free(&io->lines);
        if (io->log) fclose(io->log);
        r->totals[seat] = g->totals[seat];
        if (r->seats[seat].bank_left_us == 0 && io->external) r->seats[seat].bank_left_us = io->bank_us;
    }
    if (status == 0 && r->ended) {
        match_adjudicate(rules, s->nplayers, r->totals, r->forfeited, r->adjudicated, r->ranks);
        bool any = false;
        for (int seat = 0; seat < s->nplayers; seat++) any |= r->forfeited[seat];
        if (any) {
            mbuf_put(record, "# adjudicated: forfeits never pay; ranks");
            for (int seat = 0; seat < s->nplayers; seat++) mbuf_put(record, " %s %d", s->names[seat], r->ranks[seat]);
            mbuf_put(record, "; totals");
            for (int seat = 0; seat < s->nplayers; seat++)
                mbuf_put(record, " %s %lld", s->names[seat], (long long)r->adjudicated[seat]);
            mbuf_put(record, "\n");
        }
    }
    if (record->failed && status == 0) {
        snprintf(err, RULES_MESSAGE_SIZE, "out of memory");
        status = 2;
    }
    mbuf_free(&x->msg);
    free(g);
    free(x);
    return status;
}
