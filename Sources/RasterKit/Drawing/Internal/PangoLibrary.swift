internal import CPangoLoader

/// Pango, loaded with `dlopen` the first time text is laid out rather than linked.
///
/// Pango and the libraries only it needs (GLib, GObject, GIO, HarfBuzz, FriBidi, libthai, and
/// through GIO libmount, libselinux and libblkid) took about 2.5 ms of every process start to
/// load, relocate and initialize: a tenth of a warm `rasterkit svg` run, which copies every
/// output from the render store and lays out no text. cairo, fontconfig and FreeType stay linked.
/// librsvg, itself loaded on demand, links the same Pango, so SVG text and canvas text share
/// one font map (see ``SVGTextFonts``).
enum PangoLibrary {
    /// Loads Pango, once; throws when it is not installed or lacks a call RasterKit makes.
    static func load() throws(RenderError) {
        if let message = rk_pango_load() {
            throw .libraryUnavailable(reason: String(cString: message))
        }
    }

    /// Pango's and HarfBuzz's versions, loading Pango; "unavailable" when it cannot be loaded.
    static var versions: (pango: String, harfBuzz: String) {
        guard (try? load()) != nil else { return ("unavailable", "unavailable") }
        return (String(cString: rk_pango_version_string()), String(cString: rk_hb_version_string()))
    }
}
