internal import CRsvg
import Foundation

/// One document parsed by librsvg. An `RsvgHandle` is not thread-safe, so a handle belongs to
/// the thread that made it (see ``SVGHandleCache``); only the SVG bytes cross threads.
package final class LibrsvgHandle {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The document's natural size in SVG pixels, found the way `rsvg-convert` finds it, so
    /// `rsvg-convert -w N -h N` and a stretched ``SVGImage`` scale by the same factors.
    let naturalSize: Size

    /// librsvg resolves lengths in physical units (`in`, `cm`, `pt`) at this resolution; 96 is
    /// CSS's pixel and what `rsvg-convert` uses.
    static let dpi = 96.0

    /// The librsvg the process runs with, as "major.minor.micro": another version may draw the
    /// same document differently, so it is part of every SVG render's cache key.
    package static let version = "\(rsvg_major_version).\(rsvg_minor_version).\(rsvg_micro_version)"

    /// Parses `data`. With no `baseDirectory` librsvg has no base URL and refuses every
    /// reference to another file (only `data:` URLs load); with one, it loads files inside it.
    init(data: Data, baseDirectory: URL?) throws(SVGError) {
        var error: UnsafeMutablePointer<GError>?
        let parsed: UnsafeMutablePointer<RsvgHandle>? = data.withUnsafeBytes { bytes in
            // The stream reads the bytes in place; parsing finishes before they go out of scope.
            let stream = g_memory_input_stream_new_from_data(bytes.baseAddress, gssize(bytes.count), nil)
            defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
            // librsvg allows files beside or below its base *file*, so name one inside the directory.
            let base: OpaquePointer? = baseDirectory.flatMap {
                g_file_new_for_path($0.appendingPathComponent("document.svg").path)
            }
            defer { if let base { g_object_unref(UnsafeMutableRawPointer(base)) } }
            return rsvg_handle_new_from_stream_sync(stream, base, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        }
        guard let parsed else {
            throw .malformed(message: LibrsvgHandle.consume(error) ?? "librsvg could not load the document",
                             source: nil)
        }
        LibrsvgHandle.consume(error)  // a loaded handle carries no error; free one if librsvg left it
        handle = parsed
        rsvg_handle_set_dpi(parsed, LibrsvgHandle.dpi)
        do {
            naturalSize = try LibrsvgHandle.measure(parsed)
        } catch {
            g_object_unref(parsed)
            throw error
        }
    }

    deinit { g_object_unref(handle) }

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
        var rectangle = RsvgRectangle(x: viewport.minX, y: viewport.minY, width: viewport.width,
                                      height: viewport.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, context, &rectangle, &error) != 0 else {
            throw .renderFailed(message: LibrsvgHandle.consume(error) ?? "rendering failed", source: nil)
        }
    }

    /// rsvg-convert's natural size: width and height in absolute units; else the viewBox when
    /// width and height are missing or both 100%; else the extents of everything drawn.
    private static func measure(_ handle: UnsafeMutablePointer<RsvgHandle>) throws(SVGError) -> Size {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            return try usable(Size(width: width, height: height))
        }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lengthX = RsvgLength(), lengthY = RsvgLength(), viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &lengthX, &hasHeight, &lengthY, &hasViewBox, &viewBox)
        if hasViewBox != 0 {
            let neither = hasWidth == 0 && hasHeight == 0
            let bothFull = hasWidth != 0 && hasHeight != 0 && lengthX.unit == RSVG_UNIT_PERCENT
                && lengthY.unit == RSVG_UNIT_PERCENT && abs(lengthX.length - 1) < 1e-9 && abs(lengthY.length - 1) < 1e-9
            if neither || bothFull { return try usable(Size(width: viewBox.width, height: viewBox.height)) }
        }
        var viewport = RsvgRectangle(x: 0, y: 0, width: 1, height: 1)
        var ink = RsvgRectangle(), logical = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_get_geometry_for_layer(handle, nil, &viewport, &ink, &logical, &error) != 0 else {
            throw .malformed(message: consume(error) ?? "cannot measure the document", source: nil)
        }
        return try usable(Size(width: ink.width, height: ink.height))
    }

    private static func usable(_ size: Size) throws(SVGError) -> Size {
        guard size.isDrawable else { throw .noIntrinsicSize(width: size.width, height: size.height, source: nil) }
        return size
    }

    /// librsvg's message, with the `GError` freed.
    @discardableResult
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
