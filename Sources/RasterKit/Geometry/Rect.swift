/// An axis-aligned rectangle in points.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height; negative sizes are stored as given and make ``isEmpty`` true.
    public var size: Size

    /// A rectangle from its top-left corner and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its top-left corner's coordinates and its size, in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// A rectangle at the origin.
    public init(size: Size) { self.init(origin: .zero, size: size) }

    /// An empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge: `minX + width`.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge: `minY + height`.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The size's width.
    public var width: Double { size.width }
    /// The size's height.
    public var height: Double { size.height }
    /// The point at the middle of the rectangle.
    public var center: Point { Point(x: midX, y: midY) }
    /// Whether the rectangle covers no area: a side that is zero, negative or NaN.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Shrinks the rectangle by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Shrinks the rectangle by each edge of `insets`.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: width - insets.horizontal, height: height - insets.vertical)
    }

    /// The same rectangle moved by `dx` to the right and `dy` down.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    /// Whether `point` lies inside; the left and top edges count as inside, the right and bottom do not.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The overlap of two rectangles, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The origin, then the size.
    public var description: String { "\(origin) \(size)" }
}
