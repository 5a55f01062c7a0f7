/// Why two images could not be compared.
public enum ImageDiffError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The images have different pixel sizes; pixelmatch compares only equal sizes.
    case sizeMismatch(expected: ImageDiff.PixelSize, actual: ImageDiff.PixelSize)
    /// `threshold` is NaN, infinite or outside 0...1.
    case invalidThreshold(Double)
    /// `alpha` is NaN, infinite or outside 0...1.
    case invalidAlpha(Double)

    /// Which input was invalid, and the valid range.
    public var description: String {
        switch self {
        case let .sizeMismatch(expected, actual):
            "image sizes differ: expected \(expected), actual \(actual)"
        case .invalidThreshold(let value):
            "invalid threshold \(value): it must be a number from 0 to 1"
        case .invalidAlpha(let value):
            "invalid alpha \(value): it must be a number from 0 to 1"
        }
    }
}

extension ImageDiff {
    /// A width × height in pixels, as named in size-mismatch errors and results.
    public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Columns of pixels.
        public var width: Int
        /// Rows of pixels.
        public var height: Int

        /// A size of `width` × `height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// The size of `bitmap`.
        public init(of bitmap: RGBABitmap) {
            self.init(width: bitmap.width, height: bitmap.height)
        }

        /// `width×height`, for example `512×256`.
        public var description: String { "\(width)×\(height)" }
    }
}
