import Foundation

/// Straight (not premultiplied) 8-bit RGBA pixels exactly as a PNG stores them, rows top to
/// bottom with no padding. Image comparison works on these, so semi-transparent pixels keep
/// the precision premultiplication would lose.
public struct RGBABitmap: Sendable {
    let storage: PixelStorage
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    init(storage: PixelStorage, width: Int, height: Int) {
        self.storage = storage
        self.width = width
        self.height = height
    }

    /// A bitmap from `bytes` (width × height × 4 RGBA bytes).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width > 0 && height > 0 && bytes.count == width * height * 4,
                     "RGBABitmap needs width × height × 4 bytes")
        let storage = PixelStorage(byteCount: bytes.count)
        bytes.withUnsafeBytes { storage.bytes.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        self.storage = storage
        self.width = width
        self.height = height
    }

    /// A transparent black bitmap.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "RGBABitmap needs a positive size")
        storage = PixelStorage(byteCount: width * height * 4)
        self.width = width
        self.height = height
    }

    /// Decodes a PNG of any colour type and bit depth, without gamma correction.
    public init(pngData: Data, limits: PixelLimits = .default) throws {
        let decoded = try pngData.withUnsafeBytes { try PNGCodec.decode($0, limits: limits) }
        self.init(storage: decoded.storage, width: decoded.width, height: decoded.height)
    }

    /// The un-premultiplied pixels of a rendered image.
    public init(_ image: RasterImage) {
        let storage = PixelStorage(byteCount: image.pixelWidth * image.pixelHeight * 4)
        self.storage = storage
        width = image.pixelWidth
        height = image.pixelHeight
        let output = storage.bytes.assumingMemoryBound(to: UInt8.self)
        Premultiplication.unpremultiplyTable.withUnsafeBufferPointer { table in
            image.withUnsafePremultipliedPixels { words in
                for index in words.indices {
                    let pixel = Premultiplication.rgba(of: words[index], table: table.baseAddress!)
                    output[4 * index] = pixel.red
                    output[4 * index + 1] = pixel.green
                    output[4 * index + 2] = pixel.blue
                    output[4 * index + 3] = pixel.alpha
                }
            }
        }
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let bytes = storage.bytes.assumingMemoryBound(to: UInt8.self) + (y * width + x) * 4
        return RGBA8(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
    }

    /// Reads the RGBA bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.bytes.assumingMemoryBound(to: UInt8.self), count: width * height * 4))
    }

    /// Builds a bitmap by writing its RGBA bytes.
    public static func make(width: Int, height: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows -> RGBABitmap {
        let bitmap = RGBABitmap(width: width, height: height)
        try fill(UnsafeMutableBufferPointer(start: bitmap.storage.bytes.assumingMemoryBound(to: UInt8.self),
                                            count: width * height * 4))
        return bitmap
    }

    /// Encodes the bitmap as PNG (RGBA, or RGB when fully opaque).
    public func pngData(compression: PNGCompression = .default) throws -> Data {
        let bytes = storage.bytes.assumingMemoryBound(to: UInt8.self)
        let count = width * height
        var opaque = true
        for index in 0..<count where bytes[4 * index + 3] != 255 { opaque = false; break }
        let width = self.width
        return Data(try PNGCodec.encode(width: width, height: height, hasAlpha: !opaque, settings: compression.settings,
                                        pixelsPerMeter: 0, texts: []) { y, row in
            let source = bytes + y * width * 4
            if opaque {
                for x in 0..<width {
                    row[3 * x] = source[4 * x]
                    row[3 * x + 1] = source[4 * x + 1]
                    row[3 * x + 2] = source[4 * x + 2]
                }
            } else {
                row.update(from: source, count: width * 4)
            }
        })
    }
}

extension RGBABitmap: Equatable {
    /// Bitmaps are equal when they have the same size and the same bytes.
    public static func == (lhs: RGBABitmap, rhs: RGBABitmap) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
            && (lhs.storage.bytes == rhs.storage.bytes || memcmp(lhs.storage.bytes, rhs.storage.bytes, lhs.storage.byteCount) == 0)
    }
}
