/* The line reader on a descriptor: the 4096-byte limit, long lines in constant memory, CRLF, the last line, line numbers. */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "reader.h"

/* A descriptor that reads back bytes[0..len): a temporary file, rewound. */
static FILE *file_of(const char *bytes, size_t len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fflush(f);
    rewind(f);
    return f;
}

struct expect {
    const char *text;        /* NULL: too long */
    size_t len;
};

/* Reads all of bytes and checks the lines against want[0..n). */
static void read_back(const char *bytes, size_t len, const struct expect *want, int n)
{
    FILE *f = file_of(bytes, len);
    struct reader r;
    assert_true(reader_open(&r, fileno(f), PROTOCOL_LINE_MAX));
    struct line line;
    for (int i = 0; i < n; i++) {
        if (!reader_next(&r, &line)) fail_msg("line %d missing", i + 1);
        assert_int_equal(line.number, i + 1);
        if (!want[i].text) {
            assert_true(line.too_long);
            assert_int_equal(line.len, 0);
            continue;
        }
        assert_false(line.too_long);
        assert_int_equal(line.len, want[i].len);
        assert_memory_equal(line.text, want[i].text, want[i].len);
    }
    assert_false(reader_next(&r, &line));
    assert_false(reader_next(&r, &line));      /* and it stays at the end */
    assert_int_equal(r.error, 0);
    reader_close(&r);
    reader_close(&r);                          /* a no-op the second time */
    fclose(f);
}

#define E(s) {s, sizeof s - 1}

static void empty_input_has_no_lines(void **state)
{
    (void)state;
    read_back("", 0, NULL, 0);
}

static void lines_are_numbered_from_1_and_blank_lines_count(void **state)
{
    (void)state;
    const struct expect want[] = {E("players 2"), E(""), E("# c"), E(""), E("show")};
    const char text[] = "players 2\n\n# c\n\nshow\n";
    read_back(text, sizeof text - 1, want, 5);
}

static void crlf_is_stripped_but_a_lone_cr_is_kept(void **state)
{
    (void)state;
    const struct expect want[] = {E("players 2"), E("show"), E("a\rb"), E("\r"), E(""), E("x")};
    const char text[] = "players 2\r\nshow\r\na\rb\n\r\r\n\r\nx\n";
    read_back(text, sizeof text - 1, want, 6);
}

static void a_last_line_without_a_newline_is_read(void **state)
{
    (void)state;
    const struct expect want[] = {E("players 2"), E("show")};
    read_back("players 2\nshow", 14, want, 2);
    const struct expect one[] = {E("x")};
    read_back("x", 1, one, 1);
    read_back("x\r\n", 3, one, 1);
}

/* One rule for CR everywhere: only "\r\n" ends a line, so a CR that is not followed
 * by "\n" is the line's own byte, at the end of input as much as before "\r\n". */
static void a_lone_cr_at_the_end_of_input_is_kept_as_before_a_crlf(void **state)
{
    (void)state;
    const struct expect cr[] = {E("show\r")};
    read_back("show\r", 5, cr, 1);
    read_back("show\r\r\n", 7, cr, 1);
    const struct expect two[] = {E("x"), E("\r")};
    read_back("x\n\r", 3, two, 2);
}

static void a_stream_answers_show_cr_with_syntax_at_the_end_of_input_too(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(tu_run("players 2\nshow\r", false, false, NULL, 0, &out), 2);
    char *crlf = NULL;
    assert_int_equal(tu_run("players 2\nshow\r\r\n", false, false, NULL, 0, &crlf), 2);
    assert_string_equal(out, crlf);
    assert_non_null(strstr(out, "error line 2: syntax"));
    free(out);
    free(crlf);
}

/* The line end is the first "\n" wherever it lies: in either 16 bytes of the first 32,
 * past them, not at all, in a block shorter than 32 bytes, with other newlines after
 * it and bytes of every value around it (a byte is compared, not its sign). */
static void the_first_newline_is_found_wherever_it_lies(void **state)
{
    (void)state;
    char buf[100];
    for (size_t avail = 0; avail <= 96; avail++)
        for (size_t at = 0; at <= avail; at++)
            for (int fill = 0; fill < 3; fill++) {
                for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)(fill == 0 ? 'x' : fill == 1 ? 0x8a : i * 37);
                for (size_t i = 0; i < sizeof buf; i++)
                    if (buf[i] == '\n') buf[i] = 'y';
                if (at < avail) buf[at] = '\n';
                if (at + 5 < avail) buf[at + 5] = '\n';       /* a later one is not the answer */
                buf[avail] = '\n';                           /* beyond the block: never found */
                const char *want = at < avail ? buf + at : NULL;
                const char *got = reader_find_newline(buf, avail);
                if (got != want)
                    fail_msg("avail %zu, newline at %zu (fill %d): found at %td", avail, at, fill,
                             got ? got - buf : -1);
            }
}

static void reader_close_of_null_does_nothing(void **state)
{
    (void)state;
    reader_close(NULL);
    struct reader r;
    assert_true(reader_open(&r, 0, 16));
    reader_close(&r);
    reader_close(&r);          /* a closed reader too */
}

static void nul_bytes_reach_the_grammar(void **state)
{
    (void)state;
    const struct expect want[] = {{"a\0b", 3}, {"\0", 1}};
    read_back("a\0b\n\0\n", 6, want, 2);
}

/* n bytes of line content: a repeating pattern, so a shifted or cut copy shows. */
static char *pattern(size_t n, unsigned salt)
{
    char *p = malloc(n + 1);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++) p[i] = (char)('a' + (i * 7 + salt) % 26);
    p[n] = '\0';
    return p;
}

static void a_line_of_exactly_4096_bytes_is_kept_and_4097_is_too_long(void **state)
{
    (void)state;
    char *l4096 = pattern(4096, 1), *l4097 = pattern(4097, 2);
    size_t size = 4096 + 1 + 4097 + 1 + 4096 + 2 + 4097 + 2 + 3 + 4096;
    char *text = malloc(size);
    assert_non_null(text);
    size_t n = 0;
    memcpy(text + n, l4096, 4096); n += 4096; text[n++] = '\n';
    memcpy(text + n, l4097, 4097); n += 4097; text[n++] = '\n';
    memcpy(text + n, l4096, 4096); n += 4096; text[n++] = '\r'; text[n++] = '\n';   /* CR not counted */
    memcpy(text + n, l4097, 4097); n += 4097; text[n++] = '\r'; text[n++] = '\n';
    memcpy(text + n, "ok\n", 3); n += 3;
    memcpy(text + n, l4096, 4096); n += 4096;                                        /* last, no newline */
    assert_int_equal(n, size);
    const struct expect want[] = {{l4096, 4096}, {NULL, 0}, {l4096, 4096}, {NULL, 0}, E("ok"), {l4096, 4096}};
    read_back(text, n, want, 6);
    /* a last line of 4097 without a newline is too long as well */
    const struct expect last[] = {E("ok"), {NULL, 0}};
    memcpy(text, "ok\n", 3);
    memcpy(text + 3, l4097, 4097);
    read_back(text, 3 + 4097, last, 2);
    free(text);
    free(l4096);
    free(l4097);
}

static void a_megabyte_line_is_too_long_in_constant_memory(void **state)
{
    (void)state;
    size_t big = 1 << 20;
    char *text = pattern(big + 20, 3);
    memcpy(text, "show\n", 5);
    text[5 + big] = '\n';
    memcpy(text + 6 + big, "legal\n", 6);
    FILE *f = file_of(text, 12 + big);
    struct reader r;
    assert_true(reader_open(&r, fileno(f), PROTOCOL_LINE_MAX));
    char *buffer = r.buf;
    struct line line;
    assert_true(reader_next(&r, &line));
    assert_int_equal(line.len, 4);
    assert_true(reader_next(&r, &line));
    assert_true(line.too_long);
    assert_int_equal(line.len, 0);
    assert_int_equal(line.number, 2);
    assert_true(r.buf == buffer);                        /* never grown */
    assert_true(r.end <= READER_BUFFER_SIZE + PROTOCOL_LINE_MAX + 1);
    assert_true(reader_next(&r, &line));
    assert_false(line.too_long);
    assert_int_equal(line.number, 3);
    assert_memory_equal(line.text, "legal", 5);
    assert_false(reader_next(&r, &line));
    reader_close(&r);
    fclose(f);
    free(text);
}

static void lines_across_buffer_refills_stay_whole(void **state)
{
    (void)state;
    /* 200 lines of 4000 to 4096 bytes: about 12 refills of the buffer */
    size_t cap = 200 * 4100, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    struct expect want[200];
    char *lines[200];
    for (int i = 0; i < 200; i++) {
        size_t len = 4000 + (size_t)(i * 37) % 97;
        lines[i] = pattern(len, (unsigned)i);
        want[i] = (struct expect){lines[i], len};
        memcpy(text + n, lines[i], len);
        n += len;
        if (i % 3 == 0) text[n++] = '\r';
        text[n++] = '\n';
    }
    read_back(text, n, want, 200);
    for (int i = 0; i < 200; i++) free(lines[i]);
    free(text);
}

/* A pipe fed in pieces, one piece each time the reader is about to wait. */
struct feeder {
    int fd;
    const char *const *pieces;
    int next, count;
};

static void feed_next(void *ctx)
{
    struct feeder *f = ctx;
    if (f->next < f->count) {
        size_t len = strlen(f->pieces[f->next]);
        assert_int_equal(write(f->fd, f->pieces[f->next], len), (ssize_t)len);
        f->next++;
    }
    if (f->next == f->count && f->fd >= 0) {
        close(f->fd);
        f->fd = -1;
    }
}

static void a_pipe_is_read_as_it_comes(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const char *const pieces[] = {"pla", "yers 2\nsh", "ow\r", "\n", "\n", "legal\nx"};
    struct feeder f = {fds[1], pieces, 0, 6};
    struct reader r;
    assert_true(reader_open(&r, fds[0], PROTOCOL_LINE_MAX));
    r.before_wait = feed_next;
    r.ctx = &f;
    struct line line;
    const char *want[] = {"players 2", "show", "", "legal", "x"};
    for (int i = 0; i < 5; i++) {
        assert_true(reader_next(&r, &line));
        assert_int_equal(line.number, i + 1);
        assert_int_equal(line.len, strlen(want[i]));
        assert_memory_equal(line.text, want[i], line.len);
        if (i == 0) assert_int_equal(f.next, 2);     /* back before the later pieces came */
    }
    assert_false(reader_next(&r, &line));
    reader_close(&r);
    close(fds[0]);
}

static void a_pipe_answers_line_by_line(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct reader r;
    assert_true(reader_open(&r, fds[0], PROTOCOL_LINE_MAX));
    struct line line;
    assert_int_equal(write(fds[1], "show\n", 5), 5);
    assert_true(reader_next(&r, &line));             /* does not wait for a full buffer */
    assert_int_equal(line.len, 4);
    assert_int_equal(write(fds[1], "legal\n", 6), 6);
    assert_true(reader_next(&r, &line));
    assert_int_equal(line.len, 5);
    assert_int_equal(line.number, 2);
    close(fds[1]);
    assert_false(reader_next(&r, &line));
    reader_close(&r);
    close(fds[0]);
}

static void a_stream_answers_a_too_long_line_with_syntax_and_reads_on(void **state)
{
    (void)state;
    char *text = pattern(10000, 5);
    memcpy(text, "players 2\n# ", 12);
    memcpy(text + 9990, "\nrounds 7\n", 10);
    char *copy = malloc(10001);
    assert_non_null(copy);
    memcpy(copy, text, 10000);
    copy[10000] = '\0';
    char *out = NULL;
    int status = tu_run(copy, true, true, NULL, 0, &out);
    assert_int_equal(status, 2);
    assert_non_null(strstr(out, "{\"line\":2,\"ok\":false,\"error\":\"syntax\""));
    assert_non_null(strstr(out, "{\"line\":3,\"ok\":true}"));
    free(out);
    free(copy);
    free(text);
}

/* The three ways to take lines (reader_next, its inline reader_next_quick, and
 * reader_next_in over a block in memory, as check's threads split their chunks) give
 * the same lines, numbers and too-long marks, on random inputs of short lines, CRs in
 * every place, lines around the limit and past the buffer, with and without a last
 * newline. */
static void every_way_of_taking_lines_gives_the_same_lines(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    size_t cap = 300000;
    char *bytes = malloc(cap);
    assert_non_null(bytes);
    for (int iter = 0; iter < 60; iter++) {
        size_t len = 0;
        while (len + 6000 < cap && len < (size_t)(iter % 4 == 0 ? 200000 : 20000)) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            unsigned pick = (unsigned)(rng >> 33) % 100;
            if (pick < 3) {                    /* a line near or past the limit */
                size_t n = PROTOCOL_LINE_MAX - 2 + (rng >> 20) % 5 + (pick == 0 ? 1500 : 0);
                memset(bytes + len, 'x', n);
                len += n;
            } else if (pick < 15) {
                bytes[len++] = '\r';
            } else if (pick < 40) {
                bytes[len++] = '\n';
            } else {
                bytes[len++] = (char)('a' + (rng >> 40) % 26);
            }
        }
        if (iter % 3 == 1) bytes[len++] = '\r';         /* a last line ending in a lone CR */
        if (iter % 3 == 2) bytes[len++] = '\n';
        FILE *f1 = file_of(bytes, len), *f2 = file_of(bytes, len);
        struct reader r1, r2;
        assert_true(reader_open(&r1, fileno(f1), PROTOCOL_LINE_MAX));
        assert_true(reader_open(&r2, fileno(f2), PROTOCOL_LINE_MAX));
        size_t pos = 0;
        long number = 0;
        struct line a, b, c;
        for (;;) {
            bool ha = reader_next(&r1, &a), hb = reader_next_quick(&r2, &b);
            bool hc = reader_next_in(bytes, len, &pos, PROTOCOL_LINE_MAX, &c);
            assert_int_equal(ha, hb);
            assert_int_equal(ha, hc);
            if (!ha) break;
            c.number = ++number;
            assert_int_equal(a.number, b.number);
            assert_int_equal(a.number, c.number);
            assert_int_equal(a.too_long, b.too_long);
            assert_int_equal(a.too_long, c.too_long);
            assert_int_equal(a.len, b.len);
            assert_int_equal(a.len, c.len);
            if (a.len) {
                assert_memory_equal(a.text, b.text, a.len);
                assert_memory_equal(a.text, c.text, a.len);
            }
        }
        reader_close(&r1);
        reader_close(&r2);
        fclose(f1);
        fclose(f2);
    }
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_input_has_no_lines),
        cmocka_unit_test(every_way_of_taking_lines_gives_the_same_lines),
        cmocka_unit_test(lines_are_numbered_from_1_and_blank_lines_count),
        cmocka_unit_test(crlf_is_stripped_but_a_lone_cr_is_kept),
        cmocka_unit_test(a_last_line_without_a_newline_is_read),
        cmocka_unit_test(a_lone_cr_at_the_end_of_input_is_kept_as_before_a_crlf),
        cmocka_unit_test(a_stream_answers_show_cr_with_syntax_at_the_end_of_input_too),
        cmocka_unit_test(reader_close_of_null_does_nothing),
        cmocka_unit_test(the_first_newline_is_found_wherever_it_lies),
        cmocka_unit_test(nul_bytes_reach_the_grammar),
        cmocka_unit_test(a_line_of_exactly_4096_bytes_is_kept_and_4097_is_too_long),
        cmocka_unit_test(a_megabyte_line_is_too_long_in_constant_memory),
        cmocka_unit_test(lines_across_buffer_refills_stay_whole),
        cmocka_unit_test(a_pipe_is_read_as_it_comes),
        cmocka_unit_test(a_pipe_answers_line_by_line),
        cmocka_unit_test(a_stream_answers_a_too_long_line_with_syntax_and_reads_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
