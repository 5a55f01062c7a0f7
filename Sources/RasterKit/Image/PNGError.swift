/// Why PNG data could not be read or written.
public enum PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data does not begin with the PNG signature.
    case notPNG(byteCount: Int)
    /// libpng rejected the data: truncated, a bad CRC, a bad chunk, and so on.
    case corrupt(reason: String)
    /// The image is larger than the ``PixelLimits`` in force.
    case tooLarge(width: Int, height: Int, limits: PixelLimits)
    /// A chunk other than image data is longer than ``ResourceLimits/maximumPNGChunkBytes``.
    case chunkTooLarge(type: String, byteCount: Int, limit: Int)
    /// Memory for the image could not be allocated.
    case outOfMemory
    /// libpng failed while encoding.
    case encodingFailed(reason: String)

    /// What is wrong with the PNG, in one line.
    public var description: String {
        switch self {
        case .notPNG(let count):
            count == 0 ? "not a PNG: the data is empty" : "not a PNG: the \(count) bytes do not start with the PNG signature"
        case .corrupt(let reason): "corrupt PNG: \(reason)"
        case let .tooLarge(width, height, limits):
            "a \(width)×\(height) PNG exceeds the limit of \(limits.maximumSide) pixels a side and "
                + "\(limits.maximumPixelCount) pixels in all"
        case let .chunkTooLarge(type, count, limit):
            "the PNG's \(type) chunk of \(count) bytes is over the limit of \(limit) bytes"
        case .outOfMemory: "out of memory while decoding a PNG"
        case .encodingFailed(let reason): "PNG encoding failed: \(reason)"
        }
    }
}
