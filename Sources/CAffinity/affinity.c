#define _GNU_SOURCE
#include <sched.h>
#include "CAffinity.h"

int rk_thread_processors(int *out, int capacity) {
    cpu_set_t *set = CPU_ALLOC(RK_MAX_PROCESSORS);
    if (set == NULL) return -1;
    size_t size = CPU_ALLOC_SIZE(RK_MAX_PROCESSORS);
    CPU_ZERO_S(size, set);
    int count = -1;
    if (sched_getaffinity(0, size, set) == 0) {
        count = 0;
        for (int cpu = 0; cpu < RK_MAX_PROCESSORS && count < capacity; cpu++) {
            if (CPU_ISSET_S(cpu, size, set)) out[count++] = cpu;
        }
    }
    CPU_FREE(set);
    return count;
}

int rk_pin_thread(int cpu) {
    if (cpu < 0 || cpu >= RK_MAX_PROCESSORS) return -1;
    cpu_set_t *set = CPU_ALLOC(RK_MAX_PROCESSORS);
    if (set == NULL) return -1;
    size_t size = CPU_ALLOC_SIZE(RK_MAX_PROCESSORS);
    CPU_ZERO_S(size, set);
    CPU_SET_S(cpu, size, set);
    int result = sched_setaffinity(0, size, set) == 0 ? 0 : -1;
    CPU_FREE(set);
    return result;
}
