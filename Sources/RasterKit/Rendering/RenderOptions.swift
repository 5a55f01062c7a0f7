/// How one ``RenderRequest`` uses the cache tiers, as Nuke's request options do: force a
/// redraw, or keep a huge one-off render out of memory. (To ask the cache only, use
/// ``Rasterizer/cachedRender(_:)``.)
///
/// ```swift
/// try rasterizer.render(RenderRequest(poster, size: size, scale: 2, options: .disableMemoryCacheWrites))
/// try rasterizer.render(RenderRequest(badge, size: size, options: .reloadIgnoringCachedData))   // draw again, replace both tiers
/// ```
///
/// Requests for one key with different options share one draw when the draw serves them all:
/// a request joins a queued render (which then reads no tier any of its requests disabled) and
/// a running one (but looks again on its own if that render's image came from a tier the
/// request disabled). A ``reloadIgnoringCachedData`` request never joins a render that started
/// before it: it draws anew, and the render it passed over stores nothing. A tier is written
/// when any request sharing the draw writes it.
public struct RenderOptions: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: UInt8

    /// Options from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Draws again without reading either tier, and replaces what the tiers hold (unless their
    /// writes are disabled too).
    public static let reloadIgnoringCachedData = RenderOptions(rawValue: 1 << 0)
    /// Does not look in memory.
    public static let disableMemoryCacheReads = RenderOptions(rawValue: 1 << 1)
    /// Does not keep the result in memory (a disk hit is not promoted either).
    public static let disableMemoryCacheWrites = RenderOptions(rawValue: 1 << 2)
    /// Does not look in the disk store.
    public static let disableDiskCacheReads = RenderOptions(rawValue: 1 << 3)
    /// Does not write the result to the disk store.
    public static let disableDiskCacheWrites = RenderOptions(rawValue: 1 << 4)
    /// The tiers a request with these options may read.
    var readTiers: CacheTiers {
        if contains(.reloadIgnoringCachedData) { return [] }
        var tiers = CacheTiers.all
        if contains(.disableMemoryCacheReads) { tiers.remove(.memory) }
        if contains(.disableDiskCacheReads) { tiers.remove(.disk) }
        return tiers
    }

    /// The tiers a request with these options writes its result to.
    var writeTiers: CacheTiers {
        var tiers = CacheTiers.all
        if contains(.disableMemoryCacheWrites) { tiers.remove(.memory) }
        if contains(.disableDiskCacheWrites) { tiers.remove(.disk) }
        return tiers
    }

    /// Whether a request with these options may take an image that came from `origin`: not one
    /// served from a tier it must not read. A request that joined a running render whose image
    /// came from such a tier looks again on its own.
    func accepts(_ origin: RenderedImage.Origin) -> Bool {
        switch origin {
        case .memory: readTiers.contains(.memory)
        case .disk, .remote: readTiers.contains(.disk)
        default: true
        }
    }
}

/// The two cache tiers, as a set: which a request reads, which a render wrote.
struct CacheTiers: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let memory = CacheTiers(rawValue: 1 << 0)
    static let disk = CacheTiers(rawValue: 1 << 1)
    static let all: CacheTiers = [.memory, .disk]
}

/// What a shared render does, merged from the options of the requests that share it.
struct RenderPlan: Sendable {
    /// Tiers the render may serve from before drawing.
    var reads: CacheTiers
    /// Tiers the drawn result is written to.
    var writes: CacheTiers

    init(_ options: RenderOptions) {
        reads = options.readTiers
        writes = options.writeTiers
    }

    /// The plan serving both this plan's requests and one with `options`.
    mutating func merge(_ options: RenderOptions) {
        reads.formIntersection(options.readTiers)
        writes.formUnion(options.writeTiers)
    }

    /// Whether a request with `options` may join a render already running with this plan: any
    /// request but a reload, which must not take a result that may predate it. The result is
    /// then checked with ``RenderOptions/accepts(_:)``.
    func serves(_ options: RenderOptions) -> Bool {
        !options.contains(.reloadIgnoringCachedData)
    }
}
