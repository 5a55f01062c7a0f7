import Foundation

/// A PNG's pixel size, read from its signature and IHDR chunk (the first 33 bytes) without
/// decoding anything: enough to compare two images' sizes or refuse one over the limits before
/// a single row is allocated.
///
/// ```swift
/// let header = try PNGHeader(Data(contentsOf: url))
/// print(header.width, header.height)
/// ```
public struct PNGHeader: Hashable, Sendable {
    /// Columns of pixels, as IHDR states them.
    public var width: Int
    /// Rows of pixels, as IHDR states them.
    public var height: Int

    /// The bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Signature, IHDR length and type, width and height: the bytes read here.
    static let byteCount = 24

    /// A header stating `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads the header at the start of `data`.
    ///
    /// - Throws: ``PNGError/notPNG(byteCount:)`` without the signature, ``PNGError/corrupt(reason:)``
    ///   when IHDR is not the first chunk, is cut short, or states a zero size.
    public init(_ data: Data) throws(PNGError) {
        let bytes = data.prefix(Self.byteCount + 9)
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature) else {
            throw .notPNG(byteCount: data.count)
        }
        guard bytes.count >= Self.byteCount else { throw .corrupt(reason: "the IHDR chunk is missing or cut short") }
        func word(at offset: Int) -> Int {
            let start = bytes.startIndex + offset
            return bytes[start ..< start + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        // IHDR must come first, and its data is always 13 bytes.
        guard word(at: 8) == 13, bytes[bytes.startIndex + 12 ..< bytes.startIndex + 16].elementsEqual(Array("IHDR".utf8)) else {
            throw .corrupt(reason: "the first chunk is not IHDR")
        }
        width = word(at: 16)
        height = word(at: 20)
        guard width > 0, height > 0 else { throw .corrupt(reason: "IHDR states a size of \(width)×\(height)") }
    }

    /// Throws ``PNGError/tooLarge(width:height:limits:)`` unless the image fits `limits`.
    func check(_ limits: PixelLimits) throws(PNGError) {
        do { try limits.check(pixelWidth: width, pixelHeight: height) } catch {
            throw .tooLarge(width: width, height: height, limits: limits)
        }
    }
}
