/* selfplay --jobs N fails as one thread does: a match that fails mid-stream ends the
 * stream at the same byte with the same message, and a stream that cannot be written
 * is an error (of the stream: "the records"). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "luarules.h"
#include "selfplay_run.h"

/* Self-plays o on `jobs` threads under files into memory; the status, its message. */
static int play(struct selfplay_options *o, int jobs, const char *const files[], int n, FILE *out, char *err)
{
    struct luarules *lua = luarules_new(), *bridges[4];
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua), loaders[4];
    assert_true(jobs <= 4);
    for (int i = 0; i < jobs; i++) {
        bridges[i] = luarules_new();
        assert_non_null(bridges[i]);
        loaders[i] = luarules_loader(bridges[i]);
    }
    o->jobs = jobs;
    o->job_loaders = loaders;
    err[0] = '\0';
    int status = selfplay_run(o, &loader, files, n, out, err);
    luarules_free(lua);
    for (int i = 0; i < jobs; i++) luarules_free(bridges[i]);
    return status;
}

static void a_failed_match_ends_the_stream_where_one_thread_ends_it(void **state)
{
    (void)state;
    static const char *const files[] = {"elimination-100"};
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.games = 60;
    o.seed = 3;
    o.max_rounds = 9;                  /* match 28 runs longer: the fourth block's fourth */
    char *want = NULL, err1[RULES_MESSAGE_SIZE];
    size_t want_len;
    FILE *mem = open_memstream(&want, &want_len);
    assert_non_null(mem);
    assert_int_equal(play(&o, 1, files, 1, mem, err1), 2);
    fclose(mem);
    assert_non_null(strstr(err1, "has not ended after 9 rounds"));
    assert_true(strstr(want, "match 28\n") != NULL && !strstr(want, "match 29\n"));
    for (int jobs = 2; jobs <= 4; jobs++) {
        char *got = NULL, err[RULES_MESSAGE_SIZE];
        size_t len;
        mem = open_memstream(&got, &len);
        assert_non_null(mem);
        assert_int_equal(play(&o, jobs, files, 1, mem, err), 2);
        fclose(mem);
        assert_string_equal(err, err1);
        assert_int_equal(len, want_len);
        assert_memory_equal(got, want, len);
        free(got);
    }
    free(want);
}

static void a_stream_that_cannot_be_written_is_an_error(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full) skip();
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.games = 40;
    char err1[RULES_MESSAGE_SIZE], err2[RULES_MESSAGE_SIZE];
    assert_int_equal(play(&o, 1, NULL, 0, full, err1), 2);
    assert_int_equal(play(&o, 2, NULL, 0, full, err2), 2);
    fclose(full);
    assert_non_null(strstr(err1, "cannot write the record: No space left on device"));
    assert_non_null(strstr(err2, "cannot write the records: No space left on device"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_failed_match_ends_the_stream_where_one_thread_ends_it),
        cmocka_unit_test(a_stream_that_cannot_be_written_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
