#ifndef RASTERKIT_CAFFINITY_H
#define RASTERKIT_CAFFINITY_H

// Thread affinity for batch workers (see RasterKitBatch/WorkerPlacement.swift): which processors
// the calling thread may run on, and keeping it to one. Swift's Glibc module does not define
// _GNU_SOURCE, under which glibc declares sched_*affinity and the CPU_* macros, so these two
// small functions are C.

enum { RK_MAX_PROCESSORS = 1024 };

// Writes the processors the calling thread may run on into `out` (at most `capacity` of them)
// and returns how many there are, or -1 when the kernel will not say.
int rk_thread_processors(int *out, int capacity);

// Restricts the calling thread, and the threads it starts from now on, to one processor.
// Returns 0, or -1 when the kernel refuses (or `cpu` is out of range).
int rk_pin_thread(int cpu);

#endif
