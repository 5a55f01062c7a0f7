import Foundation
internal import CCairo

/// A document format cairo writes as vectors: paths stay paths and text stays text (with its
/// fonts embedded as subsets), at the component's size in points.
public enum VectorFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One PDF page the size of the component.
    case pdf
    /// An SVG document the size of the component.
    case svg

    public var description: String { rawValue }
}

extension Rasterizer {
    /// The pixels per point of what a vector document holds as pixels: shadows, inner shadows,
    /// images and the renders of post-processed components (`Processed`, `Fallback`). 3, as sharp
    /// as an @3x asset.
    public static let vectorRasterScale = 3.0

    /// The largest vector document made, in bytes; a component that would write more fails
    /// instead of growing memory without end.
    public static let maximumVectorDocumentBytes = 256 << 20

    /// `component` drawn at `size` points as a vector document: one PDF page (or one SVG) of
    /// that size, with its paths and text as vectors. Nine-slice components are drawn at `size`
    /// itself — a vector needs no stretching — and nested components are drawn into the document
    /// too, as vectors; what only exists as pixels (shadows, images, post-processed renders) is
    /// embedded at ``vectorRasterScale``. The bytes are deterministic: no creation date, and
    /// SVG ids numbered in the document's own order.
    ///
    /// ```swift
    /// let pdf = try Rasterizer().vectorDocument(of: Badge(count: 3), size: Size(width: 22, height: 22), format: .pdf)
    /// ```
    public func vectorDocument<Component: Rasterizable>(of component: Component, size: Size,
                                                        format: VectorFormat) throws -> Data {
        try PixelGeometry.validate(size: size)
        let scale = Self.vectorRasterScale
        // Pixels it may embed are bounded as a render at that scale would be, and the document
        // holds memory as such a render would (cairo keeps a page's drawing until it is written).
        let pixels = try PixelGeometry.pixelSize(for: size, scale: scale, limits: limits.pixels)
        if let caps = component.capInsets { try NineSlice.validate(caps, forTarget: size) }
        try CairoLibrary.load()
        let reservation = try memory.reserve(pixels.width * pixels.height * 4, waits: true)
        defer { withExtendedLifetime(reservation) {} }
        let stream = VectorStream(limit: Self.maximumVectorDocumentBytes)
        let surface = stream.makeSurface(format, size: size)
        defer { cairo_surface_destroy(surface) }
        try CairoStatus.check(cairo_surface_status(surface), "creating a \(format) document")
        // The canvas sees pixels at `scale` per point, as on an image surface; the device scale
        // maps them back to points on the page.
        cairo_surface_set_device_scale(surface, 1 / scale, 1 / scale)
        let context = cairo_create(surface)!
        defer { cairo_destroy(context) }
        cairo_scale(context, scale, scale)
        let environment = DrawEnvironment(nestedRenderer: self, limits: limits, memory: memory, isVector: true)
        let canvas = Canvas(context: context, size: size, scale: scale, environment: environment)
        if component is any ComposedRendering {
            let image = try render(RenderRequest(component, size: size, scale: scale)).image
            try canvas.run { $0.draw(image, in: Rect(size: size)) }
        } else {
            try canvas.run { try component.draw(in: $0, size: size) }
        }
        cairo_show_page(context)
        cairo_surface_finish(surface)
        guard !stream.exceeded else {
            throw RenderError.limitExceeded(what: "\(format) document", value: "more than \(stream.limit) bytes",
                                            limit: "\(stream.limit) bytes")
        }
        try CairoStatus.check(cairo_surface_status(surface), "writing a \(format) document")
        return format == .svg ? SVGIdentifiers.renumbered(stream.data) : stream.data
    }
}

/// Collects what a cairo vector surface writes, up to a limit.
private final class VectorStream {
    let limit: Int
    private(set) var data = Data()
    private(set) var exceeded = false

    init(limit: Int) { self.limit = limit }

    func append(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard data.count + count <= limit else {
            exceeded = true
            return false
        }
        data.append(bytes, count: count)
        return true
    }

    /// A surface of `format` writing into this stream; it must not outlive the stream.
    func makeSurface(_ format: VectorFormat, size: Size) -> OpaquePointer {
        let closure = Unmanaged.passUnretained(self).toOpaque()
        let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            let stream = Unmanaged<VectorStream>.fromOpaque(closure).takeUnretainedValue()
            return stream.append(bytes, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }
        switch format {
        case .pdf:
            let surface = cairo_pdf_surface_create_for_stream(write, closure, size.width, size.height)!
            // A fixed date, so the same component writes the same bytes every time.
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "RasterKit")
            return surface
        case .svg:
            let surface = cairo_svg_surface_create_for_stream(write, closure, size.width, size.height)!
            // Sizes in points, as the page is.
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT)
            return surface
        }
    }
}

/// cairo names an SVG's groups and images (`surface<N>`, `image<N>`) after a counter shared by
/// every surface the process made: numbered again in the document's own order, the same
/// component writes the same bytes.
enum SVGIdentifiers {
    static let prefixes = ["surface", "image"]

    /// Only names in `id="…"` and `#…` references are renumbered: neither quote nor `#` occurs in
    /// embedded base64 image data, where the letters could otherwise appear by chance.
    static func renumbered(_ data: Data) -> Data {
        guard let text = String(data: data, encoding: .utf8) else { return data }
        var numbers: [String: [Substring: Int]] = [:]
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let (range, prefix) = nextName(in: rest) {
            output += rest[..<range.upperBound]
            let digits = rest[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                let number = numbers[prefix, default: [:]][digits] ?? (numbers[prefix, default: [:]].count + 1)
                numbers[prefix, default: [:]][digits] = number
                output += String(number)
            }
            rest = rest[digits.endIndex...]
        }
        output += rest
        return Data(output.utf8)
    }

    /// The first `id="<prefix>` or `#<prefix>` in `text`, and its prefix.
    private static func nextName(in text: Substring) -> (Range<Substring.Index>, String)? {
        var first: (Range<Substring.Index>, String)?
        for prefix in prefixes {
            for marker in ["id=\"" + prefix, "#" + prefix] {
                guard let range = text.range(of: marker) else { continue }
                if first.map({ range.lowerBound < $0.0.lowerBound }) ?? true { first = (range, prefix) }
            }
        }
        return first
    }
}
