/* mtref replay FILE: step through a record at a terminal, the table redrawn at each
 * move; without a terminal, the table after every move, for scripts. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "cli_look.h"

static const char usage[] =
    "usage: mtref replay [OPTIONS] FILE     step through a record, the table at each move\n"
    "options:\n"
    "  --json            (without a terminal) the JSON show object after every move\n"
    "  --as NAME         the table as that player sees it\n"
    "  --rules NAME      load a house-rule file (repeatable; after the record's own)\n"
    "  -h, --help        this help;  --version  the version\n"
    "keys: n, space, Enter or right: next move; p, b or left: back a move;\n"
    "      ] or PageDown: next round; [ or PageUp: round back; Home, End;\n"
    "      g: go to a line; r: go to a round's first move; q: quit\n"
    "See mtref(1).\n";

enum { OPT_JSON, OPT_AS, OPT_RULES };
static const struct cli_option options[] = {
    [OPT_JSON] = {"--json", 0, false},
    [OPT_AS] = {"--as", 0, true},
    [OPT_RULES] = {"--rules", 0, true},
};

struct replay {
    int fd;
    struct session_options so;
    struct cli_table_options table;
    struct walk_index ix;
    long *stops;               /* steps shown: the table before the first move, every move, a rejection */
    long nstops;
    int status;
};

/* Without a terminal: one pass, the table after every move and at a rejected line. */
static void print_move(void *ctx, const struct referee *ref, const struct response *resp)
{
    struct replay *r = ctx;
    if (resp->kind != RESPONSE_VERDICT) return;
    bool rejected = resp->verdict.code != ERR_NONE;
    bool move = ref->cmd.kind == CMD_PLAY || ref->cmd.kind == CMD_DRAW || ref->cmd.kind == CMD_PASS;
    if (!rejected && !move) return;
    if (r->table.mode == OUTPUT_TEXT) fputs("\n", stdout);
    int s = cli_print_table(stdout, &r->table, ref, NULL, resp);
    if (s > r->status) r->status = s;
}

static int replay_plain(struct replay *r)
{
    struct session_options so = r->so;
    so.respond = print_move;
    so.ctx = r;
    struct session_result res;
    int status = session_run(r->fd, &so, &res);
    if (res.read_error) fprintf(stderr, "mtref: replay: %s\n", strerror(res.read_error));
    return r->status > status ? r->status : status;
}

static bool make_stops(struct replay *r)
{
    r->stops = mt_malloc(((size_t)r->ix.n + 1) * sizeof *r->stops);
    if (!r->stops) return false;
    for (long i = 0; i < r->ix.n; i++) {
        const struct walk_step *s = &r->ix.steps[i];
        bool first_move = s->move && r->nstops == 0;
        if (first_move && i > 0) {                                   /* the table as dealt */
            long before = i - 1;
            while (before > 0 && r->ix.steps[before].kind != RESPONSE_VERDICT) before--;
            r->stops[r->nstops++] = before;
        }
        if (s->move || s->code != ERR_NONE) r->stops[r->nstops++] = i;
    }
    if (r->nstops == 0 && r->ix.n > 0) r->stops[r->nstops++] = r->ix.n - 1;
    return true;
}

/* The stop at or before a step. */
static long stop_of_step(const struct replay *r, long step)
{
    long found = 0;
    for (long i = 0; i < r->nstops && r->stops[i] <= step; i++) found = i;
    return found;
}

struct draw_ctx {
    struct replay *r;
};

static void draw_visit(void *ctx, const struct referee *ref, const struct game *before, const struct response *resp)
{
    struct draw_ctx *c = ctx;
    (void)before;
    cli_print_table(stdout, &c->r->table, ref, NULL, resp);
}

static void redraw(struct replay *r, long stop, const char *path, const char *message)
{
    const struct walk_step *s = &r->ix.steps[r->stops[stop]];
    fputs("\033[H\033[2J", stdout);
    printf("mtref replay %s: %ld of %ld, round %d, line %ld   (n/p move, ]/[ round, g line, r round, q quit)\n\n",
           path, stop + 1, r->nstops, s->in_round, s->line);
    struct draw_ctx c = {r};
    walk_to_line(r->fd, &r->so, s->line, draw_visit, &c);
    if (s->code != ERR_NONE)
        printf("\nThis line breaks the rules: the referee stops here (an illegal record ends at its first "
               "rejected line).\n");
    else if (stop + 1 == r->nstops)
        printf("\nThe end of the record%s.\n", s->match_ended ? ": the match is over" : "");
    if (message && *message) printf("%s\n", message);
    fflush(stdout);
}

/* Reads a number typed after a prompt (raw mode: echoed here); -1 when cancelled. */
static long read_number(const char *prompt)
{
    printf("\n%s", prompt);
    fflush(stdout);
    long v = 0;
    int digits = 0;
    for (;;) {
        char ch;
        ssize_t n = read(0, &ch, 1);
        if (n <= 0) return -1;
        if (ch == '\r' || ch == '\n') return digits ? v : -1;
        if (ch == 27 || ch == 3 || ch == 'q') return -1;
        if ((ch == 127 || ch == 8) && digits) {
            v /= 10;
            digits--;
            fputs("\b \b", stdout);
        } else if (ch >= '0' && ch <= '9' && digits < 12) {
            v = v * 10 + (ch - '0');
            digits++;
            putchar(ch);
        }
        fflush(stdout);
    }
}

enum key { KEY_NONE, KEY_NEXT, KEY_BACK, KEY_NEXT_ROUND, KEY_BACK_ROUND, KEY_HOME, KEY_END, KEY_LINE,
           KEY_ROUND, KEY_QUIT };

static enum key read_key(void)
{
    unsigned char buf[8];
    /* one key at a time, so that keys typed ahead (g12, Enter) are read in turn */
    ssize_t n = read(0, buf, 1);
    if (n <= 0) return KEY_QUIT;
    if (buf[0] == 27) {
        /* an escape sequence arrives at once; a lone Escape key does nothing */
        struct pollfd p = {0, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) {
            ssize_t more = read(0, buf + 1, 2);
            n += more > 0 ? more : 0;
        }
        if (n == 3 && buf[1] == '[' && buf[2] >= '0' && buf[2] <= '9' && poll(&p, 1, 50) > 0) {
            unsigned char tilde;
            if (read(0, &tilde, 1) != 1) return KEY_NONE;     /* the ~ of "ESC [ 5 ~" */
        }
    }
    if (buf[0] == 27 && n >= 3 && buf[1] == '[') {
        switch (buf[2]) {
        case 'C': return KEY_NEXT;
        case 'D': return KEY_BACK;
        case 'H': return KEY_HOME;
        case 'F': return KEY_END;
        case '5': return KEY_BACK_ROUND;
        case '6': return KEY_NEXT_ROUND;
        case '1': return KEY_HOME;
        case '4': return KEY_END;
        default: return KEY_NONE;
        }
    }
    if (buf[0] == 27) return KEY_NONE;
    switch (buf[0]) {
    case 'n': case ' ': case '\r': case '\n': return KEY_NEXT;
    case 'p': case 'b': case 127: case 8: return KEY_BACK;
    case ']': return KEY_NEXT_ROUND;
    case '[': return KEY_BACK_ROUND;
    case 'g': return KEY_LINE;
    case 'r': return KEY_ROUND;
    case 'q': case 3: case 4: return KEY_QUIT;
    default: return KEY_NONE;
    }
}

/* The round a stop belongs to: the one its line was played in. */
static int stop_round(const struct replay *r, long stop) { return r->ix.steps[r->stops[stop]].in_round; }

static long round_stop(const struct replay *r, long from, int dir)
{
    int round = stop_round(r, from);
    long i = from;
    if (dir > 0) {
        while (i + 1 < r->nstops && stop_round(r, i) == round) i++;
        return i;
    }
    /* back: to the first stop of this round, or of the one before when already there */
    while (i > 0 && stop_round(r, i - 1) == round) i--;
    if (i == from && i > 0) {
        round = stop_round(r, i - 1);
        i--;
        while (i > 0 && stop_round(r, i - 1) == round) i--;
    }
    return i;
}

static int replay_terminal(struct replay *r, const char *path)
{
    if (!walk_index_build(r->fd, &r->so, &r->ix) || !make_stops(r)) {
        fputs("mtref: replay: out of memory\n", stderr);
        return 2;
    }
    if (r->nstops == 0) {
        fputs("mtref: replay: the record has no line to show\n", stderr);
        return 2;
    }
    struct termios saved, raw;
    if (tcgetattr(0, &saved) != 0) return replay_plain(r);
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(0, TCSANOW, &raw);
    long stop = 0;
    char message[160] = "";
    for (bool quit = false; !quit;) {
        redraw(r, stop, path, message);
        message[0] = '\0';
        long n;
        switch (read_key()) {
        case KEY_NEXT:
            if (stop + 1 < r->nstops) stop++;
            else snprintf(message, sizeof message, "(no move after this one)");
            break;
        case KEY_BACK:
            if (stop > 0) stop--;
            break;
        case KEY_NEXT_ROUND: stop = round_stop(r, stop, 1); break;
        case KEY_BACK_ROUND: stop = round_stop(r, stop, -1); break;
        case KEY_HOME: stop = 0; break;
        case KEY_END: stop = r->nstops - 1; break;
        case KEY_LINE:
            n = read_number("go to line: ");
            if (n >= 0) {
                long step = walk_index_at_line(&r->ix, n);
                if (step < 0) snprintf(message, sizeof message, "(line %ld is before the first move)", n);
                else stop = stop_of_step(r, step);
            }
            break;
        case KEY_ROUND:
            n = read_number("go to round: ");
            if (n > 0 && n <= CLI_ROUND_MAX) {
                long step = walk_index_round_start(&r->ix, (int)n);
                if (step < 0) snprintf(message, sizeof message, "(the record never reaches round %ld)", n);
                else stop = stop_of_step(r, step + 1 < r->ix.n && r->ix.steps[step + 1].move ? step + 1 : step);
            }
            break;
        case KEY_QUIT: quit = true; break;
        case KEY_NONE: break;
        }
    }
    tcsetattr(0, TCSANOW, &saved);
    putchar('\n');
    fflush(stdout);
    return r->ix.status;
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    const char *rules[RULES_MAX_FILES];
    const char *path = NULL;
    struct replay r;
    memset(&r, 0, sizeof r);
    r.so = (struct session_options){&env->loader, rules, 0, false, NULL, NULL, NULL};
    r.table.mode = OUTPUT_TEXT;
    struct cli_parser p;
    CLI_PARSER_INIT(&p, argc, argv, &cli_replay, options);
    const char *value;
    int opt, status = 0;
    while ((opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: return status;
        case CLI_OPERAND:
            if (cli_one_file(&cli_replay, &path, value)) return 2;
            break;
        case OPT_JSON: r.table.mode = OUTPUT_JSON; break;
        case OPT_AS:
            if (!protocol_is_name(value, strlen(value)))
                return cli_usage_error(&cli_replay, "bad option or value: '%s %s'", p.word, value);
            r.table.as = value;
            break;
        case OPT_RULES:
            if (!cli_rules_value(&cli_replay, value, rules, &r.so.nrules, &status)) return status;
            break;
        }
    }
    if (!path) return cli_usage_error(&cli_replay, "replay needs a %s", "FILE");
    /* keys come from the terminal on stdin, so the record must come from a file */
    bool interactive = strcmp(path, "-") != 0 && isatty(0) && isatty(1) && r.table.mode == OUTPUT_TEXT;
    int err = interactive ? cli_open_record(path, &r.fd) : cli_open_input(path, &r.fd);
    if (err) {
        fprintf(stderr, "mtref: %s: %s\n", path, strerror(err));
        return 2;
    }
    status = interactive ? replay_terminal(&r, path) : replay_plain(&r);
    if (fflush(stdout) != 0) status = 2;
    walk_index_free(&r.ix);
    free(r.stops);
    if (r.fd) close(r.fd);
    return status;
}

const struct subcommand cli_replay = {"replay", "step through a record, the table at each move", usage, run};
