/* Fuzz harness (c): arbitrary text as a rules file, then a short self-played match
 * under it when it loads. Must end in a load error or a finished match: no crash,
 * no hang, no leak. An input that starts with "--rep" and a digit d is the rest
 * repeated 2^(d+6) times (at most 320 KB): very long sources from short inputs, past
 * the size limit too. The dictionary (fuzz_rules.dict) holds the shapes the sandbox
 * bounds: metamethod-driven library calls, loads with reader functions, jump words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "selfplay.h"

static char path[64];

static void discard(void *ctx, const char *data, size_t len) { (void)ctx; (void)data; (void)len; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) snprintf(path, sizeof path, "/tmp/mtref-fuzz-%ld.lua", (long)getpid());
    /* a fresh bridge: its cache would otherwise answer every input after the first */
    struct luarules *bridge = luarules_new();
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size > 5 && memcmp(data, "--rep", 5) == 0 && data[5] >= '0' && data[5] <= '9' && size > 6) {
        size_t times = (size_t)1 << (data[5] - '0' + 6), body = size - 6;
        for (size_t i = 0; i < times && i * body < (320u << 10); i++) fwrite(data + 6, 1, body, f);
    } else {
        fwrite(data, 1, size, f);
    }
    fclose(f);
    struct rules_loader loader = luarules_loader(bridge);
    const char *files[1] = {path};
    const struct rules *rules;
    char err[RULES_MESSAGE_SIZE];
    void *handle = loader.load(loader.ctx, files, 1, &rules, err);
    if (!handle) {
        luarules_free(bridge);
        return 0;
    }
    struct selfplay_options o;
    selfplay_defaults(&o);
    o.players = rules->min_players;
    o.rounds = 1;
    while (o.rounds <= RULES_MAX_ROUNDS && !((rules->rounds_allowed >> o.rounds) & 1)) o.rounds++;
    struct selfplay_sink sink = {discard, NULL};
    selfplay_match(&o, rules, files, 1, 0, &sink, err);
    loader.release(loader.ctx, handle);
    luarules_free(bridge);
    return 0;
}
