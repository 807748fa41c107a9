/* One match between bots: starting them, the game loop, the fault policies and the
 * fallback, the record and the adjudication. The seats' I/O is match_io.c. */
#include "match_run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "clock.h"
#include "match_io.h"
#include "output.h"

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
    if (!r) return;
    free(r->latency_us);
    r->latency_us = NULL;
    r->nlatency = 0;
}

/* ---- the record ---- */

static void record_deals(struct match_ctx *x)
{
    struct game *g = x->g;
    mbuf_put(x->record, "round %d\n", g->round);
    for (int s = 0; s < g->nplayers; s++) {
        if (g->eliminated[s]) continue;
        mbuf_put(x->record, "deal %s", g->names[s]);
        tileset hand = g->hands[s];
        /* the engine laid from a hand (a house rule) was dealt with it */
        if (g->engine_from == s) tileset_add(&hand, tile_double(g->engine_pip));
        for (tile_t t; (t = tileset_pop(&hand)) != TILE_NONE;) {
            mbuf_bytes(x->record, " ", 1);
            mbuf_tile(x->record, t);
        }
        mbuf_bytes(x->record, "\n", 1);
    }
}

/* The record's line: output_format_move's, with a draw's tile named. */
static void record_move(struct match_ctx *x, const struct move *m, tile_t drew)
{
    mbuf_move(x->record, x->g, m);
    if (m->kind == MOVE_DRAW) {
        mbuf_bytes(x->record, " ", 1);
        mbuf_tile(x->record, drew);
    }
    mbuf_bytes(x->record, "\n", 1);
}

/* ---- the messages ---- */

static void build_round(struct match_ctx *x, int seat, enum proto_form f, const void *arg)
{
    (void)arg;
    proto_round(&x->msg, f, x->g, seat);
    if (x->g->engine_from >= 0) proto_engine_laid(&x->msg, f, x->g);
}

struct moved {
    const struct move *m;
    const struct verdict *v;
    const tileset *hands_left;
    bool engine_laid;                    /* the move's draw turned up the engine (a hunt) */
};

static void build_move(struct match_ctx *x, int seat, enum proto_form f, const void *arg)
{
    const struct moved *mv = arg;
    proto_move(&x->msg, f, x->g, mv->m);
    if (mv->m->kind == MOVE_DRAW && seat == mv->m->seat) proto_drew(&x->msg, f, mv->v->drew);
    if (mv->engine_laid) proto_engine_laid(&x->msg, f, x->g);
    proto_events(&x->msg, f, x->g, mv->v, mv->hands_left);
}

/* A fault has been found at seat: note it, apply the policy. */
static void handle_fault(struct match_ctx *x, int seat)
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
        match_io_send(x, seat);
        io->fault = sr->fault;
        int one = seat;
        match_io_stop(x, &one, 1);
    }
    char tail[TAIL_SIZE + 1];
    size_t n = tail_copy(&io->err, tail, sizeof tail);
    size_t from = n > 180 ? n - 180 : 0;
    match_io_escape(tail + from, n - from, sr->tail, sizeof sr->tail);
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

static void check_faults(struct match_ctx *x)
{
    for (int s = 0; s < x->s->nplayers; s++)
        if (x->seats[s].fault != FAULT_NONE && x->r->seats[s].fault == FAULT_NONE) handle_fault(x, s);
}

/* ---- the whole match ---- */

static bool start_bots(struct match_ctx *x, const char *const rule_names[])
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
        io->move_us = b->own_time ? b->move_us : c->move_us;
        io->bank_us = b->own_time ? b->bank_us : c->bank_us;
        io->limits = c->limits;
        if (b->limits.mem_bytes) io->limits.mem_bytes = b->limits.mem_bytes;
        if (b->limits.cpu_seconds) io->limits.cpu_seconds = b->limits.cpu_seconds;
        outq_init(&io->q, c->stall_bytes);
        if (!line_asm_init(&io->lines, c->max_line)) {
            match_io_fault(x, seat, FAULT_START, "out of memory");
            continue;
        }
        if (c->log_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%s.log", c->log_dir, s->log_name ? s->log_name : "match", s->names[seat]);
            io->log = fopen(path, "w");
        }
        char err[200];
        const char *dir = b->dir ? b->dir : c->bot_dir;
        if (!dir) {
            if (!proc_workdir_make(io->workdir, sizeof io->workdir, err, sizeof err)) {
                io->workdir[0] = '\0';
                match_io_fault(x, seat, FAULT_START, "%s", err);
                continue;
            }
            dir = io->workdir;
        }
        if (!proc_spawn(&io->proc, b->cmd, dir, env, &io->limits, err, sizeof err)) {
            match_io_fault(x, seat, FAULT_START, "%s", err);
            continue;
        }
        io->live = true;
        io->waiting = WAIT_HELLO;
        x->msg.len = 0;
        proto_hello(&x->msg, io->form);
        match_io_send(x, seat);
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
                    match_io_fault(x, seat, FAULT_START, "no hello within %lld ms", (long long)(c->init_us / 1000));
            break;
        }
        match_io_pump(x, deadline);
    }
    for (int seat = 0; seat < s->nplayers; seat++) x->seats[seat].waiting = WAIT_NONE;
    check_faults(x);
    if (x->r->stop) return false;
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        if (!io->live) continue;
        struct proto_match pm = {s->id, seat, rule_names, io->move_us >= 0 ? io->move_us / 1000 : -1,
                                 io->bank_us / 1000};
        x->msg.len = 0;
        proto_match(&x->msg, io->form, x->g, &pm);
        match_io_send(x, seat);
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

static int play(struct match_ctx *x, const char *const rule_names[], char *err)
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
            match_io_broadcast(x, build_round, NULL);
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
        int engine_from = g->engine_from;
        struct seat_io *io = &x->seats[seat];
        struct move m;
        bool played = false;
        if (io->live && !io->retired && (n > 1 || c->ask_forced)) {
            played = match_io_ask(x, seat, legal, n, &m, &v);
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
        struct moved mv = {&m, &v, hands, engine_from < 0 && g->engine_from >= 0 && !v.round_ended};
        match_io_broadcast(x, build_move, &mv);
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
    struct match_ctx *x = mt_malloc(sizeof *x);
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
            match_io_send(x, seat);
        }
        all[n++] = seat;
    }
    match_io_stop(x, all, n);
    for (int seat = 0; seat < s->nplayers; seat++) {
        struct seat_io *io = &x->seats[seat];
        outq_free(&io->q);
        line_asm_free(&io->lines);
        if (io->log) fclose(io->log);
        if (io->workdir[0]) proc_workdir_remove(io->workdir);
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
