/// A position in points.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal coordinate, in points, growing to the right.
    public var x: Double
    /// The vertical coordinate, in points, growing downward.
    public var y: Double

    /// A point at `x`, `y` in points (y grows downward).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0): the top-left corner of a canvas.
    public static let zero = Point(x: 0, y: 0)

    /// This point moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Point { Point(x: x + dx, y: y + dy) }

    /// `(x, y)`, without trailing zeros.
    public var description: String { "(\(x.compactDescription), \(y.compactDescription))" }
}

extension Double {
    /// `12` rather than `12.0`, for readable descriptions and file names.
    package var compactDescription: String {
        if isFinite, rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
