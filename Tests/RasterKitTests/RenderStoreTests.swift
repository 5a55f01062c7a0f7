import Foundation
import Testing
@testable import RasterKit

/// A persistent tier of another kind than `DiskCache`: renders kept in a dictionary, in the
/// process. What it returns for a key is whatever was put there, forged renders included, so the
/// tests can check that the cache, not the store, decides what is served.
private final class DictionaryStore: RenderStore {
    private struct State {
        var renders: [CacheKey: StoredRender] = [:]
        var discarded: [(key: CacheKey, reason: String)] = []
        var removalFilters: [CacheEntryFilter] = []
    }
    private let state = Lock(State())

    var discarded: [(key: CacheKey, reason: String)] { state.withLock { $0.discarded } }
    var removalFilters: [CacheEntryFilter] { state.withLock { $0.removalFilters } }
    var count: Int { state.withLock { $0.renders.count } }

    /// Puts `render` under `key` as someone else's store might hold it.
    func plant(_ render: StoredRender, for key: CacheKey) { state.withLock { $0.renders[key] = render } }

    func storedRender(for key: CacheKey) -> StoredRender? { state.withLock { $0.renders[key] } }
    func contains(_ key: CacheKey) -> Bool { state.withLock { $0.renders[key] != nil } }
    func store(_ render: StoredRender, for key: CacheKey, lifetime: TimeInterval?) {
        guard (lifetime ?? 1) > 0 else { return }
        state.withLock { $0.renders[key] = render }
    }
    func discard(_ render: StoredRender, for key: CacheKey, reason: String) {
        state.withLock { state in
            state.discarded.append((key, reason))
            state.renders[key] = nil
        }
    }
    func flush() throws {}
    func startWriting() {}
    func remove(_ key: CacheKey) throws -> Bool { state.withLock { $0.renders.removeValue(forKey: key) != nil } }
    func removeAll(where filter: CacheEntryFilter) throws -> Int {
        try filter.validate()
        return try state.withLock { state in
            state.removalFilters.append(filter)
            let resolved = try filter.resolvedTypeName(among: state.renders.keys.map(\.typeName))
            let picked = state.renders.keys.filter { filter.matches($0, stored: 0, now: 0, resolvedTypeName: resolved) }
            for key in picked { state.renders[key] = nil }
            return picked.count
        }
    }
}

/// Issue 42: the persistent tier is a seam (`RenderStore`), with `DiskCache` its SQLite
/// implementation; the checks that keep a store's renders honest belong to the cache.
@Suite struct RenderStoreTests {
    private func rasterizer(over store: some RenderStore, limits: ResourceLimits = .default) -> Rasterizer {
        Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: store, respondsToMemoryPressure: false), limits: limits)
    }

    private func png(width: Int, height: Int, scale: Double = 1) throws -> Data {
        try image(width: width, height: height, scale: scale).pngData()
    }

    private func image(width: Int, height: Int, scale: Double = 1) throws -> RasterImage {
        try RasterImage(size: Size(width: Double(width) / scale, height: Double(height) / scale), scale: scale) { canvas in
            canvas.fillAll(with: .color(.green))
        }
    }

    @Test func aStoreOfAnotherKindIsTheDiskTier() throws {
        let store = DictionaryStore(), draws = Counter()
        let component = Counted(label: "kept", draws: draws)
        let drawn = try rasterizer(over: store).render(RenderRequest(component, size: Size(24), scale: 2))
        #expect(drawn.origin == .drawn && store.count == 1)

        // Another process's rasterizer (empty memory) over the same store serves it from there.
        let served = try rasterizer(over: store).render(RenderRequest(component, size: Size(24), scale: 2))
        #expect(served.origin == .disk && draws.count == 1)
        #expect(served.image.hasSamePixels(as: drawn.image))
        #expect(store.discarded.isEmpty)
    }

    @Test func whatAStoreHandsBackIsCheckedBeforeItIsUsed() throws {
        var limits = ResourceLimits.default
        limits.pixels = PixelLimits(maximumSide: 64, maximumPixelCount: 64 * 64)
        // A PNG header claiming 16384² (IHDR only: decoding it would need 1 GiB).
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        huge.append(contentsOf: [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        let forgeries: [(String, StoredRender)] = [
            ("a PNG of another size", StoredRender(png: try png(width: 48, height: 48))),
            ("a PNG at another scale", StoredRender(png: try png(width: 24, height: 24, scale: 2))),
            ("pixels of another size", StoredRender(image: try image(width: 12, height: 12))),
            ("a header over the pixel limits", StoredRender(png: huge)),
            ("bytes that are no PNG", StoredRender(png: Data("not a png".utf8))),
        ]
        for (what, forged) in forgeries {
            let store = DictionaryStore(), draws = Counter()
            let component = Counted(label: what, draws: draws)
            let rasterizer = rasterizer(over: store, limits: limits)
            let key = rasterizer.key(for: component, size: Size(24), scale: 1)
            store.plant(forged, for: key)

            let rendered = try rasterizer.render(RenderRequest(component, size: Size(24), scale: 1))
            #expect(rendered.origin == .drawn && rendered.image.pixelWidth == 24, "\(what)")
            #expect(store.discarded.map(\.key) == [key], "\(what)")
            // The render drawn instead replaced it.
            #expect(store.storedRender(for: key)?.image?.pixelWidth == 24, "\(what)")
        }
    }

    @Test func aLookupByKeyAloneChecksTheScaleAndTheLimits() throws {
        let store = DictionaryStore()
        let key = Rasterizer().key(for: Counted(label: "by key", draws: Counter()), size: Size(24), scale: 2)
        store.plant(StoredRender(png: try png(width: 48, height: 48, scale: 1)), for: key)
        #expect(store.image(for: key) == nil)
        #expect(store.discarded.count == 1 && store.discarded[0].reason.contains("scale"))

        store.plant(StoredRender(png: try png(width: 48, height: 48, scale: 2)), for: key)
        #expect(store.image(for: key)?.pixelWidth == 48)
    }

    @Test func removalsReachTheStoreOnlyWithAFilterThatCanRun() throws {
        let store = DictionaryStore()
        let rasterizer = rasterizer(over: store)
        _ = try rasterizer.render(RenderRequest(Counted(label: "a", draws: Counter()), size: Size(8)))
        _ = try rasterizer.render(RenderRequest(Counted(label: "b", draws: Counter()), size: Size(8)))
        #expect(throws: CacheRemovalError.emptyTypeName) { try rasterizer.cache.removeAll(where: .typeName("")) }
        #expect(store.removalFilters.isEmpty && store.count == 2)

        let report = try rasterizer.cache.removeAll(where: .typeName("Counted"))
        #expect(report.disk == 2 && report.memory == 2 && store.count == 0)
    }

    @Test func theDiskCacheKeepsARenderKnownOnlyByItsPNGAndDiscardsWhatTheCacheRefuses() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let key = Rasterizer().key(for: Counted(label: "png only", draws: Counter()), size: Size(24), scale: 2)
        let png = try png(width: 48, height: 48, scale: 2)
        disk.store(StoredRender(png: png, pngEncoding: "test"), for: key, lifetime: nil)
        // Served while waiting to be written, and once written, as the same bytes.
        #expect(disk.storedRender(for: key)?.png == png && disk.storedRender(for: key)?.image == nil)
        try disk.flush()
        #expect(disk.storedRender(for: key)?.png == png && disk.storedRender(for: key)?.pngEncoding == "test")
        #expect(disk.image(for: key)?.pixelWidth == 48)

        // Bytes without a PNG header are not stored at all.
        let other = Rasterizer().key(for: Counted(label: "no png", draws: Counter()), size: Size(24), scale: 2)
        disk.store(StoredRender(png: Data("not a png".utf8)), for: other, lifetime: nil)
        try disk.flush()
        #expect(!disk.contains(other))

        // A render the cache refuses is removed and counted as a miss, not a hit.
        let before = try disk.statistics
        let stored = try #require(disk.storedRender(for: key))
        disk.discard(stored, for: key, reason: "refused by the test")
        try disk.flush()
        let after = try disk.statistics
        #expect(!disk.contains(key))
        #expect(after.hits == before.hits && after.misses == before.misses + 1 && after.decodeFailures == before.decodeFailures + 1)
    }

    @Test func aRenderWithAnOutdatedComponentInsideIsRefusedWhateverTheStore() throws {
        let store = DictionaryStore()
        let rasterizer = rasterizer(over: store)
        let box = VersionedBox(number: 3)
        let key = rasterizer.key(for: box, size: Size(8))
        _ = rasterizer.key(for: VersionedLeaf(number: 0), size: Size(4))   // makes the leaf type known
        let leaf = String(reflecting: VersionedLeaf.self)
        // Drawn by a build whose leaf was at render version 1 (this build's is 2).
        store.plant(StoredRender(image: try image(width: 8, height: 8),
                                 children: [ComponentVersion(typeName: leaf, renderVersion: 1)]), for: key)
        #expect(try rasterizer.render(RenderRequest(box, size: Size(8))).origin == .drawn)
        #expect(store.discarded.map(\.key) == [key] && store.discarded[0].reason.contains("older render version"))
        #expect(store.storedRender(for: key)?.children == [ComponentVersion(typeName: leaf, renderVersion: 2)])
    }

    @Test func aRefusedRenderStillWaitingToBeWrittenIsNeverWritten() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()   // batches wait a minute unless flushed
        let key = Rasterizer().key(for: Counted(label: "waiting", draws: Counter()), size: Size(24), scale: 1)
        // Pixels of another size than the key's, as a rasterizer with other limits could leave.
        disk.store(StoredRender(image: try image(width: 12, height: 12)), for: key, lifetime: nil)
        let rasterizer = rasterizer(over: disk)
        // A cache-only request: refused, and gone from the queue at once.
        #expect(try rasterizer.cachedRender(RenderRequest(Counted(label: "waiting", draws: Counter()), size: Size(24), scale: 1)) == nil)
        #expect(!disk.contains(key))
        try disk.flush()
        #expect(!disk.contains(key))
        #expect(try disk.statistics.decodeFailures == 1)
    }
}
