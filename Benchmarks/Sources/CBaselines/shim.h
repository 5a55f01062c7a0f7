#ifndef RASTERKIT_BENCHMARK_BASELINES_H
#define RASTERKIT_BENCHMARK_BASELINES_H
#include <cairo.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
static inline PangoFcFontMap *baseline_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void baseline_unref(void *object) { g_object_unref(object); }
#endif
