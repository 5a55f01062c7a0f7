#ifndef RASTERKIT_CCAIRO_SHIM_H
#define RASTERKIT_CCAIRO_SHIM_H

#include <cairo.h>
#include <pango/pangocairo.h>
// PangoFcFontMap lets RasterKit give Pango its own isolated fontconfig configuration.
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

// GObject casts are macros, which Swift cannot import.
static inline PangoFcFontMap *rk_pango_fc_font_map(PangoFontMap *map) {
    return PANGO_FC_FONT_MAP(map);
}

static inline void rk_g_object_unref(void *object) { g_object_unref(object); }

// Thread affinity, for keeping Pango's font-matching helper threads on their worker's processor
// (see WorkerPlacement.swift). glibc declares sched_*affinity and the CPU_* macros only under
// _GNU_SOURCE, which Swift's Glibc module does not define, so these use the system calls.
#include <sys/syscall.h>
#include <unistd.h>

enum { RK_MAX_PROCESSORS = 1024 };

// Writes the processors the calling thread may run on into `out` (at most `capacity` of them)
// and returns how many there are, or -1 when the kernel will not say.
static inline int rk_thread_processors(int *out, int capacity) {
    unsigned long mask[RK_MAX_PROCESSORS / (8 * sizeof(unsigned long))] = {0};
    long written = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (written <= 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < (int)written * 8 && count < capacity; cpu++) {
        if (mask[cpu / (8 * sizeof(unsigned long))] & (1UL << (cpu % (8 * sizeof(unsigned long))))) {
            out[count++] = cpu;
        }
    }
    return count;
}

// Restricts the calling thread, and the threads it starts from now on, to one processor.
// Returns 0, or -1 when the kernel refuses.
static inline int rk_pin_thread(int cpu) {
    if (cpu < 0 || cpu >= RK_MAX_PROCESSORS) return -1;
    unsigned long mask[RK_MAX_PROCESSORS / (8 * sizeof(unsigned long))] = {0};
    mask[cpu / (8 * sizeof(unsigned long))] = 1UL << (cpu % (8 * sizeof(unsigned long)));
    return syscall(SYS_sched_setaffinity, 0, sizeof mask, mask) == 0 ? 0 : -1;
}

#endif
