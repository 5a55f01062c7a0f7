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
        return [
            "cairo": String(cString: cairo_version_string()),
            "pixman": String(cString: pixman_version_string()),
            "Pango": text.pango,
            "HarfBuzz": text.harfBuzz,
            "FreeType": freetype.major < 0 ? "unknown" : "\(freetype.major).\(freetype.minor).\(freetype.patch)",
            "fontconfig": dotted(Int(FcGetVersion()), 100),
            "librsvg": LibrsvgLibrary.version,
            "libpng": dotted(Int(png_access_version_number()), 100),
        ]
    }

    /// 21401 → "2.14.1" (fontconfig, libpng: major × 10000 + minor × 100 + micro).
    private static func dotted(_ number: Int, _ base: Int) -> String {
        "\(number / (base * base)).\(number / base % base).\(number % base)"
    }
}
