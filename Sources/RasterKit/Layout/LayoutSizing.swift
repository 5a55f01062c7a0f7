/// How an element is sized and placed by its stack: fixed lengths, bounds on its length, its
/// share of leftover space, and its own alignment across the stack.
public struct LayoutSizing: Hashable, Sendable {
    /// A fixed width in points; nil lets the content decide.
    public var width: Double?
    /// A fixed height in points; nil lets the content decide.
    public var height: Double?
    /// The narrowest the element is made.
    public var minWidth: Double?
    /// The widest the element is made.
    public var maxWidth: Double?
    /// The shortest the element is made.
    public var minHeight: Double?
    /// The tallest the element is made.
    public var maxHeight: Double?
    /// The element's share of the space its stack has left over along its axis; 0 takes none.
    public var grow: Double
    /// The element's alignment across its stack; nil takes the stack's.
    public var alignment: Stack.Alignment?

    /// Content-sized, growing by `grow`, aligned as its stack says, unless given otherwise.
    public init(width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, maxWidth: Double? = nil,
                minHeight: Double? = nil, maxHeight: Double? = nil, grow: Double = 0,
                alignment: Stack.Alignment? = nil) {
        self.width = width
        self.height = height
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
        self.grow = grow
        self.alignment = alignment
    }

    /// Throws ``LayoutError`` for a length that is negative, not finite or over `maximum`, for a
    /// minimum above its maximum, and for a negative or infinite share.
    func validate(maximum: Double) throws(LayoutError) {
        // One call per field rather than a loop over a list of them: every element is checked
        // in every walk, and the list was an allocation each time.
        func check(_ name: String, _ value: Double?) throws(LayoutError) {
            guard let value else { return }
            guard value.isFinite, value >= 0, value <= maximum else {
                throw .invalidLength(name: name, value: value, maximum: maximum)
            }
        }
        try check("width", width)
        try check("height", height)
        try check("minWidth", minWidth)
        try check("maxWidth", maxWidth)
        try check("minHeight", minHeight)
        try check("maxHeight", maxHeight)
        if let minWidth, let maxWidth, minWidth > maxWidth { throw .minimumAboveMaximum(axis: "width", minWidth, maxWidth) }
        if let minHeight, let maxHeight, minHeight > maxHeight {
            throw .minimumAboveMaximum(axis: "height", minHeight, maxHeight)
        }
        guard grow.isFinite, grow >= 0 else { throw .invalidGrow(grow) }
    }

    /// The fixed length on an axis.
    func fixed(_ axis: LayoutAxis) -> Double? { axis == .horizontal ? width : height }
    /// The lower bound on an axis.
    func minimum(_ axis: LayoutAxis) -> Double? { axis == .horizontal ? minWidth : minHeight }
    /// The upper bound on an axis.
    func maximum(_ axis: LayoutAxis) -> Double? { axis == .horizontal ? maxWidth : maxHeight }

    /// `length` within the bounds on `axis` (the minimum wins over the maximum only when
    /// validation did not run, which it always does first).
    func clamp(_ length: Double, _ axis: LayoutAxis) -> Double {
        var result = length
        if let maximum = maximum(axis) { result = min(result, maximum) }
        if let minimum = minimum(axis) { result = max(result, minimum) }
        return result
    }
}

/// The two axes lengths are measured along.
enum LayoutAxis {
    case horizontal, vertical

    var other: LayoutAxis { self == .horizontal ? .vertical : .horizontal }
}

/// Which way a layout runs: stacks place their children from the leading edge, which is the
/// left in `ltr` and the right in `rtl`.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left: rows run from the right, and `start` alignment is the right edge.
    case rtl
}

/// Why a layout cannot be measured or drawn.
public enum LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A length is negative, not finite, or longer than the longest side RasterKit draws.
    case invalidLength(name: String, value: Double, maximum: Double)
    /// A minimum is above the maximum on the same axis.
    case minimumAboveMaximum(axis: String, Double, Double)
    /// A share of leftover space is negative or not finite.
    case invalidGrow(Double)
    /// A stack holds more children than ``Stack/maximumChildren``.
    case tooManyChildren(Int, limit: Int)
    /// Stacks are nested deeper than ``Stack/maximumDepth``.
    case nestedTooDeeply(limit: Int)

    /// The problem, with the values at fault.
    public var description: String {
        switch self {
        case let .invalidLength(name, value, maximum):
            "\(name) must be a length from 0 to \(maximum.compactDescription) points, not \(value)"
        case let .minimumAboveMaximum(axis, minimum, maximum):
            "the minimum \(axis) \(minimum.compactDescription) is above the maximum \(maximum.compactDescription)"
        case .invalidGrow(let value): "grow must be 0 or more, not \(value)"
        case let .tooManyChildren(count, limit): "a stack holds \(count) children; the limit is \(limit)"
        case .nestedTooDeeply(let limit): "stacks are nested more than \(limit) deep"
        }
    }
}

extension LayoutSizing {
    /// `length`, measured, rounded up to whole points, less a thousandth of a point of
    /// measuring noise (which does not make another point): the length a measured layout is
    /// drawn at. At any whole scale its points then fall on whole pixels. A canvas of a
    /// fractional size stretches its points onto whole pixels, and text measured under that
    /// stretch can come out a fraction of a point wider than it was measured, and be cut with
    /// an ellipsis.
    package static func wholePoints(_ length: Double) -> Double {
        (length - 1e-3).rounded(.up)
    }
}
