/* How many processors this process may run on: the default of --jobs. */
#ifndef MTREF_CPUS_H
#define MTREF_CPUS_H

/* The CPUs in this process's affinity mask (taskset), else those online; at least 1. */
int sys_cpus_available(void);

#endif
