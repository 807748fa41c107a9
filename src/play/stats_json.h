/* A small JSON reader for mtref's own journal lines: one line -> a tree of values in
 * one allocation. Enough JSON for what mtref writes (objects, arrays, strings, integer
 * and decimal numbers, true, false, null); depth and size bounded. */
#ifndef MTREF_STATS_JSON_H
#define MTREF_STATS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
    enum jtype type;
    const char *key;            /* inside an object: the member's name */
    const char *str;            /* J_STR: decoded, NUL-terminated */
    double num;                 /* J_NUM (and 1/0 for J_BOOL) */
    int first, next;            /* children and siblings, as indexes; -1 for none */
    size_t start, end;          /* the value's bytes in the line */
};

struct jdoc {
    struct jval *v;             /* v[0] is the root */
    int n, cap;
    char *strings;              /* decoded strings */
    size_t slen, scap;
};

/* Parses line[0..len); false (doc freed) when it is not one JSON value. */
bool jdoc_parse(struct jdoc *d, const char *line, size_t len);
void jdoc_free(struct jdoc *d);

/* The member key of object o, or NULL (also when o is no object). */
const struct jval *jget(const struct jdoc *d, const struct jval *o, const char *key);
/* The i-th child of an array or object, or NULL. */
const struct jval *jat(const struct jdoc *d, const struct jval *a, int i);
int jcount(const struct jdoc *d, const struct jval *a);

#endif
