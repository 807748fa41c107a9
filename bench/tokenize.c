/* The floor that scripts/bench measures mtref against: the least work any reader of
 * records must do. Reads standard input (or FILE) in 64 KB blocks, finds the newlines,
 * splits each line into words at spaces and tabs, and prints the line and word counts
 * (so that the compiler cannot drop the work). Not part of mtref. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 65536
#define LINE_MAX_KEPT 4096

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : 0;
    if (fd < 0) { perror(argv[1]); return 2; }
    static char buf[BLOCK + LINE_MAX_KEPT + 1];
    size_t have = 0;
    unsigned long lines = 0, words = 0, bytes = 0;
    for (;;) {
        ssize_t got = read(fd, buf + have, BLOCK);
        if (got < 0) { perror("read"); return 2; }
        if (got == 0 && have == 0) break;
        size_t end = have + (size_t)got;
        bytes += (size_t)got;
        char *p = buf, *stop = buf + end;
        for (;;) {
            char *nl = memchr(p, '\n', (size_t)(stop - p));
            if (!nl) {
                if (got > 0) break;
                nl = stop;              /* a last line without its newline */
                if (nl == p) break;
            }
            lines++;
            /* split [p, nl) into words */
            int in_word = 0;
            for (char *c = p; c < nl; c++) {
                int space = *c == ' ' || *c == '\t';
                words += !space && !in_word;
                in_word = !space;
            }
            p = nl + 1;
            if (nl == stop) { p = stop; break; }
        }
        have = (size_t)(stop - p);
        if (have > LINE_MAX_KEPT) have = 0;     /* an over-long line: dropped, as mtref does */
        memmove(buf, p, have);
        if (got == 0) break;
    }
    printf("%lu lines, %lu words, %lu bytes\n", lines, words, bytes);
    return 0;
}
