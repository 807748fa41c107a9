/* Fuzz harness (a): arbitrary bytes as a record through the whole referee (reader,
 * grammar, session, engine, output), once stopping at the first rejected line and
 * once with --keep-going, in text and JSON. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "luarules.h"
#include "stream.h"

static FILE *sink;
static struct luarules *bridge;

static int memory_fd(const uint8_t *data, size_t size)
{
    int fd = memfd_create("record", 0);
    if (fd < 0) abort();
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        bridge = luarules_new();
    }
    struct rules_loader loader = luarules_loader(bridge);
    for (int mode = 0; mode < 2; mode++) {
        int fd = memory_fd(data, size);
        struct stream_options o = {mode ? OUTPUT_JSON : OUTPUT_TEXT, mode == 1, NULL, 0, "fuzz"};
        int status = stream_run(fd, sink, sink, &o, &loader);
        if (status < 0 || status > 2) abort();
        close(fd);
    }
    return 0;
}
