#ifndef RASTERKIT_CCAIRO_SHIM_H
#define RASTERKIT_CCAIRO_SHIM_H

#include <cairo.h>
// Vector documents: Rasterizer.vectorDocument(of:size:format:).
#include <cairo-pdf.h>
#include <cairo-svg.h>
// RasterKit gives Pango (CPangoLoader) its own isolated fontconfig configuration.
#include <fontconfig/fontconfig.h>
// Only for the versions a golden's environment records (RenderEnvironment).
#include <pixman.h>
#include <ft2build.h>
#include FT_FREETYPE_H

/// FreeType's version needs a library instance; -1s when none can be made.
static inline void rk_freetype_version(int *major, int *minor, int *patch) {
    FT_Library library;
    *major = *minor = *patch = -1;
    if (FT_Init_FreeType(&library) != 0) return;
    FT_Library_Version(library, major, minor, patch);
    FT_Done_FreeType(library);
}

#endif
