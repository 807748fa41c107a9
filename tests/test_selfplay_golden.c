/* Self-play records are frozen: the same options give the same bytes in every version
 * (corpora and benchmarks rely on it). Hashes of whole streams at several table sizes,
 * bots and rules, taken from the self-play of before its fast paths, and one small
 * record stored whole (tests/golden/), compared byte for byte. The three streams with
 * rules were taken again when every match came to name its rules before `players`
 * (a `rules` line may open the next match): the same lines, those moved. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "luarules.h"
#include "selfplay_run.h"

struct golden {
    int players;
    const char *bots;
    uint64_t seed;
    long games;
    int rounds;              /* 0: the rules' default */
    const char *rules;       /* comma-separated --rules, or "" */
    uint64_t fnv1a;          /* of the whole stream */
    size_t bytes;
};

static const struct golden goldens[] = {
    {2, "greedy", 7, 40, 0, "", 0x3a7a4245aeb1e84dULL, 992171},
    {3, "greedy,random", 11, 30, 0, "", 0x2d2269a54ac57a18ULL, 653468},
    {4, "greedy", 1, 30, 0, "", 0x003c5a8d58d17418ULL, 677469},
    {5, "random,greedy,greedy", 3, 20, 7, "", 0x53b595b741b30374ULL, 236424},
    {8, "greedy", 2024, 20, 0, "", 0x95439f99d9e9c604ULL, 462192},
    {6, "random", 5, 10, 1, "", 0x7e720bb98c962f18ULL, 18894},
    {4, "greedy", 9, 15, 0, "doubles-anywhere-lifo,first-turn-own-train", 0x8434d462550bb9c2ULL, 335298},
    {3, "greedy", 13, 15, 0, "doubles-anywhere-fifo,draw-until-playable,marker-after-cover", 0xbbbba8871fa56ed4ULL,
     379866},
    {4, "greedy,random", 21, 10, 0, "elimination-100,double-blank-50", 0x5e45cb69ba3286a5ULL, 94958},
};

static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The stream selfplay writes for these options (malloc'd), its length in *len. */
static char *play_jobs(const struct golden *want, int jobs, size_t *len)
{
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = want->players;
    o.seed = want->seed;
    o.games = want->games;
    o.rounds = want->rounds;
    assert_true(selfplay_parse_bots(want->bots, &o));
    char names[8][64];
    const char *rules[8];
    int nrules = 0;
    for (const char *p = want->rules; *p;) {
        size_t n = strcspn(p, ",");
        assert_true(n < sizeof names[0] && nrules < 8);
        memcpy(names[nrules], p, n);
        names[nrules][n] = '\0';
        rules[nrules] = names[nrules];
        nrules++;
        p += n;
        if (*p == ',') p++;
    }
    struct luarules *lua = luarules_new(), *bridges[4];
    assert_non_null(lua);
    struct rules_loader loader = luarules_loader(lua), loaders[4];
    assert_true(jobs <= 4);
    for (int i = 0; i < jobs; i++) {
        bridges[i] = luarules_new();
        assert_non_null(bridges[i]);
        loaders[i] = luarules_loader(bridges[i]);
    }
    o.jobs = jobs;
    o.job_loaders = loaders;
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    assert_non_null(out);
    char err[RULES_MESSAGE_SIZE] = "";
    int status = selfplay_run(&o, &loader, rules, nrules, out, err);
    assert_int_equal(fclose(out), 0);
    luarules_free(lua);
    for (int i = 0; i < jobs; i++) luarules_free(bridges[i]);
    if (status != 0) fail_msg("selfplay failed: %s", err);
    return text;
}

static char *play(const struct golden *want, size_t *len) { return play_jobs(want, 1, len); }

static void selfplay_streams_are_byte_identical_to_the_frozen_ones(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const struct golden *g = &goldens[i];
        size_t len;
        char *text = play(g, &len);
        uint64_t h = fnv1a(text, len);
        if (len != g->bytes || h != g->fnv1a)
            fail_msg("selfplay --players %d --bots %s --seed %llu --games %ld --rounds %d --rules '%s': "
                     "%zu bytes, hash 0x%016llx; frozen: %zu bytes, 0x%016llx",
                     g->players, g->bots, (unsigned long long)g->seed, g->games, g->rounds, g->rules, len,
                     (unsigned long long)h, g->bytes, (unsigned long long)g->fnv1a);
        free(text);
    }
}

static void threads_write_the_bytes_of_one_thread(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const struct golden *g = &goldens[i];
        for (int jobs = 2; jobs <= 3; jobs++) {
            size_t len;
            char *text = play_jobs(g, jobs, &len);
            if (len != g->bytes || fnv1a(text, len) != g->fnv1a)
                fail_msg("selfplay --jobs %d --players %d --bots %s --seed %llu: not the frozen stream", jobs,
                         g->players, g->bots, (unsigned long long)g->seed);
            free(text);
        }
    }
}

static void a_small_record_is_the_stored_one_byte_for_byte(void **state)
{
    (void)state;
    size_t want_len;
    char *want = tu_read_test_file("golden/selfplay-p3-r1-seed7.mtr", &want_len);
    assert_non_null(want);
    const struct golden g = {3, "greedy", 7, 2, 1, "", 0, 0};
    size_t len;
    char *text = play(&g, &len);
    assert_int_equal(len, want_len);
    assert_memory_equal(text, want, len);
    free(text);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(selfplay_streams_are_byte_identical_to_the_frozen_ones),
        cmocka_unit_test(threads_write_the_bytes_of_one_thread),
        cmocka_unit_test(a_small_record_is_the_stored_one_byte_for_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
