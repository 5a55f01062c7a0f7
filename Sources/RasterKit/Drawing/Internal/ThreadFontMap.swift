internal import CCairo
internal import CPangoLoader
import Foundation

/// A Pango font map for the current thread. Pango font maps are not thread-safe,
/// so each thread that draws text gets its own, all reading one shared fontconfig configuration.
final class ThreadFontMap {
    let fontMap: OpaquePointer
    let generation: Int
    let configuration: FontConfiguration
    /// The rendering options every context gets (see ``makeContext()``), made once.
    private let fontOptions: OpaquePointer
    /// Font descriptions parsed on this thread, by the string they were parsed from: a layout
    /// is made for each text a draw shows, and parsing its font was a twentieth of making it.
    /// Pango copies a description it is given, so one parsed description serves every layout.
    private var descriptions: [String: OpaquePointer] = [:]
    /// The most descriptions kept; past it they are all freed and parsed again as needed.
    private static let maximumDescriptions = 128

    private init(configuration: FontConfiguration, generation: Int) {
        self.configuration = configuration
        self.generation = generation
        fontMap = rk_pango_cairo_font_map_new_for_font_type(Int32(CAIRO_FONT_TYPE_FT.rawValue))
        rk_pango_fc_font_map_set_config(fontMap, configuration.config)
        // Fixed rendering: grey antialiasing, no hinting, unrounded glyph positions; text
        // then scales exactly with the canvas and looks the same on every machine.
        fontOptions = cairo_font_options_create()
        cairo_font_options_set_antialias(fontOptions, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(fontOptions, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(fontOptions, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(fontOptions, CAIRO_SUBPIXEL_ORDER_DEFAULT)
    }

    deinit {
        forgetDescriptions()
        cairo_font_options_destroy(fontOptions)
        rk_g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// The description `font` states (`DejaVu Sans Bold 15`), parsed once on this thread; owned
    /// by the font map, valid until the next call.
    func description(of font: String) -> OpaquePointer {
        if let known = descriptions[font] { return known }
        if descriptions.count >= Self.maximumDescriptions { forgetDescriptions() }
        let parsed: OpaquePointer = rk_pango_font_description_from_string(font)
        descriptions[font] = parsed
        return parsed
    }

    private func forgetDescriptions() {
        for description in descriptions.values { rk_pango_font_description_free(description) }
        descriptions.removeAll()
    }

    /// A new Pango context on this font map, owned by the caller (released with
    /// `rk_g_object_unref`). Each layout gets its own: a context's direction and transform
    /// are read again whenever a layout made on it is measured or shown, so a context shared
    /// by layouts kept for later would re-lay them out under another layout's settings.
    /// Contexts with equal settings share the font map's caches.
    func makeContext() -> OpaquePointer {
        let context: OpaquePointer = rk_pango_font_map_create_context(fontMap)
        rk_pango_cairo_context_set_font_options(context, fontOptions)
        rk_pango_context_set_round_glyph_positions(context, 0)
        // 72 dpi: a 15-point font is 15 canvas units tall, as in UIKit and AppKit.
        rk_pango_cairo_context_set_resolution(context, 72)
        rk_pango_context_set_font_description(context, description(of: "DejaVu Sans 13"))
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
