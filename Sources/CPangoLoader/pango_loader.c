#include "CPangoLoader.h"

#include <CDynamicLibrary.h>

// Every call RasterKit makes: R(return type, name, parameters, arguments) for calls that return
// a value, V(name, parameters, arguments) for calls that do not. Declared by CPangoLoader.h
// (RasterKit's own declarations of Pango's stable ABI) under an `rk_` prefix: no Pango header is
// a build dependency, and the prefix keeps these forwarders from interposing on the libraries'
// own calls of one another (GLib's g_object_unref above all).
#define RK_PANGO_CALLS(R, V)                                                                                    \
    R(const char *, pango_version_string, (void), ())                                                           \
    R(const char *, hb_version_string, (void), ())                                                              \
    V(g_object_unref, (void *object), (object))                                                                 \
    R(rk_pango_font_map *, pango_cairo_font_map_new_for_font_type, (int cairo_font_type), (cairo_font_type))    \
    V(pango_fc_font_map_set_config, (rk_pango_font_map *map, struct _FcConfig *config), (map, config))          \
    V(pango_cairo_font_map_set_default, (rk_pango_font_map *map), (map))                                        \
    R(rk_pango_context *, pango_font_map_create_context, (rk_pango_font_map *map), (map))                       \
    V(pango_cairo_context_set_font_options,                                                                     \
      (rk_pango_context *context, const struct _cairo_font_options *options), (context, options))               \
    V(pango_context_set_round_glyph_positions, (rk_pango_context *context, int round), (context, round))        \
    V(pango_cairo_context_set_resolution, (rk_pango_context *context, double dpi), (context, dpi))              \
    V(pango_context_set_font_description,                                                                       \
      (rk_pango_context *context, const rk_pango_font_description *description), (context, description))        \
    V(pango_cairo_update_context, (struct _cairo *cairo, rk_pango_context *context), (cairo, context))          \
    R(rk_pango_font_description *, pango_font_description_from_string, (const char *text), (text))              \
    V(pango_font_description_free, (rk_pango_font_description *description), (description))                     \
    R(rk_pango_attr_list *, pango_attr_list_new, (void), ())                                                    \
    V(pango_attr_list_insert, (rk_pango_attr_list *list, rk_pango_attribute *attribute), (list, attribute))     \
    V(pango_attr_list_unref, (rk_pango_attr_list *list), (list))                                                \
    R(rk_pango_attribute *, pango_attr_insert_hyphens_new, (int insert_hyphens), (insert_hyphens))              \
    R(rk_pango_attribute *, pango_attr_font_desc_new, (const rk_pango_font_description *description),           \
      (description))                                                                                            \
    R(rk_pango_attribute *, pango_attr_weight_new, (int weight), (weight))                                      \
    R(rk_pango_attribute *, pango_attr_foreground_new, (unsigned short red, unsigned short green,               \
      unsigned short blue), (red, green, blue))                                                                 \
    R(rk_pango_attribute *, pango_attr_foreground_alpha_new, (unsigned short alpha), (alpha))                   \
    R(rk_pango_attribute *, pango_attr_underline_new, (int underline), (underline))                             \
    R(rk_pango_attribute *, pango_attr_strikethrough_new, (int strikethrough), (strikethrough))                 \
    R(rk_pango_direction, pango_find_base_dir, (const char *text, int length), (text, length))                  \
    V(pango_context_set_base_dir, (rk_pango_context *context, rk_pango_direction direction), (context, direction)) \
    R(rk_pango_layout *, pango_layout_new, (rk_pango_context *context), (context))                              \
    V(pango_layout_set_text, (rk_pango_layout *layout, const char *text, int length), (layout, text, length))   \
    V(pango_layout_set_font_description,                                                                        \
      (rk_pango_layout *layout, const rk_pango_font_description *description), (layout, description))           \
    V(pango_layout_set_attributes, (rk_pango_layout *layout, rk_pango_attr_list *attributes),                   \
      (layout, attributes))                                                                                     \
    V(pango_layout_set_width, (rk_pango_layout *layout, int width), (layout, width))                            \
    V(pango_layout_set_height, (rk_pango_layout *layout, int height), (layout, height))                         \
    V(pango_layout_set_wrap, (rk_pango_layout *layout, rk_pango_wrap_mode wrap), (layout, wrap))                \
    V(pango_layout_set_ellipsize, (rk_pango_layout *layout, rk_pango_ellipsize_mode ellipsize),                 \
      (layout, ellipsize))                                                                                      \
    V(pango_layout_set_alignment, (rk_pango_layout *layout, rk_pango_alignment alignment), (layout, alignment)) \
    V(pango_layout_set_auto_dir, (rk_pango_layout *layout, int auto_dir), (layout, auto_dir))                   \
    V(pango_layout_set_justify, (rk_pango_layout *layout, int justify), (layout, justify))                      \
    V(pango_layout_set_spacing, (rk_pango_layout *layout, int spacing), (layout, spacing))                      \
    V(pango_layout_set_line_spacing, (rk_pango_layout *layout, float factor), (layout, factor))                 \
    V(pango_layout_get_extents, (rk_pango_layout *layout, rk_pango_rectangle *ink, rk_pango_rectangle *logical), \
      (layout, ink, logical))                                                                                   \
    R(int, pango_layout_get_line_count, (rk_pango_layout *layout), (layout))                                    \
    R(int, pango_layout_is_ellipsized, (rk_pango_layout *layout), (layout))                                     \
    R(int, pango_layout_get_baseline, (rk_pango_layout *layout), (layout))                                      \
    V(pango_cairo_show_layout, (struct _cairo *cairo, rk_pango_layout *layout), (cairo, layout))

enum { RK_PANGO_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX) };
static const char *const names[] = {RK_PANGO_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)};
static void *symbols[sizeof names / sizeof names[0]];

// libpangocairo needs libpango, libpangoft2, GObject, GLib and HarfBuzz, so its handle finds
// every symbol above.
static rk_library pango = RK_LIBRARY("Pango", "libpangocairo-1.0.so.0",
                                     "text needs Pango 1.44 or later (Debian's libpangocairo-1.0-0)", names, symbols);

const char *rk_pango_load(void) { return rk_library_load(&pango); }

// The calls: each forwards to the bound function; the header's declarations check the types.
#define RK_CALL(result, name, parameters, arguments) \
    result rk_##name parameters { return RK_LIBRARY_FUNCTION(symbols, result, name, parameters) arguments; }
#define RK_VOID_CALL(name, parameters, arguments) \
    void rk_##name parameters { RK_LIBRARY_FUNCTION(symbols, void, name, parameters) arguments; }
RK_PANGO_CALLS(RK_CALL, RK_VOID_CALL)
