/// How much difference a comparison may find and still pass, counted in pixels.
///
/// `threshold` decides per pixel whether two colours differ (it is pixelmatch's threshold);
/// the limits then decide whether the number of different pixels is acceptable. A limit left
/// out does not apply; with neither limit, no pixel may differ. With both, both must hold.
///
/// ```swift
/// let tolerance = Tolerance(maxDifferentPixels: 10)      // up to 10 pixels may change
/// let result = try ImageDiff.compare(golden, rendered, options: tolerance.options())
/// #expect(tolerance.accepts(result))
/// ```
public struct Tolerance: Hashable, Sendable {
    /// Per-pixel colour threshold, 0...1, passed to pixelmatch.
    public var threshold: Double
    /// The most pixels that may differ, or nil for no limit on the count.
    public var maxDifferentPixels: Int?
    /// The largest fraction of all pixels, 0...1, that may differ, or nil for no limit on it.
    public var maxDifferentRatio: Double?
    /// Counts anti-aliased pixels as differences instead of excusing them.
    public var includeAA: Bool
    /// Which pixels are excused as anti-aliasing; by default only those whose colour is a blend
    /// of their neighbours' in both images (``ImageDiff/AntiAliasingRule/color``), so that a
    /// wrong colour on an edge is a difference.
    public var antiAliasing: ImageDiff.AntiAliasingRule

    /// A tolerance; by default pixelmatch's threshold 0.1, anti-aliasing excused only where its
    /// colour is a blend of its neighbours', and not one different pixel.
    public init(threshold: Double = 0.1, maxDifferentPixels: Int? = nil, maxDifferentRatio: Double? = nil,
                includeAA: Bool = false, antiAliasing: ImageDiff.AntiAliasingRule = .color) {
        self.threshold = threshold
        self.maxDifferentPixels = maxDifferentPixels
        self.maxDifferentRatio = maxDifferentRatio
        self.includeAA = includeAA
        self.antiAliasing = antiAliasing
    }

    /// Every pixel must match in colour exactly, anti-aliased ones included. Fully transparent
    /// pixels still match whatever colour they carry, since they look the same.
    public static let exact = Tolerance(threshold: 0, includeAA: true)

    /// `base` with this tolerance's `threshold`, `includeAA` and `antiAliasing`, to compare with.
    public func options(_ base: ImageDiff.Options = .init()) -> ImageDiff.Options {
        var options = base
        options.threshold = threshold
        options.includeAA = includeAA
        options.antiAliasing = antiAliasing
        return options
    }

    /// Whether `result` is within the limits that are set. Reaching a limit exactly still passes.
    public func accepts(_ result: ImageDiff.Result) -> Bool {
        if maxDifferentPixels == nil, maxDifferentRatio == nil { return result.differentPixels == 0 }
        return result.differentPixels <= (maxDifferentPixels ?? .max) && result.ratio <= (maxDifferentRatio ?? 1)
    }
}
