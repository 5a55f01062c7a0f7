/// What fills or strokes a shape.
public enum Paint: Hashable, Sendable {
    /// One colour.
    case color(Color)
    /// A gradient along a line.
    case linearGradient(LinearGradient)
    /// A gradient between two circles.
    case radialGradient(RadialGradient)
    /// An image, placed or tiled.
    case image(ImagePattern)
}

/// Colours at positions along a gradient, from 0 (start) to 1 (end).
public struct Gradient: Hashable, Sendable {
    /// One colour at one position.
    public struct Stop: Hashable, Sendable {
        /// The colour at this position.
        public var color: Color
        /// The position along the gradient, from 0 (start) to 1 (end).
        public var location: Double

        /// A colour at a position from 0 to 1.
        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    /// What lies beyond the first and last stops.
    public enum Extend: String, Hashable, Sendable, Codable, CaseIterable {
        /// The end colours continue.
        case pad
        /// The gradient repeats.
        case `repeat`
        /// The gradient repeats, mirrored each time.
        case reflect
        /// Nothing is painted.
        case none
    }

    /// Stops in ascending order of location (equal locations keep their given order).
    public var stops: [Stop]
    /// What is painted beyond the first and last stops.
    public var extend: Extend

    /// A gradient through `stops`, which are sorted by location (stops at equal locations keep their order).
    public init(stops: [Stop], extend: Extend = .pad) {
        self.stops = stops.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        self.extend = extend
    }

    /// Evenly spaced colours.
    public init(colors: [Color], extend: Extend = .pad) {
        let last = Double(max(colors.count - 1, 1))
        self.init(stops: colors.enumerated().map { Stop(color: $0.element, location: Double($0.offset) / last) },
                  extend: extend)
    }
}

/// A gradient from `start` to `end`, in the canvas's current coordinates.
public struct LinearGradient: Hashable, Sendable {
    /// The colours and how they extend.
    public var gradient: Gradient
    /// Where location 0 lies.
    public var start: Point
    /// Where location 1 lies.
    public var end: Point

    /// A gradient along the line from `start` to `end`, in the canvas's current coordinates.
    public init(gradient: Gradient, start: Point, end: Point) {
        self.gradient = gradient
        self.start = start
        self.end = end
    }
}

/// A gradient from one circle to another, in the canvas's current coordinates.
public struct RadialGradient: Hashable, Sendable {
    /// The colours and how they extend.
    public var gradient: Gradient
    /// The centre of the circle at location 0.
    public var startCenter: Point
    /// The radius of the circle at location 0, in points.
    public var startRadius: Double
    /// The centre of the circle at location 1.
    public var endCenter: Point
    /// The radius of the circle at location 1, in points.
    public var endRadius: Double

    /// A gradient from one circle to another, in the canvas's current coordinates.
    public init(gradient: Gradient, startCenter: Point, startRadius: Double = 0, endCenter: Point, endRadius: Double) {
        self.gradient = gradient
        self.startCenter = startCenter
        self.startRadius = startRadius
        self.endCenter = endCenter
        self.endRadius = endRadius
    }

    /// A gradient from the centre of a circle to its edge.
    public init(gradient: Gradient, center: Point, radius: Double) {
        self.init(gradient: gradient, startCenter: center, startRadius: 0, endCenter: center, endRadius: radius)
    }
}

/// An image used as paint: one copy fills `rect`, and with `tiles` copies repeat beyond it.
public struct ImagePattern: Hashable, Sendable {
    /// The image painted.
    public var image: RasterImage
    /// Where one copy of the image is drawn, scaled to fill it, in points.
    public var rect: Rect
    /// Whether copies repeat beyond ``rect`` in every direction.
    public var tiles: Bool
    /// How the image is sampled when scaled.
    public var interpolation: Interpolation

    /// An image drawn into `rect`, repeated beyond it when `tiles` is true.
    public init(image: RasterImage, rect: Rect, tiles: Bool = false, interpolation: Interpolation = .good) {
        self.image = image
        self.rect = rect
        self.tiles = tiles
        self.interpolation = interpolation
    }
}

extension RasterImage: Hashable {
    /// Hashes the size, scale and caps only; equal images also have equal pixels.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pixelWidth)
        hasher.combine(pixelHeight)
        hasher.combine(scale)
        hasher.combine(capInsets)
    }
}

/// How image pixels are sampled when scaled.
public enum Interpolation: String, Hashable, Sendable, Codable, CaseIterable {
    /// The nearest pixel: hard edges, for pixel art.
    case nearest
    /// Linear between the four nearest pixels.
    case bilinear
    /// Good quality: linear when enlarging, box-filtered when shrinking.
    case good
    /// The best cairo offers, and the slowest.
    case best
}

/// Which parts of a self-intersecting shape count as inside.
public enum FillRule: String, Hashable, Sendable, Codable, CaseIterable {
    case nonZero
    case evenOdd
}

/// How a path's outline is drawn.
public struct StrokeStyle: Hashable, Sendable {
    /// How the ends of open lines are drawn: flat at the end, rounded, or squared past it by half the width.
    public enum LineCap: String, Hashable, Sendable, Codable, CaseIterable { case butt, round, square }
    /// How corners between segments are drawn: pointed (up to the miter limit), rounded or cut off.
    public enum LineJoin: String, Hashable, Sendable, Codable, CaseIterable { case miter, round, bevel }

    /// Width in points.
    public var width: Double
    /// How open ends are drawn.
    public var cap: LineCap
    /// How corners are drawn.
    public var join: LineJoin
    /// Above this ratio of miter length to width, a miter join is drawn beveled.
    public var miterLimit: Double
    /// Alternating on and off lengths in points; empty for a solid line.
    public var dash: [Double]
    /// How far into the dash pattern the line starts.
    public var dashPhase: Double

    /// A stroke style; the defaults are a solid 1-point line with butt caps and miter joins.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }
}
