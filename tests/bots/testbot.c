/* A bot for the tests of mtref match: plays the first legal action it is offered and
 * misbehaves in one way, chosen by its first argument, at decision N (second argument,
 * default 1). Each mode earns exactly one fault kind, or none. */
#define _DEFAULT_SOURCE 1
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char *mode = "ok";
static int at = 1;

static void say(const char *s) { (void)!write(1, s, strlen(s)); }

static bool is(const char *m) { return strcmp(mode, m) == 0; }

static void pause_ms(int ms) { usleep((useconds_t)ms * 1000); }

int main(int argc, char **argv)
{
    if (argc > 1) mode = argv[1];
    if (argc > 2) at = atoi(argv[2]);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    if (is("silent")) { pause_ms(60000); return 0; }
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
    bool can_play = false, can_draw = false;
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
            for (char *name = strtok(players, " "); name; name = strtok(NULL, " "))
                if (strcmp(name, line + 5) != 0) { snprintf(other, sizeof other, "%s", name); break; }
            continue;
        }
        if (strncmp(line, "hand ", 5) == 0) {
            char *t = strchr(line + 5, ' ');
            (void)t;
            snprintf(tile_out, sizeof tile_out, "%.5s", line + 5);
            continue;
        }
        if (strncmp(line, "view ", 5) == 0) { first[0] = '\0'; can_play = can_draw = false; continue; }
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
        bool now = decision == at;
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
        say(out);
        if (is("twice")) say(out);                              /* the same id: stale */
    }
    return 0;
}
