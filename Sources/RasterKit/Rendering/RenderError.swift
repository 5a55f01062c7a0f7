/// Why a render could not be made.
public enum RenderError: Error, Sendable, CustomStringConvertible {
    /// A size that is zero, negative, NaN or infinite.
    case invalidSize(Size)
    /// A scale that is zero, negative, NaN or infinite.
    case invalidScale(Double)
    /// The surface would exceed the configured ``PixelLimits``.
    case surfaceTooLarge(pixelWidth: Int, pixelHeight: Int, limits: PixelLimits)
    /// cairo reported an error status.
    case cairo(status: String, context: String)
    /// A library that draws (cairo) could not be loaded: not installed, or too old.
    case libraryUnavailable(reason: String)
    /// Nine-slice insets that are negative, NaN or infinite, or too large for the size.
    case invalidCapInsets(EdgeInsets, reason: String)
    /// A component nested itself (directly or not) deeper than the nesting limit.
    case nestingTooDeep(typeName: String, depth: Int)
    /// The render's surfaces would not fit in the process's ``ResourceLimits/memoryBudget``, even
    /// with no other render holding memory.
    case memoryBudgetExceeded(requested: Int, budget: Int)
    /// The render ran longer than ``ResourceLimits/timeLimit``.
    case timeLimitExceeded(seconds: Double)
    /// A value over one of the ``ResourceLimits``, such as a shadow blurred over more points than allowed.
    case limitExceeded(what: String, value: String, limit: String)
    /// A component's `draw` threw; `key` says which state was being drawn.
    case drawFailed(typeName: String, key: CacheKey, underlying: any Error)
    /// ``RenderOptions`` that no request can honour, such as a cache-only request (``Rasterizer/cachedRender(_:)``) that may read no tier.
    case conflictingOptions(RenderOptions, reason: String)

    /// What failed and why, with the limit or the state when there is one.
    public var description: String {
        switch self {
        case .invalidSize(let size):
            "invalid size \(size): both sides must be finite and greater than zero"
        case .invalidScale(let scale):
            "invalid scale \(scale): must be finite and greater than zero"
        case let .surfaceTooLarge(width, height, limits):
            "a \(width)×\(height) pixel surface exceeds the limit of \(limits.maximumSide) pixels a side "
                + "and \(limits.maximumPixelCount) pixels in all"
        case let .cairo(status, context):
            "cairo error while \(context): \(status)"
        case .libraryUnavailable(let reason):
            reason
        case let .invalidCapInsets(insets, reason):
            "invalid cap insets \(insets): \(reason)"
        case let .nestingTooDeep(typeName, depth):
            "\(typeName) nests components more than \(depth) levels deep (a component that contains itself?)"
        case let .memoryBudgetExceeded(requested, budget):
            "the render needs \(requested >> 20) MiB of pixels, more than the memory budget of \(budget >> 20) MiB"
        case .timeLimitExceeded(let seconds):
            "the render took longer than its time limit of \(seconds.compactDescription) s"
        case let .limitExceeded(what, value, limit):
            "\(what) \(value) is over the limit of \(limit)"
        case let .drawFailed(typeName, key, underlying):
            "drawing \(typeName) failed for \(key): \(underlying)"
        case let .conflictingOptions(options, reason):
            "render options \(options.rawValue) conflict: \(reason)"
        }
    }
}

/// The largest surface RasterKit will allocate, checked before any allocation.
public struct PixelLimits: Hashable, Sendable {
    /// The longest side, in pixels.
    public var maximumSide: Int
    /// Width × height, in pixels.
    public var maximumPixelCount: Int

    /// Limits with the given values; the defaults are 16,384 pixels a side and 268 million pixels in all.
    public init(maximumSide: Int = 16_384, maximumPixelCount: Int = 268_435_456) {
        self.maximumSide = maximumSide
        self.maximumPixelCount = maximumPixelCount
    }

    /// 16,384 pixels a side and 268 million pixels in all.
    public static let `default` = PixelLimits()

    /// Throws unless a `width` × `height` pixel surface is allowed.
    func check(pixelWidth width: Int, pixelHeight height: Int) throws {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide,
              !overflow, count <= maximumPixelCount
        else { throw RenderError.surfaceTooLarge(pixelWidth: width, pixelHeight: height, limits: self) }
    }
}
