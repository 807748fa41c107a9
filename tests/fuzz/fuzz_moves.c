/* Fuzz harness (b), structure-aware: the bytes choose among the legal moves (with
 * some corruption: another tile, train, actor or verb), so the fuzzer reaches deep
 * states: late rounds, uncovered doubles, blocked rounds, house rules. Every move
 * goes through the protocol text and the session; invariants are checked after each
 * line, and totals against the sum of the round points. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "luarules.h"
#include "output.h"
#include "referee.h"

struct bytes {
    const uint8_t *data;
    size_t size, at;
};

static unsigned next_byte(struct bytes *b) { return b->at < b->size ? b->data[b->at++] : 0; }

static const char *const rule_choices[] = {
    NULL, "double-blank-50", "elimination-100", "doubles-anywhere-lifo", "doubles-anywhere-fifo",
    "draw-until-playable", "first-turn-own-train", "positive-scoring", "double-out-doubles",
    "ascending", "ten-players", "marker-after-cover",
};

static FILE *sink;
static struct luarules *bridge;

static void feed(struct referee *ref, const char *line, long number, int64_t sums[])
{
    struct response resp;
    referee_line(ref, line, strlen(line), false, number, &resp);
    output_response(sink, OUTPUT_JSON, &ref->game, &resp);
    const char *why;
    if (!game_invariants_hold(&ref->game, &why)) {
        fprintf(stderr, "invariant broken after '%s': %s\n", line, why);
        abort();
    }
    const struct verdict *v = &resp.verdict;
    if (resp.kind == RESPONSE_VERDICT && v->code == ERR_NONE && v->round_ended) {
        for (int s = 0; s < ref->game.nplayers; s++) {
            sums[s] += v->report.points[s];
            if (sums[s] != ref->game.totals[s]) {
                fprintf(stderr, "totals differ from the sum of round points for seat %d\n", s);
                abort();
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        bridge = luarules_new();
    }
    struct bytes b = {data, size, 0};
    struct rules_loader loader = luarules_loader(bridge);
    const char *files[2];
    int nfiles = 0;
    unsigned r1 = next_byte(&b) % 12, r2 = next_byte(&b) % 12;
    if (rule_choices[r1]) files[nfiles++] = rule_choices[r1];
    if (rule_choices[r2] && r2 != r1) files[nfiles++] = rule_choices[r2];
    struct referee *ref = malloc(sizeof *ref);
    char err[RULES_MESSAGE_SIZE];
    if (!referee_init(ref, &loader, files, nfiles, err)) {
        referee_free(ref);
        free(ref);
        return 0;
    }
    int64_t sums[RULES_MAX_PLAYERS] = {0};
    char line[256];
    long number = 0;
    int players = ref->cli_rules->min_players + (int)(next_byte(&b) % (unsigned)(ref->cli_rules->max_players - 1));
    if (players > ref->cli_rules->max_players) players = ref->cli_rules->max_players;
    snprintf(line, sizeof line, "players %d", players);
    feed(ref, line, ++number, sums);
    static const int rounds[] = {1, 7, 13};
    snprintf(line, sizeof line, "rounds %d", rounds[next_byte(&b) % 3]);
    feed(ref, line, ++number, sums);
    snprintf(line, sizeof line, "seed %u", next_byte(&b) | next_byte(&b) << 8);
    feed(ref, line, ++number, sums);
    struct move *moves = malloc(sizeof *moves * GAME_MAX_LEGAL);
    for (int step = 0; step < 20000 && !game_is_over(&ref->game); step++) {
        struct game snap;
        game_snapshot(&ref->game, &snap);
        int n = game_legal_moves(&snap, moves, GAME_MAX_LEGAL);
        if (n <= 0) break;
        unsigned choice = b.at < b.size ? next_byte(&b) : (unsigned)step;
        struct move m = moves[choice % (unsigned)n];
        if (b.at < b.size && choice >= 240) {          /* corrupt one part of the move */
            unsigned what = next_byte(&b);
            if (what % 4 == 0) m.tile = (tile_t)(next_byte(&b) % TILE_COUNT);
            else if (what % 4 == 1) m.train = next_byte(&b) % 2 ? TRAIN_MEX : (int)(next_byte(&b) % (unsigned)players);
            else if (what % 4 == 2) m.seat = (int)(next_byte(&b) % (unsigned)players);
            else m.kind = (enum move_kind)(next_byte(&b) % 3);
            if (m.kind == MOVE_PLAY && m.tile == TILE_NONE) m.tile = 0;
        }
        if (b.at < b.size && choice == 239) feed(ref, next_byte(&b) % 2 ? "show" : "legal", ++number, sums);
        output_format_move(&snap, &m, line);
        if (m.kind == MOVE_DRAW && next_byte(&b) % 2 && m.tile != TILE_NONE) {
            char tile[TILE_TEXT_SIZE];
            tile_format(m.tile, tile);
            strcat(line, " ");
            strcat(line, tile);
        }
        feed(ref, line, ++number, sums);
    }
    free(moves);
    referee_free(ref);
    free(ref);
    return 0;
}
