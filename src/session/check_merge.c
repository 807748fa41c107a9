/* The merge of check --jobs: the calling thread takes each chunk's result in input
 * order, and keeps a worker's verdict only where one thread's would be the same;
 * otherwise it referees the chunk again itself, carrying on from the session before
 * it, with the true line numbers (see check_jobs.c). */
#include "check_chunk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* What the session loop hands each response of a chunk's lines. */
struct chunk_reading {
    struct check_result *res;
    struct lines_run *lr;
    struct check_summary *summary;
};

static void chunk_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct chunk_reading *r = ctx;
    struct lines_run *lr = r->lr;
    if (resp->kind == RESPONSE_NONE) return;
    if (!lr->seen_command) {
        lr->seen_command = true;
        lr->opens_match = resp->kind == RESPONSE_VERDICT && resp->verdict.code == ERR_NONE &&
                          (ref->cmd.kind == CMD_PLAYERS || ref->cmd.kind == CMD_RULES);
    }
    if (resp->kind != RESPONSE_VERDICT) return;
    if (resp->verdict.code != ERR_NONE) {
        if (r->res) {
            r->res->line = resp->line;
            r->res->verdict = resp->verdict;
        }
        lr->rejected = true;
    } else if (resp->verdict.match_ended) {
        if (r->res) {
            r->res->last = ref->game;
            r->res->last_end = resp->verdict;
        }
        lr->ended = true;
    }
}

static void chunk_response_summed(void *ctx, const struct referee *ref, const struct response *resp)
{
    check_summary_add_response(((struct chunk_reading *)ctx)->summary, ref, resp);
    chunk_response(ctx, ref, resp);
}

/* Referees c's lines on ref through the session loop, numbered from first_number;
 * stops at a rejected line (its verdict in res). */
void chunk_run_lines(struct referee *ref, const char *text, size_t len, long first_number, struct response *resp,
                     struct check_result *res, struct lines_run *lr, struct check_summary *summary)
{
    memset(lr, 0, sizeof *lr);
    struct chunk_reading reading = {res, lr, summary};
    struct session_options o = {.respond = chunk_response, .ctx = &reading};
    struct session_result run;
    /* each loop inlined with its own callback: the plain one asks nothing of a summary */
    if (summary) {
        o.respond = chunk_response_summed;
        session_run_text(ref, text, len, first_number, &o, resp, &run);
    } else {
        session_run_text(ref, text, len, first_number, &o, resp, &run);
    }
    lr->lines = run.lines;
}

void chunk_free_referee(struct referee **ref)
{
    if (*ref) {
        referee_free(*ref);
        free(*ref);
    }
    *ref = NULL;
}

/* This thread's own session of the state so far; false when out of memory or the
 * --rules do not load (then the verdict says so, as one thread's would). */
static bool own_session(struct merge *m)
{
    if (m->ref) return true;
    m->ref = mt_malloc(sizeof *m->ref);
    if (!m->ref) {
        m->failed = true;
        return false;
    }
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(m->ref, m->run->loader, m->run->rules_files, m->run->nrules, err)) {
        m->res->line = 0;
        verdict_fail(&m->res->verdict, ERR_RULES, 0, "%s", err);
        m->stopped = true;
        return false;
    }
    if (m->replay) {
        /* the chunk before was kept from a worker whose session cannot move here:
         * referee it again (it opened its match, so from a fresh session); its lines
         * are in the summary already */
        struct lines_run lr;
        chunk_run_lines(m->ref, m->replay->text, m->replay->len, m->lines - m->replay->lines + 1, m->resp, NULL, &lr,
                        NULL);
        m->replay = NULL;
    }
    return true;
}

void merge_chunk(struct merge *m, struct chunk *c)
{
    if (m->stopped || m->failed) return;
    if (c->failed) {
        m->failed = true;
        return;
    }
    if (c->open_error || m->read_error) return;
    if (c->read_error && !c->final) {
        /* the input ends here for this run, as a failed read ends one thread's */
        m->read_error = c->read_error;
        return;
    }
    bool before_over = m->ref ? game_is_over(&m->ref->game) : m->over;
    /* a chunk's summary that met more names than it keeps may have dropped one that
     * the run's counts: such a chunk is counted again, in order */
    bool fits = !c->needs_rules && !c->rejected && (m->fresh || (before_over && c->opens_match)) &&
                !(m->run->summary && c->summary->names_dropped);
    if (fits) {
        if (m->run->summary) check_summary_add_part(m->run->summary, c->summary, m->lines, m->run->summary->file);
        m->res->matches += c->matches;
        m->res->moves += c->lines;
        if (c->ended) {
            m->res->last = c->last;
            m->res->last_end = c->last_end;
        }
        m->lines += c->lines;
        m->fresh = false;
        chunk_free_referee(&m->ref);
        m->replay = NULL;
        m->touched = c->touched;
        if (c->ref) {
            m->ref = c->ref;      /* the worker's session is the input's now */
            c->ref = NULL;
            m->ref->loader = *m->run->loader;
        } else {
            m->over = c->over;
            m->replay = c;
        }
        return;
    }
    /* the guess was wrong or the chunk needs this thread: referee it again in order */
    if (m->fresh) m->replay = NULL;
    if (!own_session(m)) return;
    m->fresh = false;
    long before = m->ref->matches_ended;
    struct lines_run lr;
    chunk_run_lines(m->ref, c->text, c->len, m->lines + 1, m->resp, m->res, &lr, m->run->summary);
    m->res->matches += m->ref->matches_ended - before;
    m->res->moves += lr.lines;
    m->lines += lr.lines;
    m->touched = m->ref->match_touched;
    if (lr.rejected) m->stopped = true;
}

void merge_begin(struct merge *m, const struct chunk *first)
{
    struct check_result *res = m->res;
    memset(res, 0, sizeof *res);
    verdict_reset(&res->verdict);
    verdict_reset(&res->last_end);
    res->tags = first->tags;
    m->input = first->input;
    m->lines = 0;
    m->fresh = true;
    m->replay = NULL;
    m->over = m->touched = m->stopped = m->failed = false;
    m->read_error = 0;
    struct check_summary *sum = m->run->summary;
    if (sum) {
        /* as check_descriptor_summed begins a file */
        sum->file = m->run->names ? m->run->names[m->input] : NULL;
        sum->round_moves = 0;
    }
}

/* The input's last chunk is merged: its verdict to the caller. */
void merge_end(struct merge *m, const struct chunk *c)
{
    struct check_result *res = m->res;
    int read_error = m->read_error ? m->read_error : c->read_error;
    if (c->open_error) {
        res->status = 2;
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(c->open_error));
    } else if (m->failed) {
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
        res->status = 2;
    } else if (m->stopped) {
        res->status = error_code_status(res->verdict.code);
        if (read_error) res->status = 2;
    } else if (read_error) {
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(read_error));
        res->status = 2;
    }
    res->complete = res->matches > 0 && !m->touched;
    chunk_free_referee(&m->ref);
    m->replay = NULL;
    m->emitted++;
    if (!m->run->verdict(m->run->ctx, c->input, res)) m->quit = true;
}

