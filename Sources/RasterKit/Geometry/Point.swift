/// A position in points.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// This point moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Point { Point(x: x + dx, y: y + dy) }

    public var description: String { "(\(x.compactDescription), \(y.compactDescription))" }
}

extension Double {
    /// `12` rather than `12.0`, for readable descriptions and file names.
    package var compactDescription: String {
        if isFinite, rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
