import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A component that asks for its own lifetime in the store.
struct ShortLived: Rasterizable {
    var label: String
    var lifetime: Double?
    let draws: Counter
    static let stateKeyPaths: [PartialKeyPath<ShortLived> & Sendable] = [\.label]
    var diskCacheLifetime: Double? { lifetime }

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.green))
    }
}

/// Lifetimes, the byte limit and `prune()`.
@Suite struct DiskCacheExpiryTests {
    @Test func anExpiredEntryIsAMissAndIsReplaced() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let component = Counted(label: "expiring", draws: Counter())
        let first = Rasterizer(cache: RasterCache(disk: try fixture.open(lifetime: 100)))
        _ = try first.image(for: component, size: Size(4))
        try first.cache.flush()

        fixture.clock.advance(by: 99)
        let disk = try fixture.open(lifetime: 100)
        #expect(try Rasterizer(cache: RasterCache(disk: disk)).render(RenderRequest(component, size: Size(4))).origin == .disk)

        fixture.clock.advance(by: 2)
        let key = first.key(for: component, size: Size(4))
        #expect(!disk.contains(key) && disk.image(for: key) == nil && disk.pngData(for: key) == nil)
        #expect(try disk.statistics.expiredCount == 1)
        let later = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try later.render(RenderRequest(component, size: Size(4))).origin == .drawn)
        #expect(component.draws.count == 2)
        try disk.flush()
        // The redraw replaced the expired entry: one entry, fresh again.
        #expect(try disk.statistics.count == 1 && disk.statistics.expiredCount == 0)
        #expect(disk.contains(key))
    }

    @Test func aComponentsLifetimeOverridesTheDefault() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open(lifetime: 1000)
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let brief = ShortLived(label: "brief", lifetime: 10, draws: Counter())
        let lasting = ShortLived(label: "lasting", lifetime: nil, draws: Counter())
        let never = ShortLived(label: "never", lifetime: 0, draws: Counter())
        for component in [brief, lasting, never] { _ = try rasterizer.image(for: component, size: Size(4)) }
        try disk.flush()
        #expect(try disk.statistics.count == 2, "a lifetime of 0 keeps a render out of the store")
        let infos = try disk.entries(typeName: rasterizer.key(for: brief, size: Size(4)).typeName)
        let lifetimes = Set(infos.map { $0.expires.timeIntervalSince($0.created) })
        #expect(lifetimes == [10, 1000])
        fixture.clock.advance(by: 11)
        #expect(!disk.contains(rasterizer.key(for: brief, size: Size(4))))
        #expect(disk.contains(rasterizer.key(for: lasting, size: Size(4))))
        // Per call, through the store itself.
        let key = rasterizer.key(for: ShortLived(label: "direct", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: key, lifetime: 5)
        fixture.clock.advance(by: 6)
        #expect(!disk.contains(key))
    }

    @Test func theByteLimitEvictsTheLeastRecentlyUsed() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let image = try TestSupport.solidImage(.red, width: 8, height: 8)
        let size = try image.pngData(compression: .fast).count
        // Room for three entries, not four; every hit counts, however recent the last one.
        var options = fixture.options()
        options.touchInterval = 0
        let disk = try fixture.open(byteLimit: size * 3 + size / 2, options: options)
        let rasterizer = Rasterizer()
        let keys = try (0..<4).map { rasterizer.key(for: Counted(label: "lru\($0)", draws: Counter()), size: Size(8)) }
        for key in keys.prefix(3) {
            disk.store(image, for: key)
            fixture.clock.advance(by: 1)
        }
        try disk.flush()
        // The oldest is used again, so the second becomes the least recently used.
        #expect(disk.image(for: keys[0]) != nil)
        fixture.clock.advance(by: 1)
        disk.store(image, for: keys[3])
        try disk.flush()
        #expect(disk.contains(keys[0]) && !disk.contains(keys[1]) && disk.contains(keys[2]) && disk.contains(keys[3]))
        let statistics = try disk.statistics
        #expect(statistics.count == 3 && statistics.evictions == 1 && statistics.totalBytes <= disk.byteLimit)
    }

    @Test func pruneRemovesExpiredThenOverLimitEntries() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let image = try TestSupport.solidImage(.blue, width: 8, height: 8)
        let size = try image.pngData(compression: .fast).count
        let rasterizer = Rasterizer()
        let keys = try (0..<6).map { rasterizer.key(for: Counted(label: "prune\($0)", draws: Counter()), size: Size(8)) }
        do {
            let disk = try fixture.open(lifetime: 50)
            for (index, key) in keys.enumerated() {
                disk.store(image, for: key, lifetime: index < 2 ? 10 : nil)
                fixture.clock.advance(by: 1)
            }
        }
        fixture.clock.advance(by: 20)
        // Reopened with a smaller limit: two entries expired, then room for two of the other four.
        let disk = try fixture.open(byteLimit: size * 2, lifetime: 50)
        let report = try disk.prune()
        #expect(report.expired == 2 && report.evicted == 2 && report.removedCount == 4)
        #expect(report.removedBytes == 4 * size)
        #expect(keys.map(disk.contains) == [false, false, false, false, true, true])
        #expect(try disk.prune() == PruneReport())
    }
}
