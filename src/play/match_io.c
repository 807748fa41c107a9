/* The seats' I/O for one match: sending (events queued until the next question),
 * reading and assembling lines, the poll loop on the monotonic clock, the clock
 * charged per decision, and the faults each of these finds. */
#include "match_io.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "clock.h"
#include "pipe.h"

/* ---- escaping what a bot wrote, for comments, details and tails ---- */

void match_io_escape(const char *data, size_t len, char *out, size_t size)
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

void match_io_fault(struct match_ctx *x, int seat, enum fault_kind kind, const char *fmt, ...)
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

static void lost(struct match_ctx *x, int seat, const char *what);

static void send_to(struct match_ctx *x, int seat, const char *data, size_t len)
{
    struct seat_io *io = &x->seats[seat];
    if (!io->live || io->fault != FAULT_NONE) return;
    log_line(io, "> ", data, len);
    if (!outq_push(&io->q, data, len)) {
        match_io_fault(x, seat, FAULT_STALLED, "does not read its input (%zu bytes waiting)", io->q.len);
        return;
    }
    /* Events wait for the bot's next question (or a full 64 KiB): a bot is woken once
     * per decision, not once per move at the table. */
    if (x->lazy && io->q.len < (1 << 16)) return;
    if (outq_flush(&io->q, io->proc.in_fd) < 0 && !io->said_bye) lost(x, seat, "closed its input");
    io->urgent = io->q.len > 0;
}

/* The message composed in x->msg, to one seat (seat >= 0) or every live one. */
void match_io_send(struct match_ctx *x, int seat)
{
    if (x->msg.failed) return;
    for (int s = 0; s < x->s->nplayers; s++)
        if (seat < 0 || s == seat) send_to(x, s, x->msg.data, x->msg.len);
}

/* Composes and sends a message per live seat and form: build(x, seat, form). */
void match_io_broadcast(struct match_ctx *x, match_build_fn *build, const void *arg)
{
    for (int s = 0; s < x->s->nplayers; s++) {
        struct seat_io *io = &x->seats[s];
        if (!io->live || io->fault != FAULT_NONE) continue;
        x->msg.len = 0;
        build(x, s, io->form, arg);
        x->lazy = true;
        match_io_send(x, s);
        x->lazy = false;
    }
}

/* ---- reading ---- */

static void on_line(void *ctx, const char *line, size_t len, bool too_long);

struct line_ctx {
    struct match_ctx *x;
    int seat;
};

static void count_unsolicited(struct match_ctx *x, int seat, size_t len)
{
    struct seat_io *io = &x->seats[seat];
    io->unsolicited_lines++;
    io->unsolicited_bytes += len + 1;
    if (io->unsolicited_lines > x->c->flood_lines || io->unsolicited_bytes > x->c->flood_bytes)
        match_io_fault(x, seat, FAULT_FLOOD, "%ld lines, %zu bytes unasked", io->unsolicited_lines, io->unsolicited_bytes);
}

static void on_line(void *ctx, const char *line, size_t len, bool too_long)
{
    struct line_ctx *lc = ctx;
    struct match_ctx *x = lc->x;
    struct seat_io *io = &x->seats[lc->seat];
    if (io->fault != FAULT_NONE) return;
    log_line(io, "< ", line, len);
    match_io_escape(line, len < 200 ? len : 200, io->raw, sizeof io->raw);
    if (too_long) {
        if (io->waiting == WAIT_MOVE) match_io_fault(x, lc->seat, FAULT_GARBLED, "a line longer than %zu bytes", x->c->max_line);
        else if (io->waiting == WAIT_HELLO) match_io_fault(x, lc->seat, FAULT_START, "a line longer than %zu bytes before hello", x->c->max_line);
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
        if (a.kind != ANSWER_HELLO) match_io_fault(x, lc->seat, FAULT_START, "no hello: \"%s\"", io->raw);
        else if (a.version != MATCH_PROTO_VERSION)
            match_io_fault(x, lc->seat, FAULT_START, "speaks protocol version %ld, not %d", a.version, MATCH_PROTO_VERSION);
        else { io->got = true; io->waiting = WAIT_NONE; x->answer_at = clock_us(); }
        return;
    }
    if (io->waiting == WAIT_MOVE) {
        if (a.kind == ANSWER_MOVE && a.id >= 0 && a.id != io->pending_id) {
            count_unsolicited(x, lc->seat, len);        /* stale: answers another decision */
            return;
        }
        if (a.kind != ANSWER_MOVE) {
            match_io_fault(x, lc->seat, FAULT_GARBLED, "%s: \"%s\"", a.kind == ANSWER_HELLO ? "hello again" : a.why, io->raw);
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

/* How the bot ended, with the limit it most likely met: "signal XCPU (the CPU limit,
 * 2 s)", "signal SEGV (past the memory limit of 64 MiB?)". */
static void describe_exit(const struct seat_io *io, char *how, size_t size)
{
    proc_describe(&io->proc, how, size);
    const struct proc_limits *l = &io->limits;
    int st = io->proc.status;
    size_t n = strlen(how);
    if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU || WTERMSIG(st) == SIGKILL) && l->cpu_seconds > 0)
        snprintf(how + n, size - n, " (the CPU limit, %lld s%s)", (long long)l->cpu_seconds,
                 WTERMSIG(st) == SIGKILL ? "?" : "");
    else if (l->mem_bytes > 0 && (WIFSIGNALED(st) || WEXITSTATUS(st) != 0))
        snprintf(how + n, size - n, " (past the memory limit of %lld MiB?)", (long long)(l->mem_bytes >> 20));
}

/* The bot closed a pipe: usually it is exiting, and its exit status says more. */
static void lost(struct match_ctx *x, int seat, const char *what)
{
    struct seat_io *io = &x->seats[seat];
    for (int i = 0; i < 100 && !proc_check(&io->proc); i++) clock_sleep_us(1000);
    char how[128];
    snprintf(how, sizeof how, "%s", what);
    if (io->proc.exited) describe_exit(io, how, sizeof how);
    if (io->waiting == WAIT_HELLO) match_io_fault(x, seat, FAULT_START, "%s before hello", how);
    else match_io_fault(x, seat, FAULT_CRASH, "%s", how);
}

/* Reads what a seat's pipes hold now: stdout into lines, stderr into its tail. */
static void drain_fds(struct match_ctx *x, int seat, bool out, bool err)
{
    struct seat_io *io = &x->seats[seat];
    char buf[16384];
    struct line_ctx lc = {x, seat};
    /* a read shorter than the buffer emptied the pipe: no second read just to hear EAGAIN */
    for (int round = 0; out && round < 16 && io->proc.out_fd >= 0; round++) {
        ssize_t n = read(io->proc.out_fd, buf, sizeof buf);
        if (n > 0) {
            line_asm_feed(&io->lines, buf, (size_t)n, on_line, &lc);
            if ((size_t)n < sizeof buf) break;
            continue;
        }
        if (n == 0) {
            close(io->proc.out_fd);
            io->proc.out_fd = -1;
            if (!io->said_bye) lost(x, seat, "closed its output");
        }
        break;
    }
    for (int round = 0; err && round < 64 && io->proc.err_fd >= 0; round++) {
        ssize_t n = read(io->proc.err_fd, buf, sizeof buf);
        if (n > 0) {
            tail_add(&io->err, buf, (size_t)n);
            if ((size_t)n < sizeof buf) break;
            continue;
        }
        if (n == 0) { close(io->proc.err_fd); io->proc.err_fd = -1; }
        break;
    }
}

void match_io_drain(struct match_ctx *x, int seat) { drain_fds(x, seat, true, true); }

static void check_exit(struct match_ctx *x, int seat)
{
    struct seat_io *io = &x->seats[seat];
    if (!io->live || io->said_bye || !proc_check(&io->proc)) return;
    match_io_drain(x, seat);                 /* what it wrote before it went */
    char how[128];
    describe_exit(io, how, sizeof how);
    if (io->waiting == WAIT_HELLO) match_io_fault(x, seat, FAULT_START, "%s before hello", how);
    else match_io_fault(x, seat, FAULT_CRASH, "%s", how);
}

/* One poll over every live seat, waiting until deadline (clock_us; < 0: no limit) at most. */
void match_io_pump(struct match_ctx *x, int64_t deadline)
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
        if (io->q.len && (io->urgent || io->q.len >= (1 << 16)) && io->proc.in_fd >= 0) {
            fds[n] = (struct pollfd){io->proc.in_fd, POLLOUT, 0};
            owner[n++] = s;
        }
    }
    int ms = 100;                   /* a lost SIGCHLD costs at most this */
    if (deadline >= 0) {
        int64_t left = deadline - clock_us();
        if (left < 0) left = 0;
        if ((left + 999) / 1000 < ms) ms = (int)((left + 999) / 1000);
    }
    int ready = poll(fds, (nfds_t)n, ms);
    if (ready < 0 && errno != EINTR) clock_sleep_us(1000);
    bool exited = ready > 0 && (fds[0].revents & POLLIN) && proc_sigchld_drain();
    for (int i = 1; i < n; i++) {
        if (!fds[i].revents) continue;
        int s = owner[i];
        struct seat_io *io = &x->seats[s];
        if (fds[i].fd == io->proc.in_fd) {
            if (outq_flush(&io->q, io->proc.in_fd) < 0 && !io->said_bye) lost(x, s, "closed its input");
            io->urgent = io->q.len > 0;
        } else {
            drain_fds(x, s, fds[i].fd == io->proc.out_fd, fds[i].fd == io->proc.err_fd);
        }
    }
    /* a child's exit wakes the loop through SIGCHLD; a look every 100 ms covers a
     * signal lost to a full pipe, without a waitpid per seat per wake-up */
    int64_t now = clock_us();
    if (exited || now - x->checked_at > 100000) {
        x->checked_at = now;
        for (int s = 0; s < x->s->nplayers; s++) check_exit(x, s);
    }
}


/* ---- retiring a seat ---- */

void match_io_stop(struct match_ctx *x, const int *which, int n)
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
        match_io_drain(x, which[i]);
        io->live = false;
    }
}


/* ---- decisions ---- */

static void note_latency(struct match_ctx *x)
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
bool match_io_ask(struct match_ctx *x, int seat, const struct move *legal, int n, struct move *m, struct verdict *v)
{
    struct seat_io *io = &x->seats[seat];
    struct seat_result *sr = &x->r->seats[seat];
    const struct match_config *c = x->c;
    bool clock = io->move_us >= 0;
    long id = ++x->next_id;
    x->msg.len = 0;
    proto_decision(&x->msg, io->form, x->g, seat, legal, n, id, clock ? io->move_us / 1000 : -1,
                   clock ? io->bank_us / 1000 : -1);
    match_io_pump(x, 0);             /* what came before the question is not its answer */
    if (io->fault != FAULT_NONE) return false;
    io->waiting = WAIT_MOVE;
    io->pending_id = id;
    io->got = false;
    note_latency(x);
    match_io_send(x, seat);
    int64_t sent = clock_us();
    int64_t deadline = clock ? sent + io->move_us + io->bank_us + c->margin_us : -1;
    sr->decisions++;
    x->r->decisions++;
    while (!io->got && io->fault == FAULT_NONE) {
        if (deadline >= 0 && clock_us() >= deadline) {
            long unread = pipe_unread(io->proc.in_fd);
            if (io->q.len > 0 || unread > 0)
                match_io_fault(x, seat, FAULT_STALLED, "had not read its input at the deadline (%ld bytes unread)",
                      (long)io->q.len + (unread > 0 ? unread : 0));
            else
                match_io_fault(x, seat, FAULT_TIMEOUT, "no answer in %lld+%lld ms", (long long)(io->move_us / 1000),
                      (long long)(io->bank_us / 1000));
            break;
        }
        match_io_pump(x, deadline);
    }
    io->waiting = WAIT_NONE;
    if (io->fault != FAULT_NONE) return false;
    int64_t used = clock_us() - sent;
    sr->think_us += used;
    if (used > sr->max_us) sr->max_us = used;
    if (clock) {
        if (used > io->move_us) io->bank_us -= used - io->move_us;
        if (io->bank_us < 0) io->bank_us = 0;      /* inside the margin: not charged */
        if (used * 10 > (io->move_us + io->bank_us) * 9) sr->near_misses++;
        sr->bank_left_us = io->bank_us;
    }
    if (!proto_answer_move(x->g, &io->answer, m, v)) {
        match_io_fault(x, seat, FAULT_ILLEGAL, "%s [%s]: \"%s\"", error_code_name(v->code), v->rule ? v->rule : "-", io->raw);
        return false;
    }
    game_move(x->g, m, v);
    if (v->code != ERR_NONE) {
        match_io_fault(x, seat, FAULT_ILLEGAL, "%s [%s]: \"%s\"", error_code_name(v->code), v->rule ? v->rule : "-", io->raw);
        return false;
    }
    return true;
}
