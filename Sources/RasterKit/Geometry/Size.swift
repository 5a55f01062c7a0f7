/// A width and height in points.
///
/// Any values may be stored; rendering entry points validate them and throw
/// ``RenderError/invalidSize(_:)`` for zero, negative, NaN or infinite sizes.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A square size.
    public init(_ side: Double) { self.init(width: side, height: side) }

    public static let zero = Size(width: 0, height: 0)

    /// Whether both sides are finite and greater than zero.
    public var isDrawable: Bool {
        width.isFinite && height.isFinite && width > 0 && height > 0
    }

    public var description: String { "\(width.compactDescription)×\(height.compactDescription)" }
}
