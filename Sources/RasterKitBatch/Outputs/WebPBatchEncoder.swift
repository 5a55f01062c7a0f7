import RasterKit
import Foundation
internal import CWebP

/// WebP files through libwebp, for Android and the web: lossless by default (decoded, the exact
/// pixels of the PNG), or lossy at a quality from 1 to 100. The same render and settings give
/// the same bytes; the identifier names libwebp's version, since another version may not.
public struct WebPBatchEncoder: BatchEncoder {
    /// nil for lossless; 1–100 for lossy (libwebp's quality factor).
    public var quality: Int?

    /// The largest side WebP can hold, in pixels.
    public static let maximumSide = 16_383

    /// A lossless encoder, or a lossy one at `quality` (1–100).
    public init(quality: Int? = nil) { self.quality = quality }

    /// Checks `quality`: nil, or 1 through 100.
    public static func validate(quality: Int?) throws(WebPError) {
        if let quality, !(1...100).contains(quality) {
            throw .badQuality(quality)
        }
    }

    /// `webp1-<libwebp version>-lossless` or `…-q<quality>`.
    public var identifier: String {
        "webp1-\(Self.libraryVersion)-" + (quality.map { "q\($0)" } ?? "lossless")
    }

    /// The render's straight RGBA pixels, encoded.
    public func encode(_ image: RasterImage) throws -> Data {
        try Self.validate(quality: quality)
        let width = image.pixelWidth, height = image.pixelHeight
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw WebPError.tooLarge(width: width, height: height)
        }
        let bitmap = RGBABitmap(image)
        var output: UnsafeMutablePointer<UInt8>?
        let size = bitmap.withUnsafeBytes { pixels -> Int in
            guard let base = pixels.baseAddress else { return 0 }
            if let quality {
                return WebPEncodeRGBA(base, Int32(width), Int32(height), Int32(width * 4), Float(quality), &output)
            }
            return WebPEncodeLosslessRGBA(base, Int32(width), Int32(height), Int32(width * 4), &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else { throw WebPError.encodingFailed(width: width, height: height) }
        return Data(bytes: output, count: size)
    }

    /// libwebp's encoder version, as `major.minor.revision`.
    static let libraryVersion: String = {
        let version = WebPGetEncoderVersion()
        return "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }()

    /// The straight RGBA pixels of a WebP file (for contact sheets and tests).
    public static func decode(_ data: Data) throws -> RGBABitmap {
        var width: Int32 = 0, height: Int32 = 0
        let bytes: [UInt8]? = data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress,
                  WebPGetInfo(base, raw.count, &width, &height) != 0,
                  width > 0, height > 0, Int(width) <= maximumSide, Int(height) <= maximumSide,
                  let pixels = WebPDecodeRGBA(base, raw.count, &width, &height) else { return nil }
            defer { WebPFree(pixels) }
            return Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        }
        guard let bytes else { throw WebPError.notWebP }
        return RGBABitmap(width: Int(width), height: Int(height), bytes: bytes)
    }
}

/// Why a WebP file could not be made or read.
public enum WebPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A quality outside 1–100.
    case badQuality(Int)
    /// An image wider or taller than WebP can hold.
    case tooLarge(width: Int, height: Int)
    /// libwebp refused the pixels.
    case encodingFailed(width: Int, height: Int)
    /// The bytes are not a WebP image libwebp can decode.
    case notWebP

    /// The problem in words.
    public var description: String {
        switch self {
        case .badQuality(let quality): "WebP quality must be from 1 to 100, not \(quality)"
        case let .tooLarge(width, height):
            "a \(width)×\(height) image is larger than WebP holds (\(WebPBatchEncoder.maximumSide) pixels a side)"
        case let .encodingFailed(width, height): "libwebp could not encode a \(width)×\(height) image"
        case .notWebP: "not a WebP image"
        }
    }
}
