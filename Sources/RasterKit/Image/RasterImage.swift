import Foundation

/// An immutable bitmap: premultiplied ARGB32 pixels with a scale (pixels per point) and, for
/// resizable artwork, nine-slice cap insets in points. Safe to share between threads.
///
/// ```swift
/// let logo = try RasterImage(size: Size(width: 64, height: 64), scale: 2) { canvas in
///     canvas.fill(Path(ellipseIn: Rect(x: 4, y: 4, width: 56, height: 56)), with: .color(.black))
/// }
/// let png = try logo.pngData()
/// ```
public struct RasterImage: Sendable {
    let storage: PixelStorage
    /// Width in pixels.
    public let pixelWidth: Int
    /// Height in pixels.
    public let pixelHeight: Int
    /// Pixels per point.
    public let scale: Double
    /// Nine-slice caps in points, when the image is meant to be stretched.
    public let capInsets: EdgeInsets?

    init(storage: PixelStorage, pixelWidth: Int, pixelHeight: Int, scale: Double, capInsets: EdgeInsets?) {
        precondition(storage.byteCount == pixelWidth * pixelHeight * 4, "pixel storage does not match the image size")
        self.storage = storage
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.capInsets = capInsets
    }

    /// Draws a new image of `size` points at `scale` with a ``Canvas``.
    ///
    /// Throws ``RenderError`` for invalid sizes or scales, surfaces over `limits`, and cairo
    /// errors; rethrows what `draw` throws.
    public init(size: Size, scale: Double = 1, limits: ResourceLimits = .default,
                draw: (Canvas) throws -> Void) throws {
        let pixels = try PixelGeometry.pixelSize(for: size, scale: scale, limits: limits.pixels)
        self = try CairoImageSurface.render(pixelWidth: pixels.width, pixelHeight: pixels.height,
                                            size: size, scale: scale, environment: DrawEnvironment(limits: limits),
                                            draw: draw)
    }

    /// Size in points: pixels divided by scale.
    public var size: Size { Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale) }

    /// Memory held by the pixels, in bytes.
    public var byteCount: Int { storage.byteCount }

    /// The pixel at column `x`, row `y` (from the top left), un-premultiplied.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < pixelWidth && y >= 0 && y < pixelHeight,
                     "pixel (\(x), \(y)) is outside the \(pixelWidth)×\(pixelHeight) image")
        let word = storage.bytes.load(fromByteOffset: (y * pixelWidth + x) * 4, as: UInt32.self)
        return Premultiplication.unpremultiplyTable.withUnsafeBufferPointer {
            Premultiplication.rgba(of: word, table: $0.baseAddress!)
        }
    }

    /// The same pixels with different cap insets (nil removes them).
    public func withCapInsets(_ insets: EdgeInsets?) throws -> RasterImage {
        if let insets { try NineSlice.validate(insets, fitting: size) }
        return RasterImage(storage: storage, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                           scale: scale, capInsets: insets)
    }

    /// The same pixels at a different scale (so a different size in points).
    public func withScale(_ scale: Double) throws -> RasterImage {
        try PixelGeometry.validate(scale: scale)
        return RasterImage(storage: storage, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                           scale: scale, capInsets: capInsets)
    }

    /// Reads the premultiplied ARGB32 words (native byte order, rows top to bottom, no padding).
    public func withUnsafePremultipliedPixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.bytes.assumingMemoryBound(to: UInt32.self),
                                     count: pixelWidth * pixelHeight))
    }
}

extension RasterImage: Equatable {
    /// Equal when size, scale, cap insets and every pixel are equal.
    public static func == (lhs: RasterImage, rhs: RasterImage) -> Bool {
        guard lhs.pixelWidth == rhs.pixelWidth, lhs.pixelHeight == rhs.pixelHeight,
              lhs.scale == rhs.scale, lhs.capInsets == rhs.capInsets else { return false }
        return lhs.storage.bytes == rhs.storage.bytes || memcmp(lhs.storage.bytes, rhs.storage.bytes, lhs.byteCount) == 0
    }

    /// Whether the two images have the same pixels, whatever their scale and insets.
    public func hasSamePixels(as other: RasterImage) -> Bool {
        pixelWidth == other.pixelWidth && pixelHeight == other.pixelHeight
            && (storage.bytes == other.storage.bytes || memcmp(storage.bytes, other.storage.bytes, byteCount) == 0)
    }
}

extension RasterImage: CustomStringConvertible {
    /// The size in pixels, the scale and any caps.
    public var description: String {
        var text = "RasterImage(\(pixelWidth)×\(pixelHeight) px @\(scale.compactDescription)x"
        if let capInsets { text += ", caps \(capInsets)" }
        return text + ")"
    }
}
