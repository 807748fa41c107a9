/* The tail of a byte stream (a bot's stderr), kept in constant memory. */
#ifndef MTREF_TAIL_H
#define MTREF_TAIL_H

#include <stddef.h>

/* The last TAIL_SIZE bytes of a stream, and how many came in all. */
#define TAIL_SIZE 4096
struct tail {
    char data[TAIL_SIZE];
    unsigned long long total;
};
void tail_add(struct tail *t, const char *data, size_t n);
/* Copies the kept bytes in order into out (NUL-terminated); returns their count. */
size_t tail_copy(const struct tail *t, char *out, size_t size);

#endif
