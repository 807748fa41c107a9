/* The processors available to this process (sched_getaffinity, a GNU interface). */
#define _GNU_SOURCE
#include "cpus.h"

#include <sched.h>
#include <unistd.h>

int sys_cpus_available(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
