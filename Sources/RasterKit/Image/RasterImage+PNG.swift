import Foundation

/// How hard the PNG encoder works for smaller files.
public enum PNGCompression: String, Hashable, Sendable, CaseIterable {
    /// Quick to write and to read back, somewhat larger: for caches and intermediate files.
    case fast
    /// Tuned for UI artwork: faster than cairo's own PNG writer, and smaller.
    case `default`
    /// zlib's best with every PNG filter tried per row: slow, smallest.
    case best

    var settings: PNGCodec.Settings {
        // zlib strategies: 0 default, 1 filtered. Filter masks: none 0x08, sub 0x10, up 0x20,
        // average 0x40, Paeth 0x80. Measured on 1024² UI renders (Benchmarks/Drawing): trying
        // only none, sub and up per row, with zlib's default strategy, is a third faster than
        // libpng's all-filter search that cairo uses, and about 9% smaller — flat UI colours
        // and horizontal gradients rarely gain from average or Paeth.
        switch self {
        // Unfiltered rows decode fastest; on small UI renders they are no larger than sub.
        case .fast: PNGCodec.Settings(level: 1, strategy: 0, filters: 0x08)
        case .default: PNGCodec.Settings(level: 6, strategy: 0, filters: 0x38)
        case .best: PNGCodec.Settings(level: 9, strategy: 1, filters: 0xF8)
        }
    }
}

extension RasterImage {
    /// PNG text keys under which RasterKit keeps the scale and cap insets.
    enum PNGKeys {
        static let scale = "rasterkit:scale"
        static let capInsets = "rasterkit:cap-insets"
    }

    /// Encodes the image as PNG. The same pixels always give the same bytes: no time stamp is
    /// written, and the scale and cap insets go into text chunks that `init(pngData:)` reads.
    /// A fully opaque image is written as RGB, otherwise as straight (un-premultiplied) RGBA.
    public func pngData(compression: PNGCompression = .default) throws -> Data {
        Data(try pngBytes(compression: compression))
    }

    /// `pngData` as an array, for callers that want bytes without a `Data`.
    func pngBytes(compression: PNGCompression = .default) throws -> [UInt8] {
        var texts: [(String, String)] = []
        if scale != 1 { texts.append((PNGKeys.scale, scale.compactDescription)) }
        if let capInsets {
            texts.append((PNGKeys.capInsets, [capInsets.top, capInsets.left, capInsets.bottom, capInsets.right]
                .map(\.compactDescription).joined(separator: " ")))
        }
        let words = storage.bytes.assumingMemoryBound(to: UInt32.self)
        let width = pixelWidth
        let opaque = isOpaque
        // 72 dpi × scale, in pixels per metre; written only when it says something.
        let pixelsPerMeter = scale == 1 ? 0 : Int((scale * 72 / 0.0254).rounded())
        return try Premultiplication.unpremultiplyTable.withUnsafeBufferPointer { table in
            let table = table.baseAddress!
            return try PNGCodec.encode(width: pixelWidth, height: pixelHeight, hasAlpha: !opaque,
                                       settings: compression.settings, pixelsPerMeter: pixelsPerMeter,
                                       texts: texts) { y, row in
                let source = words + y * width
                if opaque {
                    for x in 0..<width {
                        let word = source[x]
                        row[3 * x] = UInt8(truncatingIfNeeded: word >> 16)
                        row[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        row[3 * x + 2] = UInt8(truncatingIfNeeded: word)
                    }
                } else {
                    for x in 0..<width {
                        let word = source[x]
                        let alpha = Int(word >> 24)
                        let output = row + 4 * x
                        if alpha == 255 {
                            output[0] = UInt8(truncatingIfNeeded: word >> 16)
                            output[1] = UInt8(truncatingIfNeeded: word >> 8)
                            output[2] = UInt8(truncatingIfNeeded: word)
                        } else {
                            // Alpha 0 has an all-zero table row, so transparent pixels need no branch.
                            let base = table + alpha << 8
                            output[0] = base[Int((word >> 16) & 0xFF)]
                            output[1] = base[Int((word >> 8) & 0xFF)]
                            output[2] = base[Int(word & 0xFF)]
                        }
                        output[3] = UInt8(truncatingIfNeeded: alpha)
                    }
                }
            }
        }
    }

    /// Whether every pixel has full alpha.
    var isOpaque: Bool {
        let words = storage.bytes.assumingMemoryBound(to: UInt32.self)
        var all: UInt32 = 0xFF00_0000
        for index in 0..<(pixelWidth * pixelHeight) { all &= words[index] | 0x00FF_FFFF }
        return all == 0xFF00_0000
    }

    /// Decodes a PNG of any colour type and bit depth. The scale and cap insets RasterKit
    /// wrote are restored; other PNGs get scale 1 and no insets.
    public init(pngData: Data, limits: PixelLimits = .default) throws {
        try self.init(pngData: pngData, limits: limits, maximumChunkBytes: ResourceLimits.default.maximumPNGChunkBytes)
    }

    /// Decodes under the pixel and chunk limits of `limits`.
    package init(pngData: Data, resourceLimits limits: ResourceLimits) throws {
        try self.init(pngData: pngData, limits: limits.pixels, maximumChunkBytes: limits.maximumPNGChunkBytes)
    }

    private init(pngData: Data, limits: PixelLimits, maximumChunkBytes: Int) throws {
        let decoded = try pngData.withUnsafeBytes { try PNGCodec.decode($0, limits: limits, maximumChunkBytes: maximumChunkBytes) }
        // Straight RGBA bytes become premultiplied ARGB words in place, through raw loads and
        // stores so the buffer is never viewed as two types at once.
        let raw = decoded.storage.bytes
        for offset in stride(from: 0, to: decoded.width * decoded.height * 4, by: 4) {
            let rgba = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let word = Premultiplication.word(red: UInt8(truncatingIfNeeded: rgba), green: UInt8(truncatingIfNeeded: rgba >> 8),
                                              blue: UInt8(truncatingIfNeeded: rgba >> 16), alpha: UInt8(truncatingIfNeeded: rgba >> 24))
            raw.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
        }
        let (scale, insets) = Self.scaleAndCapInsets(texts: decoded.texts, pixelWidth: decoded.width, pixelHeight: decoded.height)
        self.init(storage: decoded.storage, pixelWidth: decoded.width, pixelHeight: decoded.height, scale: scale,
                  capInsets: insets)
    }

    /// The scale and cap insets RasterKit wrote into a PNG's text chunks (scale 1 and no insets
    /// when it wrote none, or wrote values that do not fit the pixels).
    static func scaleAndCapInsets(texts: [String: String], pixelWidth: Int, pixelHeight: Int) -> (Double, EdgeInsets?) {
        let scale = texts[PNGKeys.scale].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
        var insets: EdgeInsets?
        if let text = texts[PNGKeys.capInsets] {
            let values = text.split(separator: " ").compactMap { Double($0) }
            if values.count == 4 {
                let candidate = EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
                let size = Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
                // Insets that do not fit are dropped rather than trusted.
                if (try? NineSlice.validate(candidate, fitting: size)) != nil { insets = candidate }
            }
        }
        return (scale, insets)
    }
}

/// What the disk store records of a render besides its PNG, read from a PNG RasterKit wrote
/// without decoding its pixels: the size from IHDR, the scale and cap insets from its text chunks.
struct StoredRenderGeometry: Sendable, Hashable {
    var pixelWidth: Int
    var pixelHeight: Int
    var scale: Double
    var capInsets: EdgeInsets?

    init(pixelWidth: Int, pixelHeight: Int, scale: Double, capInsets: EdgeInsets?) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.capInsets = capInsets
    }

    init(_ image: RasterImage) {
        pixelWidth = image.pixelWidth
        pixelHeight = image.pixelHeight
        scale = image.scale
        capInsets = image.capInsets
    }

    /// The geometry of `png`; throws when its header is not a PNG's.
    init(png: Data) throws(PNGError) {
        let header = try PNGHeader(png)
        pixelWidth = header.width
        pixelHeight = header.height
        (scale, capInsets) = RasterImage.scaleAndCapInsets(texts: PNGTextChunks.read(png), pixelWidth: header.width,
                                                           pixelHeight: header.height)
    }
}
