#ifndef RASTERKIT_CPANGOLOADER_H
#define RASTERKIT_CPANGOLOADER_H

// Pango reached through dlopen rather than linked (see PangoLibrary.swift for why).
//
// Pango and the libraries only it needs (GLib, GObject, GIO, HarfBuzz, FriBidi, libthai,
// libmount, libselinux, ...) took about 2.5 ms of every process start to load, relocate and run
// the constructors of, which was a tenth of a warm `rasterkit svg` run that copies every output
// from the render store and lays out no text. The library is loaded the first time text is laid
// out, a font map is made or its version is asked for.
//
// These declarations are RasterKit's own, matching the stable ABI of Pango 1 (1.44 or later),
// GObject 2 and HarfBuzz for the calls RasterKit makes; no Pango, GLib or HarfBuzz header is
// needed to build them. The calls' prototypes are generated from those headers
// (Scripts/generate-loader-calls.py); the types and values below are written by hand. cairo and fontconfig objects appear only as pointers to incomplete types.
// Every call other than rk_pango_load must follow a successful rk_pango_load.

// PangoFontMap (a PangoCairoFontMap that is a PangoFcFontMap), PangoContext, PangoLayout,
// PangoFontDescription, PangoAttrList and PangoAttribute.
typedef struct rk_pango_font_map rk_pango_font_map;
typedef struct rk_pango_context rk_pango_context;
typedef struct rk_pango_layout rk_pango_layout;
typedef struct rk_pango_font_description rk_pango_font_description;
typedef struct rk_pango_attr_list rk_pango_attr_list;
// PangoAttribute's public head: every attribute starts with its class and the byte range of the
// text it applies to, which callers set after making it.
typedef struct rk_pango_attribute {
    const void *klass;
    unsigned int start_index;
    unsigned int end_index;
} rk_pango_attribute;

// cairo_t, cairo_font_options_t and FcConfig are the structs the cairo and fontconfig headers
// name `_cairo`, `_cairo_font_options` and `_FcConfig`; no typedef is repeated here.
struct _cairo;
struct _cairo_font_options;
struct _FcConfig;

// PangoRectangle, in Pango units.
typedef struct {
    int x, y, width, height;
} rk_pango_rectangle;

// PANGO_SCALE: Pango units per point.
enum { RK_PANGO_SCALE = 1024 };

// PangoWrapMode, PangoEllipsizeMode and PangoAlignment values.
typedef enum { RK_PANGO_WRAP_WORD = 0, RK_PANGO_WRAP_CHAR = 1, RK_PANGO_WRAP_WORD_CHAR = 2 } rk_pango_wrap_mode;
typedef enum { RK_PANGO_ELLIPSIZE_NONE = 0, RK_PANGO_ELLIPSIZE_END = 3 } rk_pango_ellipsize_mode;
typedef enum { RK_PANGO_ALIGN_LEFT = 0, RK_PANGO_ALIGN_CENTER = 1, RK_PANGO_ALIGN_RIGHT = 2 } rk_pango_alignment;
// PangoDirection values RasterKit reads or sets, and PANGO_UNDERLINE_SINGLE.
typedef enum { RK_PANGO_DIRECTION_LTR = 0, RK_PANGO_DIRECTION_RTL = 1, RK_PANGO_DIRECTION_NEUTRAL = 6 } rk_pango_direction;
enum { RK_PANGO_UNDERLINE_SINGLE = 1 };

// Loads Pango (libpangocairo-1.0.so.0 and what it needs) once. Returns NULL, or a static message
// saying why Pango cannot be used (the loader's error, or the first call it lacks).
const char *rk_pango_load(void);

// The calls, each the Pango, GObject or HarfBuzz function of the same name without `rk_`
// (pango_calls.h lists them with the prototypes the libraries' headers declare, in the types
// above): rk_pango_version_string, rk_g_object_unref (for font maps, contexts and layouts),
// rk_pango_layout_new, rk_pango_cairo_show_layout and the rest.
#include "pango_calls.h"
#define RK_PANGO_DECLARATION(result, name, parameters, arguments) result rk_##name parameters;
#define RK_PANGO_VOID_DECLARATION(name, parameters, arguments) void rk_##name parameters;
RK_PANGO_CALLS(RK_PANGO_DECLARATION, RK_PANGO_VOID_DECLARATION)

#endif
