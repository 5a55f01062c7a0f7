internal import CRsvgLoader

/// librsvg, loaded with `dlopen` the first time a document is parsed rather than linked.
///
/// librsvg and the libraries only it needs (GIO, gdk-pixbuf, libxml2, ICU) take about 5 ms to
/// load and relocate, which was a sixth of a warm `rasterkit svg` run that copies every output
/// from the render store and parses no SVG at all. Every SVG render's cache key still holds the
/// version of the librsvg that would draw it: ``version`` reads it from the library file,
/// without loading it, and ``load()`` later loads that same file (see `CRsvgLoader`).
package enum LibrsvgLibrary {
    /// The librsvg this process draws SVG with, as "major.minor.micro" ("unavailable" when it is
    /// not installed, so no stored render matches and drawing reports why).
    package static let version = String(cString: rk_rsvg_version())

    /// The librsvg file ``load()`` loads and ``version`` was read from; nil when none was found
    /// in `LD_LIBRARY_PATH` or the usual library folders, and the dynamic loader finds it.
    package static var path: String? { rk_rsvg_library_path().map { String(cString: $0) } }

    /// Loads librsvg, once; throws when it cannot be (missing, too old, or replaced on disk
    /// since ``version`` was read).
    static func load() throws(SVGError) {
        if let message = rk_rsvg_load() {
            throw .renderFailed(message: String(cString: message), source: nil)
        }
    }

    /// The version the loaded library reports; nil until it has loaded.
    package static var loadedVersion: String? { rk_rsvg_loaded_version().map { String(cString: $0) } }

    /// The version of the librsvg in the file at `path`, read without loading it; nil when the
    /// file is not an ELF shared library for this machine that exports librsvg's version.
    package static func version(inFile path: String) -> String? {
        var major: UInt32 = 0, minor: UInt32 = 0, micro: UInt32 = 0
        guard rk_rsvg_version_in_file(path, &major, &minor, &micro) == 0 else { return nil }
        return "\(major).\(minor).\(micro)"
    }
}
