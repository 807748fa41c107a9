/* Test support: protocol text through a real session. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"

static struct luarules *bridge;
static struct response last;

struct referee *tu_session(const char *const rules[], int nrules)
{
    if (!bridge) bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    struct referee *ref = malloc(sizeof *ref);
    assert_non_null(ref);
    char err[RULES_MESSAGE_SIZE] = "";
    if (!referee_init(ref, &loader, rules, nrules, err)) fail_msg("rules failed to load: %s", err);
    return ref;
}

void tu_free(struct referee *ref)
{
    if (!ref) return;
    referee_free(ref);
    free(ref);
}

void tu_feed(struct referee *ref, const char *text)
{
    long number = 0;
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        referee_line(ref, text, len, false, ++number, &last);
        if (last.kind == RESPONSE_VERDICT && last.verdict.code != ERR_NONE)
            fail_msg("line %ld '%.*s' rejected: %s: %s", number, (int)len, text,
                     error_code_name(last.verdict.code), last.verdict.message);
        text += len + (end ? 1 : 0);
    }
}

enum error_code tu_line(struct referee *ref, const char *line)
{
    referee_line(ref, line, strlen(line), false, 1, &last);
    return last.verdict.code;
}

const struct verdict *tu_last(void) { return &last.verdict; }

int tu_run(const char *record, bool json, bool keep_going, const char *const rules[], int nrules, char **out)
{
    if (!bridge) bridge = luarules_new();
    struct rules_loader loader = luarules_loader(bridge);
    FILE *in = tmpfile();
    assert_non_null(in);
    fputs(record, in);
    fflush(in);
    rewind(in);
    size_t size = 0;
    FILE *mem = open_memstream(out, &size);
    assert_non_null(mem);
    struct stream_options o = {json ? OUTPUT_JSON : OUTPUT_TEXT, keep_going, rules, nrules, "test"};
    FILE *devnull = fopen("/dev/null", "w");
    int status = stream_run(fileno(in), mem, devnull, &o, &loader);
    fclose(devnull);
    fclose(mem);
    fclose(in);
    return status;
}

char *tu_read_test_file(const char *relative, size_t *len)
{
    const char *dir = getenv("MTREF_TEST_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", relative);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) { free(buf); buf = NULL; break; }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}
