#ifndef RASTERKIT_CCAIRO_H
#define RASTERKIT_CCAIRO_H

// cairo and fontconfig, declared by their own headers and reached through dlopen rather than
// linked (see CairoLibrary.swift for why).
//
// The headers are found as <cairo/cairo.h> on the default include path (Debian's
// libcairo2-dev and libfontconfig1-dev), so nothing but declarations comes from them: no
// library is linked. cairo_loader.c defines every function RasterKit calls (cairo_calls.h) and
// forwards it to the library, loaded the first time one is called.
#include <cairo/cairo.h>
// Vector documents: Rasterizer.vectorDocument(of:size:format:).
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
// RasterKit gives Pango (CPangoLoader) its own isolated fontconfig configuration.
#include <fontconfig/fontconfig.h>

// Loads cairo (libcairo.so.2, which brings fontconfig, FreeType and pixman) once. Returns NULL,
// or a static message saying why it cannot be used. A cairo or fontconfig call made when it
// cannot be loaded prints that message and aborts: callers that can fail (a surface about to be
// made, a font configuration) call this first and report it.
const char *rk_cairo_load(void);

// pixman_version_string of the pixman cairo uses; "unavailable" without cairo.
const char *rk_pixman_version_string(void);

// FreeType's version, which needs a library instance: -1s when none can be made or cairo
// cannot be loaded.
void rk_freetype_version(int *major, int *minor, int *patch);

#endif
