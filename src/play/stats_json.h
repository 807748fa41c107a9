/* A small JSON reader for mtref's own journal lines: one line -> a tree of values in
 * one allocation. Enough JSON for what mtref writes (objects, arrays, strings, integer
 * and decimal numbers, true, false, null); depth and size bounded. */
#ifndef MTREF_STATS_JSON_H
#define MTREF_STATS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum stats_json_type {
    STATS_JSON_NULL, STATS_JSON_BOOL, STATS_JSON_NUM, STATS_JSON_STR, STATS_JSON_ARR, STATS_JSON_OBJ
};

struct stats_json_value {
    enum stats_json_type type;
    const char *key;            /* inside an object: the member's name */
    const char *str;            /* STATS_JSON_STR: decoded, NUL-terminated */
    double num;                 /* STATS_JSON_NUM (and 1/0 for STATS_JSON_BOOL) */
    int first, next;            /* children and siblings, as indexes; -1 for none */
    size_t start, end;          /* the value's bytes in the line */
};

struct stats_json {
    struct stats_json_value *v;             /* v[0] is the root */
    int n, cap;
    char *strings;              /* decoded strings */
    size_t slen, scap;
};

/* Parses line[0..len); false (doc freed) when it is not one JSON value. */
bool stats_json_parse(struct stats_json *d, const char *line, size_t len);
void stats_json_free(struct stats_json *d);

/* The member key of object o, or NULL (also when o is no object). */
const struct stats_json_value *stats_json_get(const struct stats_json *d, const struct stats_json_value *o,
                                              const char *key);
/* The i-th child of an array or object, or NULL. */
const struct stats_json_value *stats_json_at(const struct stats_json *d, const struct stats_json_value *a, int i);
int stats_json_count(const struct stats_json *d, const struct stats_json_value *a);

#endif
