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
// needed to build them. cairo and fontconfig objects appear only as pointers to incomplete types.
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

// pango_version_string and hb_version_string of the loaded libraries.
const char *rk_pango_version_string(void);
const char *rk_hb_version_string(void);

// g_object_unref, for font maps, contexts and layouts.
void rk_g_object_unref(void *object);

// Font maps and contexts.
rk_pango_font_map *rk_pango_cairo_font_map_new_for_font_type(int cairo_font_type);
void rk_pango_fc_font_map_set_config(rk_pango_font_map *map, struct _FcConfig *config);
void rk_pango_cairo_font_map_set_default(rk_pango_font_map *map);
rk_pango_context *rk_pango_font_map_create_context(rk_pango_font_map *map);
void rk_pango_cairo_context_set_font_options(rk_pango_context *context, const struct _cairo_font_options *options);
void rk_pango_context_set_round_glyph_positions(rk_pango_context *context, int round);
void rk_pango_cairo_context_set_resolution(rk_pango_context *context, double dpi);
void rk_pango_context_set_font_description(rk_pango_context *context, const rk_pango_font_description *description);
void rk_pango_cairo_update_context(struct _cairo *cairo, rk_pango_context *context);

// Font descriptions and attributes.
rk_pango_font_description *rk_pango_font_description_from_string(const char *text);
void rk_pango_font_description_free(rk_pango_font_description *description);
rk_pango_attr_list *rk_pango_attr_list_new(void);
void rk_pango_attr_list_insert(rk_pango_attr_list *list, rk_pango_attribute *attribute);
void rk_pango_attr_list_unref(rk_pango_attr_list *list);
rk_pango_attribute *rk_pango_attr_insert_hyphens_new(int insert_hyphens);
rk_pango_attribute *rk_pango_attr_font_desc_new(const rk_pango_font_description *description);
rk_pango_attribute *rk_pango_attr_weight_new(int weight);
rk_pango_attribute *rk_pango_attr_foreground_new(unsigned short red, unsigned short green, unsigned short blue);
rk_pango_attribute *rk_pango_attr_foreground_alpha_new(unsigned short alpha);
rk_pango_attribute *rk_pango_attr_underline_new(int underline);
rk_pango_attribute *rk_pango_attr_strikethrough_new(int strikethrough);

// Text direction: the direction of the first strong character of a text, and a context's base
// direction (which layouts made after it take when they do not find their own).
rk_pango_direction rk_pango_find_base_dir(const char *text, int length);
void rk_pango_context_set_base_dir(rk_pango_context *context, rk_pango_direction direction);

// Layouts.
rk_pango_layout *rk_pango_layout_new(rk_pango_context *context);
void rk_pango_layout_set_text(rk_pango_layout *layout, const char *text, int length);
void rk_pango_layout_set_font_description(rk_pango_layout *layout, const rk_pango_font_description *description);
void rk_pango_layout_set_attributes(rk_pango_layout *layout, rk_pango_attr_list *attributes);
void rk_pango_layout_set_width(rk_pango_layout *layout, int width);
void rk_pango_layout_set_height(rk_pango_layout *layout, int height);
void rk_pango_layout_set_wrap(rk_pango_layout *layout, rk_pango_wrap_mode wrap);
void rk_pango_layout_set_ellipsize(rk_pango_layout *layout, rk_pango_ellipsize_mode ellipsize);
void rk_pango_layout_set_alignment(rk_pango_layout *layout, rk_pango_alignment alignment);
void rk_pango_layout_set_auto_dir(rk_pango_layout *layout, int auto_dir);
void rk_pango_layout_set_justify(rk_pango_layout *layout, int justify);
void rk_pango_layout_set_spacing(rk_pango_layout *layout, int spacing);
void rk_pango_layout_set_line_spacing(rk_pango_layout *layout, float factor);
void rk_pango_layout_get_extents(rk_pango_layout *layout, rk_pango_rectangle *ink, rk_pango_rectangle *logical);
int rk_pango_layout_get_line_count(rk_pango_layout *layout);
int rk_pango_layout_is_ellipsized(rk_pango_layout *layout);
int rk_pango_layout_get_baseline(rk_pango_layout *layout);
void rk_pango_cairo_show_layout(struct _cairo *cairo, rk_pango_layout *layout);

#endif
