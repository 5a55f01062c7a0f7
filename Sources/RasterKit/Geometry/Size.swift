/// A width and height in points.
///
/// Any values may be stored; rendering entry points validate them and throw
/// ``RenderError/invalidSize(_:)`` for zero, negative, NaN or infinite sizes.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal extent, in points.
    public var width: Double
    /// The vertical extent, in points.
    public var height: Double

    /// A size in points; not validated until it is rendered.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A square size.
    public init(_ side: Double) { self.init(width: side, height: side) }

    /// A size with no area; not drawable.
    public static let zero = Size(width: 0, height: 0)

    /// Whether both sides are finite and greater than zero.
    public var isDrawable: Bool {
        width.isFinite && height.isFinite && width > 0 && height > 0
    }

    /// `width×height`, without trailing zeros.
    public var description: String { "\(width.compactDescription)×\(height.compactDescription)" }
}
