internal import CCairo
internal import CPangoLoader
import Foundation

/// A Pango font map for the current thread. Pango font maps are not thread-safe,
/// so each thread that draws text gets its own, all reading one shared fontconfig configuration.
final class ThreadFontMap {
    let fontMap: OpaquePointer
    let generation: Int
    let configuration: FontConfiguration

    private init(configuration: FontConfiguration, generation: Int) {
        self.configuration = configuration
        self.generation = generation
        fontMap = rk_pango_cairo_font_map_new_for_font_type(Int32(CAIRO_FONT_TYPE_FT.rawValue))
        rk_pango_fc_font_map_set_config(fontMap, configuration.config)
    }

    deinit {
        rk_g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// A new Pango context on this font map, owned by the caller (released with
    /// `rk_g_object_unref`). Each layout gets its own: a context's direction and transform
    /// are read again whenever a layout made on it is measured or shown, so a context shared
    /// by layouts kept for later would re-lay them out under another layout's settings.
    /// Contexts with equal settings share the font map's caches.
    func makeContext() -> OpaquePointer {
        let context: OpaquePointer = rk_pango_font_map_create_context(fontMap)
        // Fixed rendering: grey antialiasing, no hinting, unrounded glyph positions; text
        // then scales exactly with the canvas and looks the same on every machine.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        rk_pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        rk_pango_context_set_round_glyph_positions(context, 0)
        // 72 dpi: a 15-point font is 15 canvas units tall, as in UIKit and AppKit.
        rk_pango_cairo_context_set_resolution(context, 72)
        let fallback = rk_pango_font_description_from_string("DejaVu Sans 13")
        rk_pango_context_set_font_description(context, fallback)
        rk_pango_font_description_free(fallback)
        return context
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ThreadFontMap>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// This thread's font map, rebuilt when fonts were registered since it was made. Loads
    /// Pango the first time; throws ``RenderError/libraryUnavailable(reason:)`` when it cannot be.
    static func current() throws -> ThreadFontMap {
        let generation = FontLibrary.generation
        if let pointer = pthread_getspecific(key) {
            let existing = Unmanaged<ThreadFontMap>.fromOpaque(pointer).takeUnretainedValue()
            if existing.generation == generation { return existing }
            Unmanaged<ThreadFontMap>.fromOpaque(pointer).release()
            pthread_setspecific(key, nil)
        }
        try PangoLibrary.load()
        let made = ThreadFontMap(configuration: try FontLibrary.configuration(), generation: generation)
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
