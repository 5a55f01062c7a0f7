#ifndef RASTERKIT_CCAIRO_SHIM_H
#define RASTERKIT_CCAIRO_SHIM_H

#include <cairo.h>
// Vector documents: Rasterizer.vectorDocument(of:size:format:).
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
// PangoFcFontMap lets RasterKit give Pango its own isolated fontconfig configuration.
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
// Only for the versions a golden's environment records (RenderEnvironment).
#include <pixman.h>
#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H

// GObject casts are macros, which Swift cannot import.
static inline PangoFcFontMap *rk_pango_fc_font_map(PangoFontMap *map) {
    return PANGO_FC_FONT_MAP(map);
}

/// FreeType's version needs a library instance; -1s when none can be made.
static inline void rk_freetype_version(int *major, int *minor, int *patch) {
    FT_Library library;
    *major = *minor = *patch = -1;
    if (FT_Init_FreeType(&library) != 0) return;
    FT_Library_Version(library, major, minor, patch);
    FT_Done_FreeType(library);
}

static inline void rk_g_object_unref(void *object) { g_object_unref(object); }

#endif
