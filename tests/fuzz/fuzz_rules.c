/* Fuzz harness (c): arbitrary text as a rules file, then a short self-played match
 * under it when it loads. Must end in a load error or a finished match (or a
 * `rules` error): no crash, no hang, no leak. An input that starts with "--rep" and
 * a digit d is the rest repeated 2^(d+6) times (at most 320 KB): very long sources
 * from short inputs, past the size limit too. The dictionary (fuzz_rules.dict) holds
 * the shapes the sandbox bounds: metamethod-driven library calls, loads with reader
 * functions, jump words.
 *
 * An input whose first byte is 0xFF is a script of hostile answers instead: the
 * harness writes a file that sets every hook of mtref-rules(5), each returning, call
 * by call, the value the next input byte picks from a list of wrong types, NaN, huge
 * numbers, strangers' names, tables with metatables, or the answer it was given,
 * and reading parts of the view on the way. The file also chooses the set (max_pip),
 * by the first script byte, among the ten sets and as many hostile values: wrong
 * types, NaN, 5, 16, huge numbers, tables with metatables. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "luarules.h"
#include "selfplay.h"

static char path[64];

static void discard(void *ctx, const char *data, size_t len) { (void)ctx; (void)data; (void)len; }

static const char hostile_head[] =
    "local sets = { 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 5, 16, -1, 0/0, 1e308, 2^63, math.mininteger, 9.5,\n"
    "  '9', {}, true, setmetatable({}, {__index = function() return 9 end, __len = function() return 9 end}),\n"
    "  function() return 9 end }\n"
    "local values = { true, false, 0, 1, -1, 2, 0/0, 1e308, -1e308, math.huge, 2^63, 1.5, '1', 'mex', 'hand',\n"
    "  'aside', 'p1', 'p2', 'zed', '', {}, {'p1'}, {'zed'}, {'p1', 'p2'}, {p1 = 0/0},\n"
    "  setmetatable({}, {__index = function() return 'p1' end, __len = function() return 1e9 end}),\n"
    "  setmetatable({}, {__index = function() error('metatable') end}), function() end }\n"
    "local i = 0\n"
    "local function answer(view, given)\n"
    "  i = i + 1\n"
    "  local b = script[(i % #script) + 1]\n"
    "  if b >= 128 and view then\n"
    "    local _ = view.round, view.player, view.boneyard, view.plays, #view.in_play, view.totals.p1\n"
    "    for name, t in pairs(view.trains) do _ = t.open, t.marker, #t.tiles, t.last end\n"
    "    if view.hand then for _, tile in ipairs(view.hand) do _ = tile.low + tile.high end end\n"
    "    for _, d in ipairs(view.doubles) do _ = d.pip end\n"
    "    b = b - 128\n"
    "  end\n"
    "  if b % 4 == 0 then return given end\n"
    "  return values[(b // 4) % #values + 1]\n"
    "end\n"
    "return {\n"
    "  max_pip = sets[script[1] % #sets + 1],\n"
    "  hand_size = function() return 3 end,\n"
    "  engine = function(r, n, v, pip) return answer(v, pip) end,\n"
    "  eliminated = function(p, v, out) return answer(v, out) end,\n"
    "  round_points = function(o, v, points) return answer(v, points) end,\n"
    "  may_play = function(m, v) return answer(v, true), answer(v, 'why') end,\n"
    "  may_draw = function(v, a) return answer(v, a) end,\n"
    "  may_pass = function(v, a) return answer(v, a) end,\n"
    "  another_play = function(m, v, a) return answer(v, a) end,\n"
    "  must_cover = function(v, a) return answer(v, a) end,\n"
    "  drawable = function(v, a) return answer(v, a) end,\n"
    "  blocked = function(v, a) return answer(v, a) end,\n"
    "  match_over = function(v, a) return answer(v, a) end,\n"
    "  winners = function(v, a) return answer(v, a) end,\n"
    "  opener = function(v, a) return answer(v, a) end,\n"
    "  lay_engine = function(v, a) return answer(v, a) end,\n"
    "}\n";

/* The hostile-answers file of script bytes data[0..size) (at least one byte). */
static void write_hostile(FILE *f, const uint8_t *data, size_t size)
{
    fputs("local script = {", f);
    for (size_t i = 0; i < size; i++) fprintf(f, "%u,", data[i]);
    fputs("}\n", f);
    fputs(hostile_head, f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) snprintf(path, sizeof path, "/tmp/mtref-fuzz-%ld.lua", (long)getpid());
    /* a fresh bridge: its cache would otherwise answer every input after the first */
    struct luarules *bridge = luarules_new();
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size > 1 && data[0] == 0xFF) {
        write_hostile(f, data + 1, size - 1);
    } else if (size > 6 && memcmp(data, "--rep", 5) == 0 && data[5] >= '0' && data[5] <= '9') {
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
    /* a match_over that never says yes plays up to the limit: a tenth of it finds the
     * same faults, in a time the fuzzer does not count as a hang under the sanitizers */
    o.max_rounds = SELFPLAY_MAX_ROUNDS / 10;
    while (o.rounds <= RULES_MAX_ROUNDS && !((rules->rounds_allowed >> o.rounds) & 1)) o.rounds++;
    struct selfplay_sink sink = {discard, NULL};
    selfplay_match(&o, rules, files, 1, 0, &sink, err);
    loader.release(loader.ctx, handle);
    luarules_free(bridge);
    return 0;
}
