#ifndef RASTERKIT_CRSVGLOADER_H
#define RASTERKIT_CRSVGLOADER_H

// librsvg reached through dlopen rather than linked (see LibrsvgLibrary.swift for why).
//
// librsvg and the libraries only it needs (GIO, gdk-pixbuf, libxml2, ICU) take about 5 ms to
// load and relocate. A process that serves every output from the render store never parses an
// SVG, but its cache keys hold librsvg's version: that is read from the library file itself,
// and the library is loaded, from that same file, only when a document is parsed.
//
// These declarations are RasterKit's own, matching librsvg 2's stable ABI for the calls it
// makes; no librsvg, GIO or GLib header is needed to build them.

#include <stddef.h>

// An RsvgHandle: one parsed document.
typedef struct rk_rsvg_handle rk_rsvg_handle;

// RsvgRectangle.
typedef struct {
    double x, y, width, height;
} rk_rsvg_rectangle;

// RsvgLength: a length and its RsvgUnit.
typedef struct {
    double length;
    int unit;
} rk_rsvg_length;

// RSVG_UNIT_PERCENT, the first RsvgUnit.
enum { RK_RSVG_UNIT_PERCENT = 0 };

// The version of librsvg in the file at `path`, read from its exported rsvg_major_version,
// rsvg_minor_version and rsvg_micro_version without loading it. Returns 0, or -1 when the file
// cannot be read or is not an ELF shared library for this machine that exports all three.
int rk_rsvg_version_in_file(const char *path, unsigned *major, unsigned *minor, unsigned *micro);

// The librsvg this process uses, as "major.minor.micro" (a static string), worked out once:
// read from the file `rk_rsvg_load` will load when one is found on the library path, else
// from the library itself, loaded then; "unavailable" when there is none.
const char *rk_rsvg_version(void);

// The real path of the librsvg-2.so.2 found in LD_LIBRARY_PATH's folders or the usual library
// folders, which `rk_rsvg_load` loads; NULL when none was found (it then loads the library by
// name, wherever the dynamic loader finds it).
const char *rk_rsvg_library_path(void);

// Loads librsvg once, from the file whose version `rk_rsvg_version` gave. Returns NULL, or a
// static message saying why librsvg cannot be used (the loader's error).
const char *rk_rsvg_load(void);

// The version the loaded library reports, as "major.minor.micro"; NULL before a successful
// `rk_rsvg_load`. Equal to `rk_rsvg_version()` unless the file changed in between.
const char *rk_rsvg_loaded_version(void);

// rsvg_handle_new_from_stream_sync over `count` bytes, with no flags; `base_file` (may be NULL)
// is the file the document's relative references resolve against. On failure returns NULL
// and sets `*message` to a malloc'd description (or NULL), which the caller frees.
rk_rsvg_handle *rk_rsvg_parse(const void *bytes, size_t count, const char *base_file, char **message);

// g_object_unref on the handle.
void rk_rsvg_free(rk_rsvg_handle *handle);

// rsvg_handle_set_dpi.
void rk_rsvg_set_dpi(rk_rsvg_handle *handle, double dpi);

// rsvg_handle_get_intrinsic_size_in_pixels: 1 when the size is known, 0 otherwise.
int rk_rsvg_intrinsic_size_in_pixels(rk_rsvg_handle *handle, double *width, double *height);

// rsvg_handle_get_intrinsic_dimensions.
void rk_rsvg_intrinsic_dimensions(rk_rsvg_handle *handle, int *has_width, rk_rsvg_length *width,
                                  int *has_height, rk_rsvg_length *height, int *has_viewbox,
                                  rk_rsvg_rectangle *viewbox);

// rsvg_handle_get_geometry_for_layer for the whole document: 1, or 0 with `*message` as above.
int rk_rsvg_geometry(rk_rsvg_handle *handle, const rk_rsvg_rectangle *viewport, rk_rsvg_rectangle *ink,
                     rk_rsvg_rectangle *logical, char **message);

// rsvg_handle_render_document into a cairo_t: 1, or 0 with `*message` as above.
int rk_rsvg_render(rk_rsvg_handle *handle, void *cairo, const rk_rsvg_rectangle *viewport, char **message);

#endif
