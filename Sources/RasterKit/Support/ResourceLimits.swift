/// How much time and memory one piece of input may make RasterKit spend: the one policy every
/// input is checked against **before** work on it starts, so that hostile or broken input (an SVG
/// whose entities expand a thousandfold, a manifest asking for a shadow blurred over a million
/// points, a PNG whose header claims gigabytes) fails with a typed error for that input alone
/// instead of exhausting the process.
///
/// The defaults suit assets a team draws itself; ``untrusted`` is stricter, for servers rendering
/// what strangers ask for. `SECURITY.md` explains each limit.
///
/// ```swift
/// var limits = ResourceLimits.untrusted
/// limits.memoryBudget = 512 << 20
/// let rasterizer = Rasterizer(cache: RasterCache(), limits: limits)
/// ```
public struct ResourceLimits: Hashable, Sendable {
    /// The largest surface a draw may allocate, checked for every surface: the render's own and
    /// each intermediate one (shadow layers and masks, groups, stretched and decoded images).
    public var pixels: PixelLimits
    /// The largest file RasterKit reads: SVGs, PNGs, manifests, indexes and store exports.
    public var maximumInputBytes: Int
    /// The most characters of text an SVG may draw, counted after its entities are expanded.
    public var maximumSVGTextCharacters: Int
    /// The most bytes an SVG may expand to through its entity declarations.
    public var maximumSVGExpandedBytes: Int
    /// The most copies an SVG's `<use>` references may make of any element, counted through
    /// `<use>` elements that refer to others: librsvg draws every copy in one call.
    public var maximumSVGUseCopies: Int
    /// The largest shadow blur radius, in points.
    public var maximumShadowBlur: Double
    /// The largest shadow offset in either direction, in points.
    public var maximumShadowOffset: Double
    /// The longest string a manifest may hold once its variables are expanded, in UTF-8 bytes:
    /// a variable's expansion and a text layer's text.
    public var maximumInterpolatedLength: Int
    /// The largest ancillary (text or metadata) chunk a PNG may carry.
    public var maximumPNGChunkBytes: Int
    /// Bytes of pixel memory the renders of one ``Rasterizer`` may hold at once while they draw
    /// (their surfaces, shadow layers and masks; finished images count against the cache's own
    /// limit instead); nil for no budget. A render that would go over waits for others to
    /// finish; one that cannot fit even alone fails with
    /// ``RenderError/memoryBudgetExceeded(requested:budget:)``.
    public var memoryBudget: Int?
    /// How long one render may draw before it stops with ``RenderError/timeLimitExceeded(seconds:)``;
    /// nil for no limit. Checked between drawing operations, so one operation finishes first.
    public var timeLimit: Double?

    /// Limits with the given values; every default is that of ``default``, which suits assets
    /// a team draws itself (`SECURITY.md` lists them).
    public init(pixels: PixelLimits = .default, maximumInputBytes: Int = 64 << 20,
                maximumSVGTextCharacters: Int = 100_000, maximumSVGExpandedBytes: Int = 16 << 20,
                maximumShadowBlur: Double = 1_000, maximumShadowOffset: Double = 16_384,
                maximumInterpolatedLength: Int = 1 << 20, maximumPNGChunkBytes: Int = 8 << 20,
                memoryBudget: Int? = ResourceLimits.defaultMemoryBudget, timeLimit: Double? = nil,
                maximumSVGUseCopies: Int = 4_096) {
        self.pixels = pixels
        self.maximumInputBytes = maximumInputBytes
        self.maximumSVGTextCharacters = maximumSVGTextCharacters
        self.maximumSVGExpandedBytes = maximumSVGExpandedBytes
        self.maximumSVGUseCopies = maximumSVGUseCopies
        self.maximumShadowBlur = maximumShadowBlur
        self.maximumShadowOffset = maximumShadowOffset
        self.maximumInterpolatedLength = maximumInterpolatedLength
        self.maximumPNGChunkBytes = maximumPNGChunkBytes
        self.memoryBudget = memoryBudget
        self.timeLimit = timeLimit
    }

    /// Limits for assets a team draws itself.
    public static let `default` = ResourceLimits()

    /// Stricter limits for input from people you do not know (a public render server): 4 million
    /// pixels a surface, 4 MiB files, 10,000 characters of SVG text, 10 seconds a render.
    public static let untrusted = ResourceLimits(
        pixels: PixelLimits(maximumSide: 8_192, maximumPixelCount: 4 << 20), maximumInputBytes: 4 << 20,
        maximumSVGTextCharacters: 10_000, maximumSVGExpandedBytes: 4 << 20, maximumShadowBlur: 200,
        maximumShadowOffset: 2_048, maximumInterpolatedLength: 64 << 10, maximumPNGChunkBytes: 1 << 20,
        timeLimit: 10, maximumSVGUseCopies: 1_024)

    /// Half of the memory the process may use (its cgroup's limit, or the machine's memory).
    public static let defaultMemoryBudget: Int? = SystemMemory.available.map { $0 / 2 }
}
