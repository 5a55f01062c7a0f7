/// Distances in points from each edge of a rectangle: padding, or nine-slice caps.
public struct EdgeInsets: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Distance from the top edge, in points.
    public var top: Double
    /// Distance from the left edge, in points.
    public var left: Double
    /// Distance from the bottom edge, in points.
    public var bottom: Double
    /// Distance from the right edge, in points.
    public var right: Double

    /// Insets with a distance for each edge, in points.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same distance on every edge.
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    /// `horizontal` on the left and right, `vertical` at the top and bottom.
    public init(horizontal: Double, vertical: Double) {
        self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }

    /// No inset on any edge.
    public static let zero = EdgeInsets(all: 0)

    /// left + right
    public var horizontal: Double { left + right }

    /// The smallest frame these caps leave a one-point centre in: where a resizable component
    /// is drawn before it is stretched.
    package var minimumFrame: Size { Size(width: horizontal + 1, height: vertical + 1) }
    /// top + bottom
    public var vertical: Double { top + bottom }

    /// Whether every edge is finite and not negative.
    public var isValid: Bool {
        [top, left, bottom, right].allSatisfy { $0.isFinite && $0 >= 0 }
    }

    /// The four distances, labelled.
    public var description: String {
        "(top: \(top.compactDescription), left: \(left.compactDescription), "
            + "bottom: \(bottom.compactDescription), right: \(right.compactDescription))"
    }
}
