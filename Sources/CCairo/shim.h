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

#endif
