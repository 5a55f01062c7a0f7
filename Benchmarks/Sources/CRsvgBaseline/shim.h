#ifndef RASTERKIT_BENCHMARK_RSVG_H
#define RASTERKIT_BENCHMARK_RSVG_H
#include <librsvg/rsvg.h>
#include <cairo.h>
static inline void baseline_rsvg_unref(void *object) { g_object_unref(object); }
#endif
