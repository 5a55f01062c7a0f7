import Foundation

extension ImageDiff {
    /// A rectangle of pixels: the smallest one holding every different pixel of a comparison.
    public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The leftmost column.
        public let x: Int
        /// The top row.
        public let y: Int
        /// Columns, at least 1.
        public let width: Int
        /// Rows, at least 1.
        public let height: Int

        /// A rectangle `width` × `height` pixels whose top-left pixel is (`x`, `y`).
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// `x 12–15, y 3–3 (4×1 px)`: the first and last column and row, inclusive.
        public var description: String {
            "x \(x)–\(x + width - 1), y \(y)–\(y + height - 1) (\(width)×\(height) px)"
        }
    }

    /// The different pixel whose colour changed most: where it is and both of its colours.
    public struct LargestDifference: Hashable, Sendable, CustomStringConvertible {
        /// Its column.
        public let x: Int
        /// Its row.
        public let y: Int
        /// Its colour in the expected image.
        public let expected: RGBA8
        /// Its colour in the actual image.
        public let actual: RGBA8
        /// pixelmatch's perceptual (YIQ) distance between the two, 0...1, on the scale of
        /// ``ImageDiff/Options/threshold``.
        public let distance: Double

        /// `(14, 3): #202020FF → #00FF00FF, distance 0.71`.
        public var description: String {
            "(\(x), \(y)): \(Self.hex(expected)) → \(Self.hex(actual)), distance \(String(format: "%.2f", distance))"
        }

        /// `#RRGGBBAA`.
        static func hex(_ pixel: RGBA8) -> String {
            "#" + [pixel.red, pixel.green, pixel.blue, pixel.alpha].map { String(format: "%02X", $0) }.joined()
        }
    }
}
