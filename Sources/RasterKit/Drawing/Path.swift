import Foundation

/// A shape made of straight lines, curves and arcs, in points. A plain value: build it once,
/// fill or stroke it on any canvas.
///
/// ```swift
/// var check = Path()
/// check.move(to: Point(x: 4, y: 12))
/// check.addLine(to: Point(x: 10, y: 18))
/// check.addLine(to: Point(x: 20, y: 6))
/// let pill = Path(roundedRect: Rect(x: 0, y: 0, width: 80, height: 24), cornerRadius: 12)
/// let icon = try Path(svgPathData: "M2 2h20v20H2z")
/// ```
public struct Path: Hashable, Sendable {
    /// One drawing command.
    public enum Element: Hashable, Sendable {
        case move(to: Point)
        case line(to: Point)
        case quadCurve(to: Point, control: Point)
        case curve(to: Point, control1: Point, control2: Point)
        /// A circular arc; angles in radians from +x toward +y. `clockwise` is as seen on screen
        /// (y grows downward), which is the direction of increasing angle.
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool)
        case closeSubpath
    }

    /// The drawing commands in order; the mutating methods append to them.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A path of the given commands, in order.
    public init(elements: [Element]) { self.elements = elements }

    /// Whether the path has no commands.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(to: point)) }

    /// Adds a straight line from the current point to `point`.
    public mutating func addLine(to point: Point) { elements.append(.line(to: point)) }

    /// Adds a quadratic Bézier curve from the current point to `point`, pulled toward `control`.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        elements.append(.quadCurve(to: point, control: control))
    }

    /// Adds a cubic Bézier curve from the current point to `point` with two control points.
    public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
        elements.append(.curve(to: point, control1: control1, control2: control2))
    }

    /// Adds a circular arc, joined to the current point by a straight line when there is one.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double,
                                clockwise: Bool = true) {
        elements.append(.arc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                             clockwise: clockwise))
    }

    /// Closes the current subpath with a straight line back to its start.
    public mutating func closeSubpath() { elements.append(.closeSubpath) }

    /// Appends every element of `other`.
    public mutating func addPath(_ other: Path) { elements.append(contentsOf: other.elements) }

    /// Adds `rect` as a closed subpath, clockwise from its top-left corner.
    public mutating func addRect(_ rect: Rect) {
        move(to: rect.origin)
        addLine(to: Point(x: rect.maxX, y: rect.minY))
        addLine(to: Point(x: rect.maxX, y: rect.maxY))
        addLine(to: Point(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }

    /// A rounded rectangle; radii too large for the rectangle are scaled down together, as CSS
    /// does, so neighbouring corners never overlap.
    public mutating func addRoundedRect(_ rect: Rect, cornerRadii: CornerRadii) {
        let radii = cornerRadii.fitted(to: rect.size)
        if radii == .zero { return addRect(rect) }
        let quarter = Double.pi / 2
        move(to: Point(x: rect.minX + radii.topLeft, y: rect.minY))
        addArcOrCorner(Point(x: rect.maxX - radii.topRight, y: rect.minY + radii.topRight), radii.topRight,
                       from: -quarter, corner: Point(x: rect.maxX, y: rect.minY))
        addArcOrCorner(Point(x: rect.maxX - radii.bottomRight, y: rect.maxY - radii.bottomRight), radii.bottomRight,
                       from: 0, corner: Point(x: rect.maxX, y: rect.maxY))
        addArcOrCorner(Point(x: rect.minX + radii.bottomLeft, y: rect.maxY - radii.bottomLeft), radii.bottomLeft,
                       from: quarter, corner: Point(x: rect.minX, y: rect.maxY))
        addArcOrCorner(Point(x: rect.minX + radii.topLeft, y: rect.minY + radii.topLeft), radii.topLeft,
                       from: 2 * quarter, corner: Point(x: rect.minX, y: rect.minY))
        closeSubpath()
    }

    private mutating func addArcOrCorner(_ center: Point, _ radius: Double, from start: Double, corner: Point) {
        if radius > 0 {
            addArc(center: center, radius: radius, startAngle: start, endAngle: start + .pi / 2)
        } else {
            addLine(to: corner)
        }
    }

    /// An ellipse inscribed in `rect`, drawn with four cubic Béziers.
    public mutating func addEllipse(in rect: Rect) {
        // The control-point distance that makes a cubic Bézier closest to a quarter circle.
        let kappa = 0.552_284_749_830_793_4
        let rx = rect.width / 2, ry = rect.height / 2, cx = rect.midX, cy = rect.midY
        let ox = rx * kappa, oy = ry * kappa
        move(to: Point(x: cx + rx, y: cy))
        addCurve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + oy), control2: Point(x: cx + ox, y: cy + ry))
        addCurve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - ox, y: cy + ry), control2: Point(x: cx - rx, y: cy + oy))
        addCurve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - oy), control2: Point(x: cx - ox, y: cy - ry))
        addCurve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + ox, y: cy - ry), control2: Point(x: cx + rx, y: cy - oy))
        closeSubpath()
    }

    /// A path of one rectangle.
    public init(rect: Rect) { addRect(rect) }

    /// A rounded rectangle with the same radius at every corner; a radius over half a side makes a pill.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        addRoundedRect(rect, cornerRadii: CornerRadii(all: cornerRadius))
    }

    /// A rounded rectangle with its own radius at each corner (see ``addRoundedRect(_:cornerRadii:)``).
    public init(roundedRect rect: Rect, cornerRadii: CornerRadii) { addRoundedRect(rect, cornerRadii: cornerRadii) }

    /// An ellipse inscribed in `rect` (a circle when `rect` is square).
    public init(ellipseIn rect: Rect) { addEllipse(in: rect) }

    /// The path with every point transformed; arcs become Bézier curves so that any transform,
    /// including non-uniform scales and skews, is exact.
    public func applying(_ transform: Transform) -> Path {
        var result = Path()
        result.elements.reserveCapacity(elements.count)
        var current: Point?
        for element in elements {
            switch element {
            case .move(let point):
                result.move(to: transform.apply(to: point))
                current = point
            case .line(let point):
                result.addLine(to: transform.apply(to: point))
                current = point
            case let .quadCurve(point, control):
                result.addQuadCurve(to: transform.apply(to: point), control: transform.apply(to: control))
                current = point
            case let .curve(point, control1, control2):
                result.addCurve(to: transform.apply(to: point), control1: transform.apply(to: control1),
                                control2: transform.apply(to: control2))
                current = point
            case let .arc(center, radius, start, end, clockwise):
                let segments = ArcGeometry.bezierSegments(center: center, radius: radius, startAngle: start,
                                                          endAngle: end, clockwise: clockwise)
                let startPoint = ArcGeometry.point(center: center, radius: radius, angle: start)
                if current == nil { result.move(to: transform.apply(to: startPoint)) }
                else { result.addLine(to: transform.apply(to: startPoint)) }
                for segment in segments {
                    result.addCurve(to: transform.apply(to: segment.end), control1: transform.apply(to: segment.control1),
                                    control2: transform.apply(to: segment.control2))
                }
                current = ArcGeometry.point(center: center, radius: radius, angle: ArcGeometry.resolvedEnd(start, end, clockwise))
            case .closeSubpath:
                result.closeSubpath()
            }
        }
        return result
    }
}

/// Radii of the four corners of a rounded rectangle, in points.
public struct CornerRadii: Hashable, Sendable, Codable {
    /// The top-left corner's radius.
    public var topLeft: Double
    /// The top-right corner's radius.
    public var topRight: Double
    /// The bottom-right corner's radius.
    public var bottomRight: Double
    /// The bottom-left corner's radius.
    public var bottomLeft: Double

    /// Radii for each corner, clockwise from the top left; negative and NaN radii draw as 0.
    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The same radius at every corner.
    public init(all radius: Double) { self.init(topLeft: radius, topRight: radius, bottomRight: radius, bottomLeft: radius) }

    /// Square corners.
    public static let zero = CornerRadii(all: 0)

    /// Negative and NaN radii become 0; radii whose sums exceed a side are scaled down together.
    func fitted(to size: Size) -> CornerRadii {
        func clean(_ value: Double) -> Double { value.isNaN || value < 0 ? 0 : value }
        var radii = CornerRadii(topLeft: clean(topLeft), topRight: clean(topRight),
                                bottomRight: clean(bottomRight), bottomLeft: clean(bottomLeft))
        let width = max(size.width, 0), height = max(size.height, 0)
        let ratios = [width / (radii.topLeft + radii.topRight), width / (radii.bottomLeft + radii.bottomRight),
                      height / (radii.topLeft + radii.bottomLeft), height / (radii.topRight + radii.bottomRight)]
        let factor = ratios.filter { $0.isFinite }.min() ?? 1
        if factor < 1 {
            radii = CornerRadii(topLeft: radii.topLeft * factor, topRight: radii.topRight * factor,
                                bottomRight: radii.bottomRight * factor, bottomLeft: radii.bottomLeft * factor)
        }
        return radii
    }
}

/// Circular-arc arithmetic shared by path transforms and SVG arc conversion.
enum ArcGeometry {
    struct Segment { var control1: Point, control2: Point, end: Point }

    static func point(center: Point, radius: Double, angle: Double) -> Point {
        Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
    }

    /// The end angle as cairo would reach it: cairo adds whole turns until the arc runs in the
    /// requested direction.
    static func resolvedEnd(_ start: Double, _ end: Double, _ clockwise: Bool) -> Double {
        var end = end
        if clockwise { while end < start { end += 2 * .pi } } else { while end > start { end -= 2 * .pi } }
        return end
    }

    /// Cubic Béziers, each spanning at most a quarter turn, that follow the arc.
    static func bezierSegments(center: Point, radius: Double, startAngle: Double, endAngle: Double,
                               clockwise: Bool) -> [Segment] {
        let end = resolvedEnd(startAngle, endAngle, clockwise)
        let sweep = end - startAngle
        guard sweep != 0, sweep.isFinite, radius.isFinite else { return [] }
        let count = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(count)
        let handle = 4.0 / 3.0 * tan(step / 4) * radius
        var segments: [Segment] = []
        var angle = startAngle
        for _ in 0..<count {
            let next = angle + step
            let p0 = point(center: center, radius: radius, angle: angle)
            let p3 = point(center: center, radius: radius, angle: next)
            segments.append(Segment(
                control1: Point(x: p0.x - handle * sin(angle), y: p0.y + handle * cos(angle)),
                control2: Point(x: p3.x + handle * sin(next), y: p3.y - handle * cos(next)),
                end: p3))
            angle = next
        }
        return segments
    }
}
