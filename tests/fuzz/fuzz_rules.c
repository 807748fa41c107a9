/* Fuzz harness (c): arbitrary text as a rules file, then a short self-played match
 * under it when it loads. Must end in a load error or a finished match: no crash,
 * no hang, no leak. */
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
    fwrite(data, 1, size, f);
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
