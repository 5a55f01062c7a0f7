internal import CCairo
internal import CPNG

/// The run-time versions of the C libraries that draw and encode pixels, as loaded in this
/// process (not the headers RasterKit was compiled against).
enum LibraryVersions {
    /// Library name → version, for ``RenderEnvironment``.
    static func all() -> [String: String] {
        var freetype = (major: Int32(0), minor: Int32(0), patch: Int32(0))
        rk_freetype_version(&freetype.major, &freetype.minor, &freetype.patch)
        let text = PangoLibrary.versions
        // cairo brings fontconfig, FreeType and pixman; without it each is "unavailable".
        let hasCairo = rk_cairo_load() == nil
        return [
            "cairo": hasCairo ? String(cString: cairo_version_string()) : "unavailable",
            "pixman": String(cString: rk_pixman_version_string()),
            "Pango": text.pango,
            "HarfBuzz": text.harfBuzz,
            "FreeType": freetype.major < 0 ? "unknown" : "\(freetype.major).\(freetype.minor).\(freetype.patch)",
            "fontconfig": hasCairo ? dotted(Int(FcGetVersion()), 100) : "unavailable",
            "librsvg": LibrsvgLibrary.version,
            "libpng": dotted(Int(png_access_version_number()), 100),
        ]
    }

    /// 21401 → "2.14.1" (fontconfig, libpng: major × 10000 + minor × 100 + micro).
    private static func dotted(_ number: Int, _ base: Int) -> String {
        "\(number / (base * base)).\(number / base % base).\(number % base)"
    }
}
