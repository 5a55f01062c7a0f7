#include "CPangoLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libpangocairo needs libpango, libpangoft2, GObject, GLib and HarfBuzz, so looking a name up in
// its handle (which searches what it depends on too) finds every call below.
static const char pangocairo_soname[] = "libpangocairo-1.0.so.0";
static const char install_hint[] = "text needs Pango 1.44 or later (Debian's libpangocairo-1.0-0)";

// Every call RasterKit makes: R(return type, name, parameters, arguments) for calls that return
// a value, V(name, parameters, arguments) for calls that do not.
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
    V(pango_layout_set_justify, (rk_pango_layout *layout, int justify), (layout, justify))                      \
    V(pango_layout_set_spacing, (rk_pango_layout *layout, int spacing), (layout, spacing))                      \
    V(pango_layout_set_line_spacing, (rk_pango_layout *layout, float factor), (layout, factor))                 \
    V(pango_layout_get_extents, (rk_pango_layout *layout, rk_pango_rectangle *ink, rk_pango_rectangle *logical), \
      (layout, ink, logical))                                                                                   \
    R(int, pango_layout_get_line_count, (rk_pango_layout *layout), (layout))                                    \
    R(int, pango_layout_is_ellipsized, (rk_pango_layout *layout), (layout))                                     \
    R(int, pango_layout_get_baseline, (rk_pango_layout *layout), (layout))                                      \
    V(pango_cairo_show_layout, (struct _cairo *cairo, rk_pango_layout *layout), (cairo, layout))

// The loaded functions, one pointer per call.
#define RK_FIELD(type, name, parameters, arguments) type(*name) parameters;
#define RK_VOID_FIELD(name, parameters, arguments) void(*name) parameters;
static struct {
    RK_PANGO_CALLS(RK_FIELD, RK_VOID_FIELD)
} pango;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load_library(void) {
    void *library = dlopen(pangocairo_soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "Pango cannot be loaded: %s; %s", reason ? reason : pangocairo_soname,
                 install_hint);
        return;
    }
    const char *missing = NULL;
#define RK_LOAD(type, name, parameters, arguments)                        \
    if (!(*(void **)&pango.name = dlsym(library, #name)) && !missing) missing = #name;
#define RK_VOID_LOAD(name, parameters, arguments) RK_LOAD(void, name, parameters, arguments)
    RK_PANGO_CALLS(RK_LOAD, RK_VOID_LOAD)
    if (missing) {
        snprintf(load_error, sizeof load_error, "Pango (%s) has no %s; %s", pangocairo_soname, missing,
                 install_hint);
        return;
    }
    loaded = 1;
}

const char *rk_pango_load(void) {
    pthread_once(&load_once, load_library);
    return loaded ? NULL : load_error;
}

// The calls: each forwards to the loaded function; the header's declarations check the types.
#define RK_CALL(type, name, parameters, arguments) \
    type rk_##name parameters { return pango.name arguments; }
#define RK_VOID_CALL(name, parameters, arguments) \
    void rk_##name parameters { pango.name arguments; }
RK_PANGO_CALLS(RK_CALL, RK_VOID_CALL)
