internal import CRsvgLoader
import Foundation

/// One document parsed by librsvg. An `RsvgHandle` is not thread-safe, so a handle belongs to
/// the thread that made it (see ``SVGHandleCache``); only the SVG bytes cross threads.
package final class LibrsvgHandle {
    private let handle: OpaquePointer
    /// The document's natural size in SVG pixels, found the way `rsvg-convert` finds it, so
    /// `rsvg-convert -w N -h N` and a stretched ``SVGImage`` scale by the same factors.
    let naturalSize: Size

    /// librsvg resolves lengths in physical units (`in`, `cm`, `pt`) at this resolution; 96 is
    /// CSS's pixel and what `rsvg-convert` uses.
    static let dpi = 96.0

    /// The librsvg the process runs with, as "major.minor.micro": another version may draw the
    /// same document differently, so it is part of every SVG render's cache key. Read from the
    /// library file, so a run that draws no SVG never loads librsvg (see ``LibrsvgLibrary``).
    package static var version: String { LibrsvgLibrary.version }

    /// Parses `data`. With no `baseDirectory` librsvg has no base URL and refuses every
    /// reference to another file (only `data:` URLs load); with one, it loads files inside it.
    init(data: Data, baseDirectory: URL?) throws(SVGError) {
        try LibrsvgLibrary.load()
        var message: UnsafeMutablePointer<CChar>?
        // librsvg allows files beside or below its base *file*, so name one inside the directory.
        let base = baseDirectory?.appendingPathComponent("document.svg").path
        // The stream reads the bytes in place; parsing finishes before they go out of scope.
        let parsed = data.withUnsafeBytes { bytes in
            rk_rsvg_parse(bytes.baseAddress, bytes.count, base, &message)
        }
        guard let parsed else {
            throw .malformed(message: LibrsvgHandle.take(message) ?? "librsvg could not load the document", source: nil)
        }
        handle = parsed
        rk_rsvg_set_dpi(parsed, LibrsvgHandle.dpi)
        do {
            naturalSize = try LibrsvgHandle.measure(parsed)
        } catch {
            rk_rsvg_free(parsed)
            throw error
        }
    }

    deinit { rk_rsvg_free(handle) }

    /// One parse before any other, run once: librsvg and the libraries under it (GObject's
    /// type registrations, libxml2) set themselves up on first use, and that first use is
    /// best not raced by several threads.
    static let firstParse: Void = {
        let minimal = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>"#.utf8)
        _ = try? LibrsvgHandle(data: minimal, baseDirectory: nil)
    }()

    /// Draws the whole document into `context` (a `cairo_t`), fitting its viewBox into
    /// `viewport` (in the context's user space) as the SVG's `preserveAspectRatio` says.
    func render(into context: OpaquePointer, viewport: Rect) throws(SVGError) {
        var rectangle = rk_rsvg_rectangle(x: viewport.minX, y: viewport.minY, width: viewport.width,
                                          height: viewport.height)
        var message: UnsafeMutablePointer<CChar>?
        guard rk_rsvg_render(handle, UnsafeMutableRawPointer(context), &rectangle, &message) != 0 else {
            throw .renderFailed(message: LibrsvgHandle.take(message) ?? "rendering failed", source: nil)
        }
    }

    /// rsvg-convert's natural size: width and height in absolute units; else the viewBox when
    /// width and height are missing or both 100%; else the extents of everything drawn.
    private static func measure(_ handle: OpaquePointer) throws(SVGError) -> Size {
        var width = 0.0, height = 0.0
        if rk_rsvg_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            return try usable(Size(width: width, height: height))
        }
        var hasWidth: Int32 = 0, hasHeight: Int32 = 0, hasViewBox: Int32 = 0
        var lengthX = rk_rsvg_length(), lengthY = rk_rsvg_length(), viewBox = rk_rsvg_rectangle()
        rk_rsvg_intrinsic_dimensions(handle, &hasWidth, &lengthX, &hasHeight, &lengthY, &hasViewBox, &viewBox)
        if hasViewBox != 0 {
            let percent = Int32(RK_RSVG_UNIT_PERCENT)
            let neither = hasWidth == 0 && hasHeight == 0
            let bothFull = hasWidth != 0 && hasHeight != 0 && lengthX.unit == percent
                && lengthY.unit == percent && abs(lengthX.length - 1) < 1e-9 && abs(lengthY.length - 1) < 1e-9
            if neither || bothFull { return try usable(Size(width: viewBox.width, height: viewBox.height)) }
        }
        var viewport = rk_rsvg_rectangle(x: 0, y: 0, width: 1, height: 1)
        var ink = rk_rsvg_rectangle(), logical = rk_rsvg_rectangle()
        var message: UnsafeMutablePointer<CChar>?
        guard rk_rsvg_geometry(handle, &viewport, &ink, &logical, &message) != 0 else {
            throw .malformed(message: take(message) ?? "cannot measure the document", source: nil)
        }
        return try usable(Size(width: ink.width, height: ink.height))
    }

    private static func usable(_ size: Size) throws(SVGError) -> Size {
        guard size.isDrawable else { throw .noIntrinsicSize(width: size.width, height: size.height, source: nil) }
        return size
    }

    /// librsvg's message (from `CRsvgLoader`), with its copy freed.
    private static func take(_ message: UnsafeMutablePointer<CChar>?) -> String? {
        guard let message else { return nil }
        defer { free(message) }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
