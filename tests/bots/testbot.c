/* A bot for the tests of mtref match: plays the first legal action it is offered and
 * misbehaves in one way, chosen by its first argument, at decision N (second argument,
 * default 1). Each mode earns exactly one fault kind, or none. "break:KIND" breaks one
 * rule on purpose (no-match, must-cover, ...) at the first decision from N on whose view
 * allows it; "pace MS" only takes MS per decision. */
#define _DEFAULT_SOURCE 1
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *mode = "ok";
static int at = 1;

static void say(const char *s) { (void)!write(1, s, strlen(s)); }

static bool is(const char *m) { return strcmp(mode, m) == 0; }

static void pause_ms(int ms) { usleep((useconds_t)ms * 1000); }

/* What the last view showed, for the modes that break one rule on purpose. */
static char me[64];
static struct { char name[64]; int open, length; bool marked; } trains[10];
static int ntrains, boneyard = -1;
static char uncovered_on[64];                    /* the train of the first uncovered double */
static int hand[40][2], nhand;

static void read_hand(char *list)
{
    nhand = 0;
    for (char *t = strtok(list, " "); t && nhand < 40; t = strtok(NULL, " "))
        if (sscanf(t, "%d-%d", &hand[nhand][0], &hand[nhand][1]) == 2) nhand++;
}

static bool has_pip(int i, int pip) { return hand[i][0] == pip || hand[i][1] == pip; }

/* An answer that breaks the rule named by kind, into out; false while the view offers
 * no way to break it (the bot then plays as usual). */
static bool breaking(const char *kind, bool can_play, bool can_draw, bool drew, char *out, size_t size)
{
    bool uncovered = uncovered_on[0] != '\0';
    if (strcmp(kind, "mustcover") == 0 && uncovered && nhand > 0) {
        const char *train = strcmp(uncovered_on, "mex") == 0 ? me : "mex";   /* not a cover */
        snprintf(out, size, "play %d-%d %s\n", hand[0][0], hand[0][1], train);
        return true;
    }
    if (strcmp(kind, "alreadydrawn") == 0 && drew && !can_play) { snprintf(out, size, "draw\n"); return true; }
    if (strcmp(kind, "boneyardempty") == 0 && boneyard == 0 && !drew && !can_play && !can_draw) {
        snprintf(out, size, "draw\n");
        return true;
    }
    if (strcmp(kind, "unknownplayer") == 0) { snprintf(out, size, "zed pass\n"); return true; }
    if (uncovered) return false;
    int own_length = -1;
    for (int t = 0; t < ntrains; t++)
        if (strcmp(trains[t].name, me) == 0) own_length = trains[t].length;
    for (int t = 0; t < ntrains; t++) {
        bool mine = strcmp(trains[t].name, me) == 0, other = !mine && strcmp(trains[t].name, "mex") != 0;
        for (int i = 0; i < nhand; i++) {
            if (strcmp(kind, "trainclosed") == 0 && other && !trains[t].marked) {
                snprintf(out, size, "play %d-%d %s\n", hand[i][0], hand[i][1], trains[t].name);
                return true;
            }
            if (strcmp(kind, "nomatch") == 0 && (mine || !other) && !has_pip(i, trains[t].open)) {
                snprintf(out, size, "play %d-%d %s\n", hand[i][0], hand[i][1], trains[t].name);
                return true;
            }
            /* under mex-after-own.lua: the empty Mexican train, started from an empty own train */
            if (strcmp(kind, "houserule") == 0 && !strcmp(trains[t].name, "mex") && trains[t].length == 0 &&
                own_length == 0 && has_pip(i, trains[t].open)) {
                snprintf(out, size, "play %d-%d mex\n", hand[i][0], hand[i][1]);
                return true;
            }
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc > 1) mode = argv[1];
    if (argc > 2) at = atoi(argv[2]);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    if (is("silent")) { pause_ms(60000); return 0; }
    if (is("inspect")) {            /* what mtref-bot(7) promises a bot process; exit 7 if not */
        for (int fd = 3; fd < 1024; fd++)
            if (fcntl(fd, F_GETFD) != -1) { fprintf(stderr, "fd %d is open\n", fd); return 7; }
        extern char **environ;
        bool protocol = false;
        for (char **e = environ; *e; e++) {
            if (strcmp(*e, "MTREF_BOT_PROTOCOL=1") == 0) protocol = true;
            else if (strncmp(*e, "MTREF_", 6) == 0) { fprintf(stderr, "%s\n", *e); return 7; }
        }
        if (!protocol) { fprintf(stderr, "no MTREF_BOT_PROTOCOL\n"); return 7; }
        if (getpgrp() != getpid()) { fprintf(stderr, "not its own process group\n"); return 7; }
        for (int fd = 0; fd < 3; fd++) {
            struct stat st;
            if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) { fprintf(stderr, "fd %d is no pipe\n", fd); return 7; }
        }
    }
    if (is("stderrstorm")) {
        static char junk[1 << 16];
        memset(junk, 'x', sizeof junk);
        for (int i = 0; i < 1600; i++) (void)!write(2, junk, sizeof junk);   /* 100 MiB */
    }
    if (is("ignorebye")) signal(SIGTERM, SIG_IGN);
    if (is("writefile")) {                       /* a file in its working directory */
        FILE *f = fopen("testbot-was-here", "w");
        if (f) fclose(f);
    }
    char line[70000], first[256] = "", other[64] = "", tile_out[8] = "", players[4096] = "";
    int decision = 0;
    bool can_play = false, can_draw = false, drew = false;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "hello ", 6) == 0) {
            if (is("early")) { say("hello 1 testbot\npass\n"); continue; }   /* unasked: dropped */
            if (is("flood")) {                                   /* unasked, with the hello */
                static char burst[40000];
                size_t n = 16;
                memcpy(burst, "hello 1 testbot\n", n);
                for (int i = 0; i < 2000; i++, n += 8) memcpy(burst + n, "chatter\n", 8);
                (void)!write(1, burst, n);
                for (;;) say("chatter\n");
            }
            say(is("badversion") ? "hello 2 testbot\n" : "hello 1 testbot\n");
            if (is("exitearly")) return 0;
            if (is("closeout")) { close(1); pause_ms(60000); return 0; }
            if (is("noread")) { pause_ms(60000); return 0; }
            continue;
        }
        if (strncmp(line, "players ", 8) == 0) {
            snprintf(players, sizeof players, "%s", line + 8);
            continue;
        }
        if (strncmp(line, "seat ", 5) == 0) {                    /* someone else's name */
            snprintf(me, sizeof me, "%s", line + 5);
            for (char *name = strtok(players, " "); name; name = strtok(NULL, " "))
                if (strcmp(name, line + 5) != 0) { snprintf(other, sizeof other, "%s", name); break; }
            continue;
        }
        if (strncmp(line, "hand ", 5) == 0) {
            snprintf(tile_out, sizeof tile_out, "%.5s", line + 5);
            read_hand(line + 5);
            continue;
        }
        if (strncmp(line, "view ", 5) == 0) {
            first[0] = '\0';
            can_play = can_draw = false;
            ntrains = 0;
            uncovered_on[0] = '\0';
            const char *b = strstr(line, " boneyard ");
            boneyard = b ? atoi(b + 10) : -1;
            continue;
        }
        if (strncmp(line, "train ", 6) == 0 && ntrains < 10) {
            char marked[16] = "";
            int at_tiles = 0;
            if (sscanf(line + 6, "%63s %d %15s%n", trains[ntrains].name, &trains[ntrains].open, marked, &at_tiles) == 3) {
                trains[ntrains].marked = strcmp(marked, "marked") == 0;
                trains[ntrains].length = 0;
                for (const char *c = line + 6 + at_tiles; *c; c++) trains[ntrains].length += *c == '-';
                ntrains++;
            }
            continue;
        }
        if (strncmp(line, "uncovered ", 10) == 0) {
            if (!uncovered_on[0]) sscanf(line + 10, "%*s %63s", uncovered_on);
            continue;
        }
        if (strncmp(line, "move ", 5) == 0) {
            char who[64] = "", what[16] = "";
            if (sscanf(line + 5, "%63s %15s", who, what) == 2 && strcmp(who, me) == 0)
                drew = strcmp(what, "draw") == 0;       /* a draw this turn, until its play or pass */
            continue;
        }
        if (strncmp(line, "legal ", 6) == 0) {
            char *action = strchr(line + 6, ' ');
            if (!first[0]) snprintf(first, sizeof first, "%s", action ? action + 1 : "pass");
            if (action && strncmp(action + 1, "play", 4) == 0) can_play = true;
            if (action && strncmp(action + 1, "draw", 4) == 0) can_draw = true;
            continue;
        }
        if (strcmp(line, "bye") == 0) {
            if (is("ignorebye")) { pause_ms(60000); }
            return 0;
        }
        if (strncmp(line, "go ", 3) != 0) continue;
        decision++;
        long id = atol(line + 3), move_ms = atol(strchr(line + 3, ' ') ? strchr(line + 3, ' ') + 1 : "0");
        char out[400];
        snprintf(out, sizeof out, "%ld %s\n", id, first);
        bool now = decision == at && !is("pace");
        if (is("bank")) pause_ms((int)(move_ms * 3 / 2));
        if (now && is("sleep")) pause_ms(60000);
        if (now && is("exit")) return 3;
        if (now && is("alloc")) {                /* 640 MiB, touched: past a --bot-mem of 128M */
            for (int i = 0; i < 10; i++) {
                char *p = malloc(64 << 20);
                if (!p) { signal(SIGSEGV, SIG_DFL); raise(SIGSEGV); }
                memset(p, 1, 64 << 20);
            }
        }
        if (now && is("spin")) for (volatile unsigned long i = 0;; i++) {}
        if (now && is("signal")) {
            signal(SIGSEGV, SIG_DFL);          /* not a sanitizer's handler: the plain signal */
            raise(SIGSEGV);
        }
        if (now && is("nul")) { (void)!write(1, "pa\0ss\n", 6); continue; }
        if (now && is("utf8")) { say("pass \xff\n"); continue; }
        if (now && is("garbage")) { say("xyzzy 12 frob\n"); continue; }
        if (now && is("nameddraw")) { say("draw 3-4\n"); continue; }
        if (now && is("noeol")) { static char big[1 << 20]; memset(big, 'a', sizeof big); (void)!write(1, big, sizeof big); pause_ms(60000); }
        if (now && is("notinhand")) { say("play 12-12 mex\n"); continue; }
        if (now && is("drawwhilecanplay") && can_play) { say("draw\n"); continue; }
        if (now && is("drawwhilecanplay")) at++;
        if (now && is("passwhilecandraw") && can_draw) { say("pass\n"); continue; }
        if (now && is("passwhilecandraw")) at++;
        if (now && strncmp(mode, "break:", 6) == 0) {
            if (breaking(mode + 6, can_play, can_draw, drew, out, sizeof out)) { say(out); continue; }
            at++;                                  /* not yet: try again at the next one */
            snprintf(out, sizeof out, "%ld %s\n", id, first);
        }
        if (now && is("notyourturn") && other[0]) {
            snprintf(out, sizeof out, "%ld %s pass\n", id, other);
            say(out);
            continue;
        }
        if (now && is("forkchild")) {
            if (fork() == 0) { pause_ms(30000); _exit(0); }       /* holds the pipes */
            return 0;
        }
        if (now && is("doublefork")) {
            if (fork() == 0) {
                setsid();
                if (fork() == 0) { pause_ms(1500); _exit(0); }
                _exit(0);
            }
            return 0;
        }
        if (is("bytewise")) {
            for (char *c = out; *c; c++) { (void)!write(1, c, 1); pause_ms(1); }
            continue;
        }
        if (is("pace")) pause_ms(at);                            /* at: ms per decision */
        if (is("twicebare")) {                                   /* no id: the second is unasked */
            char two[900];
            snprintf(two, sizeof two, "%s\n%s\n", first, first);
            say(two);
            continue;
        }
        if (is("crlf")) {                                        /* a carriage return before the newline */
            out[strlen(out) - 1] = '\0';
            strcat(out, "\r\n");
        }
        say(out);
        if (is("twice")) say(out);                              /* the same id: stale */
    }
    return 0;
}
