import Foundation

/// What the render of a key must be: its pixel size (from the key's size, scale and the
/// component's cap insets), scale and cap insets, within the rasterizer's pixel limits. A render
/// read back from the disk store or fetched from the remote store is checked against it on its
/// PNG's header — before a pixel is decoded — and decoded under those limits, so a forged or
/// damaged entry (a 16384² PNG under a 24-point key, an image of another size) is never served
/// and never costs the memory of decoding it.
///
/// A composed render (``Processed``, ``Fallback``) may change its size, so only its scale, cap
/// insets and the limits are known before it is drawn.
package struct ExpectedRender: Sendable {
    /// The exact pixel size, or nil when the render decides it (a composed render).
    package let pixelSize: (width: Int, height: Int)?
    package let scale: Double
    /// The cap insets, when known (`.some(nil)`: none), or nil when not (a lookup by key alone).
    package let capInsets: EdgeInsets??
    package let limits: ResourceLimits

    package init(pixelSize: (width: Int, height: Int)?, scale: Double, capInsets: EdgeInsets??, limits: ResourceLimits) {
        self.pixelSize = pixelSize
        self.scale = scale
        self.capInsets = capInsets
        self.limits = limits
    }

    /// This render with its cap insets unknown (a fallback drawn for it may have others).
    package var ignoringCapInsets: ExpectedRender {
        ExpectedRender(pixelSize: pixelSize, scale: scale, capInsets: nil, limits: limits)
    }

    /// What a lookup by `key` alone can tell: its scale, and the limits (the pixel size and cap
    /// insets depend on the component, which the key does not hold).
    package init(key: CacheKey, limits: ResourceLimits = .default) {
        self.init(pixelSize: nil, scale: key.scale, capInsets: nil, limits: limits)
    }

    /// The render of `component` at `size` points and `scale`, under `limits`; throws what the
    /// request itself would (a bad size, a surface over the limits).
    package init<Component: Rasterizable>(for component: Component, size: Size, scale: Double, limits: ResourceLimits) throws {
        try self.init(geometry: RenderGeometry(for: component, size: size, scale: scale), scale: scale,
                      composed: component is any ComposedRendering, limits: limits)
    }

    init(geometry: RenderGeometry, scale: Double, composed: Bool, limits: ResourceLimits) throws {
        pixelSize = composed ? nil : try PixelGeometry.pixelSize(for: geometry.drawSize, scale: scale, limits: limits.pixels)
        self.scale = scale
        capInsets = .some(geometry.capInsets)
        self.limits = limits
    }

    /// Why a render of `geometry` (read from a PNG's header and text chunks) is not this one,
    /// or nil when it is.
    func mismatch(_ geometry: StoredRenderGeometry) -> String? {
        let width = geometry.pixelWidth, height = geometry.pixelHeight
        if let pixelSize, pixelSize.width != width || pixelSize.height != height {
            return "a \(width)×\(height) pixel image under a key of \(pixelSize.width)×\(pixelSize.height) pixels"
        }
        if (try? limits.pixels.check(pixelWidth: width, pixelHeight: height)) == nil {
            return "a \(width)×\(height) pixel image, over the pixel limits"
        }
        if !Self.isClose(geometry.scale, scale) { return "an image at scale \(geometry.scale) under a key at scale \(scale)" }
        if let capInsets, !Self.areClose(geometry.capInsets, capInsets) {
            return "an image with cap insets \(geometry.capInsets.map { "\($0)" } ?? "none") under a key with "
                + (capInsets.map { "\($0)" } ?? "none")
        }
        return nil
    }

    /// The most bytes a stored or fetched object of this render can take: its pixels stored
    /// uncompressed (what a PNG of noise comes to), with room for the PNG's and the object's
    /// framing and the list of nested components. Nothing longer is read.
    package var maximumObjectBytes: Int {
        let pixels = pixelSize.map { $0.width * $0.height } ?? limits.pixels.maximumPixelCount
        let rows = pixelSize?.height ?? limits.pixels.maximumSide
        // Four bytes a pixel and a filter byte a row, deflate's 5 bytes per 64 KiB block, 1 MiB
        // for chunks, framing and children.
        let raw = pixels * 4 + rows
        return raw + raw / 65_535 * 5 + (1 << 20)
    }

    /// Whether a file of `width` × `height` pixels made from this render with `border` pixels
    /// around it (a nine-patch's markers) has the right size, within the limits.
    package func matches(pixelWidth width: Int, pixelHeight height: Int, border: Int = 0) -> Bool {
        if let pixelSize, pixelSize.width + 2 * border != width || pixelSize.height + 2 * border != height { return false }
        return (try? limits.pixels.check(pixelWidth: max(1, width - 2 * border), pixelHeight: max(1, height - 2 * border))) != nil
    }

    /// Whether `png` (a render's own PNG, as RasterKit writes it) is this render, from its header.
    package func matches(png: Data) -> Bool {
        guard let geometry = try? StoredRenderGeometry(png: png) else { return false }
        return mismatch(geometry) == nil
    }

    /// Decodes `png` once its header matches, under the limits, and checks the decoded image
    /// again: the decoder reads text chunks the header reader does not (compressed ones, and
    /// the last of several), so a PNG whose chunks disagree could otherwise pass as another
    /// scale. Throws ``PNGError`` otherwise.
    func decode(_ png: Data) throws -> RasterImage {
        if let mismatch = mismatch(try StoredRenderGeometry(png: png)) { throw PNGError.corrupt(reason: mismatch) }
        let image = try RasterImage(pngData: png, resourceLimits: limits)
        if let mismatch = mismatch(StoredRenderGeometry(image)) { throw PNGError.corrupt(reason: "decoded as \(mismatch)") }
        return image
    }

    /// The pixels of `stored` once they are this render: its image when it holds one (checked
    /// like a header), or else its PNG decoded by ``decode(_:)``; throws ``PNGError`` otherwise.
    func image(from stored: StoredRender) throws -> RasterImage {
        if let image = stored.image {
            if let mismatch = mismatch(StoredRenderGeometry(image)) { throw PNGError.corrupt(reason: mismatch) }
            return image
        }
        guard let png = stored.png else { throw PNGError.corrupt(reason: "a stored render with neither pixels nor a PNG") }
        return try decode(png)
    }

    /// Equal up to the rounding of a number written as text in a PNG chunk.
    static func isClose(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    static func areClose(_ a: EdgeInsets?, _ b: EdgeInsets?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): isClose(a.top, b.top) && isClose(a.left, b.left) && isClose(a.bottom, b.bottom)
            && isClose(a.right, b.right)
        default: false
        }
    }
}
