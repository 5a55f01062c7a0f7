internal import CPangoLoader

/// librsvg draws SVG `<text>` with the calling thread's default Pango font map. Making that
/// RasterKit's isolated font map gives SVG text the same fonts, on every machine, as text
/// drawn on a ``Canvas``.
enum SVGTextFonts {
    /// Installs this thread's RasterKit font map as Pango's default, once per font map. When
    /// the fonts cannot be set up, librsvg keeps the machine's fonts rather than failing
    /// documents that may not even have text.
    static func useRasterKitFonts(cache: SVGHandleCache) {
        guard let map = try? ThreadFontMap.current(), cache.installedFontMap !== map else { return }
        rk_pango_cairo_font_map_set_default(map.fontMap)
        cache.installedFontMap = map
    }
}
