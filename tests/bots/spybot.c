/* A spy for the tests of mtref match: a bot (mtref-bot(7), text form) that keeps what
 * its seat may know (its own hand, the round's engine, tiles laid in the moves it saw,
 * the tiles it drew itself, hands shown after a round ends, every hand's size, the
 * engine once an `engine` line says whose hand it left) and
 * checks every line the referee sends against it. The first tile it is shown before
 * it is public, or a view that differs from what it knows, ends it at once: "spy: leak"
 * and the reason on stderr, exit status 42 (a crash the runner reports with that tail).
 * It plays a pseudo-random legal action, so its games wander. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPY_LEAK_STATUS 42
#define PIPS 13
#define MAX_SEATS 10
#define MAX_LEGAL 512

static bool known[PIPS][PIPS];       /* public to this seat, this round */
static bool mine[PIPS][PIPS];        /* its hand as it tracks it */
static char me[64], names[MAX_SEATS][64];
static int nnames, sizes[MAX_SEATS];
static bool in_round, expect_drew, expect_hand, sizes_set;
/* The round's engine double, and whether it is on the table: under rules that deal it
 * like any tile, its holder lays it (with no move line) once it is dealt or drawn. */
static int engine = -1;
static bool engine_laid, round_start;
static char legal[MAX_LEGAL][64];
static int nlegal;
static unsigned long long rng = 88172645463325252ULL;
static long lineno;

static void leak(const char *why, const char *line)
{
    fprintf(stderr, "spy: leak: %s: line %ld \"%.200s\"\n", why, lineno, line);
    fflush(stderr);
    _exit(SPY_LEAK_STATUS);
}

/* "a-b" -> pips; false when the token is no tile. */
static bool tile(const char *tok, int *a, int *b)
{
    char *end;
    long x = strtol(tok, &end, 10);
    if (end == tok || *end != '-') return false;
    const char *p = end + 1;
    long y = strtol(p, &end, 10);
    if (end == p || (*end && *end != ' ')) return false;
    if (x < 0 || y < 0 || x >= PIPS || y >= PIPS) return false;
    *a = (int)x;
    *b = (int)y;
    return true;
}

static void set(bool m[PIPS][PIPS], int a, int b, bool v) { m[a][b] = m[b][a] = v; }

static int seat_of(const char *name)
{
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

static int hand_count(void)
{
    int n = 0;
    for (int a = 0; a < PIPS; a++)
        for (int b = a; b < PIPS; b++) n += mine[a][b];
    return n;
}

/* Every tile token of words[from..] must be public already. */
static void all_known(char **w, int n, int from, const char *line, const char *what)
{
    int a, b;
    for (int i = from; i < n; i++)
        if (tile(w[i], &a, &b) && !known[a][b]) leak(what, line);
}

static void on_line(char *line)
{
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", line);
    char *w[1024];
    int n = 0;
    for (char *t = strtok(line, " "); t && n < 1024; t = strtok(NULL, " ")) w[n++] = t;
    if (n == 0) return;
    const char *k = w[0];
    bool drew = strcmp(k, "drew") == 0;
    if (expect_drew && !drew) leak("no drew line right after its own draw", copy);
    if (!drew && strcmp(k, "hand") != 0) expect_hand = false;
    int a, b;
    if (strcmp(k, "hello") == 0) {
        printf("hello 1 spybot\n");
    } else if (strcmp(k, "seat") == 0 && n == 2) {
        snprintf(me, sizeof me, "%s", w[1]);
    } else if (strcmp(k, "players") == 0) {
        nnames = 0;
        for (int i = 1; i < n && nnames < MAX_SEATS; i++) snprintf(names[nnames++], sizeof names[0], "%s", w[i]);
    } else if (strcmp(k, "round") == 0 && n >= 4) {
        memset(known, 0, sizeof known);
        memset(mine, 0, sizeof mine);
        engine = atoi(w[3]);
        if (engine < 0 || engine >= PIPS) leak("a round without an engine", copy);
        engine_laid = false;
        round_start = true;
        memset(sizes, 0, sizeof sizes);
        in_round = true;
        expect_hand = true;
        sizes_set = false;
    } else if (strcmp(k, "hand") == 0 && expect_hand) {          /* the round's deal: its own */
        for (int i = 1; i < n; i++)
            if (tile(w[i], &a, &b)) { set(mine, a, b, true); set(known, a, b, true); }
        expect_hand = false;
    } else if (strcmp(k, "hand") == 0) {                         /* a decision's view */
        int count = 0;
        for (int i = 1; i < n; i++) {
            if (!tile(w[i], &a, &b)) leak("not a tile in its hand", copy);
            if (!mine[a][b]) leak(known[a][b] ? "a tile in its hand it does not hold" : "a hidden tile in its hand",
                                  copy);
            count++;
        }
        if (count != hand_count()) leak("its hand lacks a tile it holds", copy);
    } else if (strcmp(k, "sizes") == 0) {
        for (int i = 1; i + 1 < n; i += 2) {
            int s = seat_of(w[i]), size = atoi(w[i + 1]);
            if (s < 0) leak("a size of nobody at the table", copy);
            if (!sizes_set) sizes[s] = size;
            else if (sizes[s] != size) leak("a hand size the moves do not explain", copy);
            if (strcmp(w[i], me) == 0 && size != hand_count()) leak("its own size is not its hand's", copy);
        }
        sizes_set = true;
    } else if (strcmp(k, "boneyard") == 0 && round_start && n == 2) {
        /* 91 tiles: with the engine on the table, the hands and the boneyard hold 90 */
        int total = atoi(w[1]);
        for (int i = 0; i < nnames; i++) total += sizes[i];
        engine_laid = total == 90;
        if (total != 90 && total != 91) leak("the tiles of the round do not add up", copy);
        if (engine_laid) set(known, engine, engine, true);
        round_start = false;
    } else if (strcmp(k, "move") == 0 && n >= 3) {
        int s = seat_of(w[1]);
        if (s < 0) leak("a move by nobody at the table", copy);
        bool self = strcmp(w[1], me) == 0;
        if (strcmp(w[2], "play") == 0 && n >= 4 && tile(w[3], &a, &b)) {
            if (self && !mine[a][b]) leak("it played a tile it did not hold", copy);
            if (!self && mine[a][b]) leak("another played a tile it holds", copy);
            set(known, a, b, true);
            set(mine, a, b, false);
            sizes[s]--;
        } else if (strcmp(w[2], "draw") == 0) {
            if (n > 3) leak("a draw names its tile", copy);
            sizes[s]++;
            expect_drew = self;
        }
    } else if (drew) {
        if (!expect_drew) leak("a drawn tile it did not draw", copy);
        if (n != 2 || !tile(w[1], &a, &b)) leak("a drew line without one tile", copy);
        if (known[a][b]) leak("it drew a tile already public", copy);
        set(known, a, b, true);
        if (a == engine && b == engine && !engine_laid) {   /* laid at once */
            engine_laid = true;
            sizes[seat_of(me)]--;
        } else {
            set(mine, a, b, true);
        }
        expect_drew = false;
    } else if (strcmp(k, "engine") == 0 && n == 3) {              /* laid from NAME's hand */
        int s = seat_of(w[1]);
        if (s < 0 || !tile(w[2], &a, &b) || a != engine || b != engine) leak("an engine line not of the round", copy);
        if (!engine_laid) {
            engine_laid = true;
            set(known, engine, engine, true);
            sizes[s]--;
        }
    } else if (strcmp(k, "round_end") == 0) {
        in_round = false;
    } else if (strcmp(k, "shown") == 0) {
        if (in_round) leak("a hand shown while the round is on", copy);
        for (int i = 2; i < n; i++)
            if (tile(w[i], &a, &b)) set(known, a, b, true);
    } else if (strcmp(k, "view") == 0) {
        nlegal = 0;
        if (!in_round) leak("a decision outside a round", copy);
    } else if (strcmp(k, "train") == 0 || strcmp(k, "uncovered") == 0) {
        all_known(w, n, 1, copy, "a hidden tile on the table");
    } else if (strcmp(k, "legal") == 0) {
        if (n >= 4 && strcmp(w[2], "play") == 0) {
            if (!tile(w[3], &a, &b) || !mine[a][b]) leak("a legal play of a tile it does not hold", copy);
        } else if (n >= 3 && strcmp(w[2], "draw") == 0 && n > 3) {
            leak("a legal draw names its tile", copy);
        }
        if (nlegal < MAX_LEGAL) {
            const char *action = strchr(copy + 6, ' ');
            snprintf(legal[nlegal++], sizeof legal[0], "%s", action ? action + 1 : "pass");
        }
    } else if (strcmp(k, "go") == 0 && n >= 2) {
        if (nlegal == 0) leak("a decision with no legal action", copy);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        printf("%s %s\n", w[1], legal[rng % (unsigned long long)nlegal]);
        nlegal = 0;
    } else if (strcmp(k, "bye") == 0) {
        fflush(stdout);
        exit(0);
    } else if (strcmp(k, "match") != 0 && strcmp(k, "rounds") != 0 && strcmp(k, "rules") != 0 &&
               strcmp(k, "clock") != 0 && strcmp(k, "boneyard") != 0 && strcmp(k, "totals") != 0 &&
               strcmp(k, "match_end") != 0 && strcmp(k, "eliminated") != 0 && strcmp(k, "retired") != 0) {
        all_known(w, n, 0, copy, "a hidden tile in an unknown line");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc > 1) rng ^= strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ULL;
    char line[70000];
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        on_line(line);
    }
    return 0;
}
