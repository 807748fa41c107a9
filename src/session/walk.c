/* Walking a record through the session loop: an index of its lines, or the table at one. */
#include "walk.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

struct index_ctx {
    struct walk_index *ix;
    long cap;
    bool out_of_memory;
};

static void index_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct index_ctx *c = ctx;
    struct walk_index *ix = c->ix;
    if (resp->kind == RESPONSE_NONE || c->out_of_memory) return;
    if (ix->n == c->cap) {
        long cap = c->cap ? 2 * c->cap : 256;
        struct walk_step *grown = mt_realloc(ix->steps, (size_t)cap * sizeof *grown);
        if (!grown) { c->out_of_memory = true; return; }
        ix->steps = grown;
        c->cap = cap;
    }
    struct walk_step *s = &ix->steps[ix->n++];
    memset(s, 0, sizeof *s);
    s->line = resp->line;
    s->kind = resp->kind;
    s->code = resp->kind == RESPONSE_VERDICT ? resp->verdict.code : ERR_NONE;
    s->round = ref->game.round;
    s->in_round = ix->n > 1 ? ix->steps[ix->n - 2].round : 1;
    s->move = s->kind == RESPONSE_VERDICT && s->code == ERR_NONE && ref->cmd.kind >= CMD_PLAY &&
              ref->cmd.kind <= CMD_PASS;
    s->round_ended = s->code == ERR_NONE && resp->kind == RESPONSE_VERDICT && resp->verdict.round_ended;
    s->match_ended = s->code == ERR_NONE && resp->kind == RESPONSE_VERDICT && resp->verdict.match_ended;
}

static bool rewind_fd(int fd) { return lseek(fd, 0, SEEK_SET) == 0; }

bool walk_index_build(int fd, const struct session_options *o, struct walk_index *out)
{
    memset(out, 0, sizeof *out);
    if (!rewind_fd(fd)) return false;
    struct index_ctx c = {out, 0, false};
    struct session_options so = *o;
    so.respond = index_response;
    so.ctx = &c;
    struct session_result res;
    out->status = session_run(fd, &so, &res);
    out->read_error = res.read_error;
    if (c.out_of_memory || res.out_of_memory) {
        walk_index_free(out);
        return false;
    }
    return true;
}

void walk_index_free(struct walk_index *ix)
{
    if (!ix) return;
    free(ix->steps);
    ix->steps = NULL;
    ix->n = 0;
}

long walk_index_at_line(const struct walk_index *ix, long line)
{
    long found = -1;
    for (long i = 0; i < ix->n && ix->steps[i].line <= line; i++)
        if (ix->steps[i].kind == RESPONSE_VERDICT) found = i;    /* a query changes nothing */
    return found;
}

long walk_index_round_start(const struct walk_index *ix, int round)
{
    long last = -1;
    for (long i = 0; i < ix->n; i++) {
        const struct walk_step *s = &ix->steps[i];
        /* a move of the round: the table stood ready just before it */
        if (s->move && i > 0 && ix->steps[i - 1].round == round) {
            long before = i - 1;
            while (before > 0 && ix->steps[before].kind != RESPONSE_VERDICT) before--;    /* not a query */
            return before;
        }
        if (s->round == round && !s->round_ended) last = i;
        if (s->round > round) break;
    }
    return last;
}

struct visit_ctx {
    long line;
    walk_visit visit;
    void *ctx;
    struct game *before;
    bool has_before;
    bool reached;
};

static void visit_response(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct visit_ctx *c = ctx;
    if (c->reached || resp->kind == RESPONSE_NONE) return;
    if (resp->line == c->line) {
        c->reached = true;
        c->visit(c->ctx, ref, c->has_before ? c->before : NULL, resp);
        return;
    }
    *c->before = ref->game;
    c->has_before = true;
}

bool walk_to_line(int fd, const struct session_options *o, long line, walk_visit visit, void *ctx)
{
    if (!rewind_fd(fd)) return false;
    struct visit_ctx c = {line, visit, ctx, mt_malloc(sizeof(struct game)), false, false};
    if (!c.before) return false;
    struct session_options so = *o;
    so.respond = visit_response;
    so.ctx = &c;
    struct session_result res;
    session_run(fd, &so, &res);
    free(c.before);
    return c.reached;
}

void walk_query(const struct referee *ref, struct referee *scratch, const char *query, struct response *resp)
{
    *scratch = *ref;
    referee_line(scratch, query, strlen(query), false, 0, resp);
}
