/* The answer memo of a may_play hook (luamemo.h). mtref-rules(5) asks that may_play
 * be a pure function of the play; a hook reads the play and the view through
 * luaview.c, which records each scalar field read and the value read. A hook that
 * is a function of what it reads reads the same fields in the same order whenever
 * the values agree, so its answers form a tree: a node is a read (which field), its
 * branches the values seen, a leaf the answer. Finding an answer walks the tree,
 * reading each field from the game in C: no Lua call at all. A call that read
 * anything else (a list, a train, a tile, pairs) is not remembered. The tree is
 * bounded; once full, the hook is simply called. */
#include "luamemo.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define MEMO_MAX_NODES 4096
#define MEMO_MAX_TEXT ((size_t)64 << 10)   /* bytes of refusal reasons */

struct memo_node {
    bool leaf;
    unsigned char node, field;   /* a read: of which field */
    int edges;                   /* a read: its first branch, -1 when none yet */
    bool allowed;                /* a leaf: the answer, */
    int reason;                  /* the offset of its reason in text, -1 for none, */
    long cost;                   /* and what the call cost */
};

struct memo_edge {
    signed char type;
    int64_t value;
    int child;
    int next;                    /* the next branch of the same read, -1 at the end */
};

struct luamemo {
    struct memo_node *nodes;     /* nodes[0] is the root, when nnodes > 0 */
    int nnodes, cap;
    struct memo_edge *edges;     /* one per node but the root: cap at most */
    int nedges;
    char *text;
    size_t ntext, text_cap;
    bool off;                    /* the hook contradicted itself */
};

struct luamemo *luamemo_new(void)
{
    struct luamemo *m = mt_malloc(sizeof *m);
    if (m) memset(m, 0, sizeof *m);
    return m;
}

void luamemo_free(struct luamemo *m)
{
    if (!m) return;
    free(m->nodes);
    free(m->edges);
    free(m->text);
    free(m);
}

/* Room for `nodes` nodes (and edges) and `bytes` of text; false when out of memory. */
static bool reserve(struct luamemo *m, int nodes, size_t bytes)
{
    if (nodes > m->cap) {
        int cap = m->cap ? m->cap : 64;
        while (cap < nodes) cap *= 2;
        struct memo_node *nd = mt_realloc(m->nodes, sizeof *nd * (size_t)cap);
        if (!nd) return false;
        m->nodes = nd;
        struct memo_edge *e = mt_realloc(m->edges, sizeof *e * (size_t)cap);
        if (!e) return false;
        m->edges = e;
        m->cap = cap;
    }
    if (bytes > m->text_cap) {
        size_t cap = m->text_cap ? m->text_cap : 1024;
        while (cap < bytes) cap *= 2;
        char *t = mt_realloc(m->text, cap);
        if (!t) return false;
        m->text = t;
        m->text_cap = cap;
    }
    return true;
}

void luamemo_clear(struct luamemo *m)
{
    m->nnodes = 0;
    m->nedges = 0;
    m->ntext = 0;
}

static bool same_value(const struct memo_edge *e, const struct luaview_read *r)
{
    return e->type == r->type && e->value == r->value;
}

/* The branch of read node `at` for r's value, or -1. */
static int branch(const struct luamemo *m, int at, const struct luaview_read *r)
{
    for (int e = m->nodes[at].edges; e >= 0; e = m->edges[e].next)
        if (same_value(&m->edges[e], r)) return m->edges[e].child;
    return -1;
}

bool luamemo_find(const struct luamemo *m, const struct luaview *vw, bool *allowed, const char **reason,
                  long *cost)
{
    if (m->off || m->nnodes == 0) return false;
    int at = 0;
    while (!m->nodes[at].leaf) {
        struct luaview_read r;
        luaview_read_now(vw, m->nodes[at].node, m->nodes[at].field, &r);
        at = branch(m, at, &r);
        if (at < 0) return false;
    }
    const struct memo_node *leaf = &m->nodes[at];
    *allowed = leaf->allowed;
    *reason = leaf->reason >= 0 ? m->text + leaf->reason : NULL;
    *cost = leaf->cost;
    return true;
}

/* A new node: the read r, or a leaf when r is NULL. */
static int new_node(struct luamemo *m, const struct luaview_read *r)
{
    struct memo_node *nd = &m->nodes[m->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->leaf = r == NULL;
    nd->edges = -1;
    nd->reason = -1;
    if (r) {
        nd->node = r->node;
        nd->field = r->field;
    }
    return m->nnodes++;
}

static void turn_off(struct luamemo *m)
{
    m->off = true;
    luamemo_clear(m);
}

void luamemo_add(struct luamemo *m, const struct luaview_read *reads, int n, bool allowed, const char *reason,
                 long cost)
{
    if (m->off || n < 0) return;
    /* what a message can show of the reason (the message is cut there too) */
    size_t len = reason && !allowed ? strnlen(reason, RULES_MESSAGE_SIZE) : 0;
    /* room for the whole path, or nothing is added */
    if (m->nnodes + n + 1 > MEMO_MAX_NODES || m->ntext + len + 1 > MEMO_MAX_TEXT) return;
    if (!reserve(m, m->nnodes + n + 1, m->ntext + len + 1)) return;
    bool fresh = false;
    if (m->nnodes == 0) {
        new_node(m, n > 0 ? &reads[0] : NULL);
        fresh = n == 0;
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
        struct memo_node *nd = &m->nodes[at];
        /* a pure hook that read these values makes the same next read */
        if (nd->leaf || nd->node != reads[i].node || nd->field != reads[i].field) {
            turn_off(m);
            return;
        }
        int next = branch(m, at, &reads[i]);
        if (next < 0) {
            next = new_node(m, i + 1 < n ? &reads[i + 1] : NULL);
            fresh = i + 1 == n;
            struct memo_edge *e = &m->edges[m->nedges];
            e->type = reads[i].type;
            e->value = reads[i].value;
            e->child = next;
            e->next = m->nodes[at].edges;
            m->nodes[at].edges = m->nedges++;
        }
        at = next;
    }
    struct memo_node *leaf = &m->nodes[at];
    if (!fresh) {
        /* the same reads answered before: the same answer, or the hook is not pure */
        const char *had = leaf->reason >= 0 ? m->text + leaf->reason : "";
        bool same = leaf->leaf && leaf->allowed == allowed &&
                    (allowed || (strlen(had) == len && memcmp(had, reason ? reason : "", len) == 0));
        if (!same) turn_off(m);
        return;
    }
    leaf->allowed = allowed;
    leaf->cost = cost;
    if (!allowed && reason) {
        memcpy(m->text + m->ntext, reason, len);
        m->text[m->ntext + len] = '\0';
        leaf->reason = (int)m->ntext;
        m->ntext += len + 1;
    }
}
