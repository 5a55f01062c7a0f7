import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A second component type, so removal by type has something to leave alone.
struct OtherInked: Rasterizable {
    var label: String
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.green))
    }
}

/// Removing one key, a type or everything older than an age, from memory and disk, in this
/// process and from another one.
@Suite struct CacheRemovalTests {
    let size = Size(8)

    @Test func removingAKeyRemovesItFromBothTiers() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let draws = Counter()
        let badge = Inked(label: "a", ink: Ink(), draws: draws)
        let kept = Inked(label: "b", ink: Ink(), draws: draws)
        let key = rasterizer.key(for: badge, size: size)
        _ = try rasterizer.image(for: badge, size: size)
        _ = try rasterizer.image(for: kept, size: size)
        try rasterizer.cache.flush()
        #expect(try rasterizer.cache.remove(key))
        #expect(!rasterizer.cache.memory.contains(key) && rasterizer.cache.disk?.contains(key) == false)
        #expect(rasterizer.cache.memory.contains(rasterizer.key(for: kept, size: size)))
        #expect(try rasterizer.render(RenderRequest(badge, size: size)).origin == .drawn)
        #expect(try rasterizer.render(RenderRequest(kept, size: size)).origin == .memory)
        #expect(draws.count == 3)
        try rasterizer.cache.flush()
        #expect(try rasterizer.cache.remove(key))
        #expect(try !rasterizer.cache.remove(key))  // nothing left to remove
    }

    @Test func removingAKeyDiscardsAPendingDiskWrite() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let badge = Inked(label: "pending", ink: Ink(), draws: Counter())
        let key = rasterizer.key(for: badge, size: size)
        _ = try rasterizer.image(for: badge, size: size)
        #expect(disk.contains(key))  // waiting in the writer
        #expect(try disk.remove(key))
        try disk.flush()
        #expect(!disk.contains(key))
        #expect(try disk.statistics.count == 0)
    }

    @Test func removingByTypeTouchesOnlyThatType() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        for label in ["a", "b", "c"] { _ = try rasterizer.image(for: Inked(label: label, ink: Ink(), draws: Counter()), size: size) }
        for label in ["x", "y"] { _ = try rasterizer.image(for: OtherInked(label: label), size: size) }
        try rasterizer.cache.flush()
        let typeName = rasterizer.key(for: Inked(label: "a", ink: Ink(), draws: Counter()), size: size).typeName
        let report = try rasterizer.cache.removeAll(where: .typeName(typeName))
        #expect(report.memory == 3 && report.disk == 3)
        #expect(rasterizer.cache.memory.statistics.count == 2)
        #expect(try rasterizer.cache.diskCache?.statistics.count == 2)
        #expect(rasterizer.cache.memory.entries.allSatisfy { $0.key.typeName != typeName })
        #expect(try rasterizer.cache.removeAll(where: .typeName("No.Such.Type")) == RasterCache.RemovalReport())
    }

    @Test func removingByAgeUsesEachTiersStoredTime() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let clock = fixture.clock
        let memory = MemoryCache(costLimit: 1 << 20, itemCostLimit: nil, clock: { clock.now })
        let cache = RasterCache(memory: memory, disk: try fixture.open())
        let rasterizer = Rasterizer(cache: cache)
        let old = Inked(label: "old", ink: Ink(), draws: Counter())
        let young = Inked(label: "young", ink: Ink(), draws: Counter())
        _ = try rasterizer.image(for: old, size: size)
        try cache.flush()
        clock.advance(by: 3_600)
        _ = try rasterizer.image(for: young, size: size)
        try cache.flush()
        clock.advance(by: 60)

        let report = try cache.removeAll(where: .olderThan(1_800))
        #expect(report.memory == 1 && report.disk == 1)
        let youngKey = rasterizer.key(for: young, size: size)
        #expect(memory.entries.map(\.key) == [youngKey])
        #expect(cache.disk?.contains(rasterizer.key(for: old, size: size)) == false && cache.disk?.contains(youngKey) == true)
        // Nothing is older than two hours now; everything is older than zero seconds.
        #expect(try cache.removeAll(where: .olderThan(7_200)) == RasterCache.RemovalReport())
        let everything = try cache.removeAll(where: .olderThan(0))
        #expect(everything.memory == 1 && everything.disk == 1)
    }

    @Test func badFiltersAndDigestsAreRefusedBeforeAnythingIsRemoved() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        _ = try rasterizer.image(for: OtherInked(label: "kept"), size: size)
        try rasterizer.cache.flush()
        for filter: CacheEntryFilter in [.typeName(""), .olderThan(-1), .olderThan(.nan), .olderThan(.infinity),
                                         .olderThan(-.infinity)] {
            #expect(throws: CacheRemovalError.self, "\(filter)") { try rasterizer.cache.removeAll(where: filter) }
            #expect(throws: CacheRemovalError.self) { try rasterizer.cache.memory.removeAll(where: filter) }
            #expect(throws: CacheRemovalError.self) { try rasterizer.cache.disk?.removeAll(where: filter) }
        }
        let disk = try #require(rasterizer.cache.diskCache)
        for digest in ["", "xyz", String(repeating: "a", count: 31), String(repeating: "a", count: 33),
                       "+" + String(repeating: "a", count: 31), String(repeating: "g", count: 32), "0x" + String(repeating: "0", count: 30),
                       String(repeating: "é", count: 16)] {
            #expect(throws: CacheRemovalError.invalidDigest(digest)) { try disk.remove(digest: digest) }
        }
        #expect(try !disk.remove(digest: String(repeating: "A", count: 32)))  // valid, just absent
        #expect(try rasterizer.cache.memory.statistics.count == 1 && disk.statistics.count == 1)
        #expect("\(CacheRemovalError.invalidAge(-1))".contains("-1.0"))
    }

    @Test func aKeyRemovedByAnotherProcessIsMissedHere() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try DiskCache(at: fixture.url)
        let writer = Rasterizer(cache: RasterCache(disk: disk))
        let draws = Counter()
        let badge = Inked(label: "shared", ink: Ink(), draws: draws)
        let other = Inked(label: "other", ink: Ink(), draws: draws)
        let key = writer.key(for: badge, size: size)
        _ = try writer.image(for: badge, size: size)
        _ = try writer.image(for: other, size: size)
        try disk.flush()

        let run = try DiskProbe.run(["store-remove", fixture.url.path, key.digest])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.values["removed"] == 1)
        #expect(!disk.contains(key) && disk.contains(writer.key(for: other, size: size)))
        // Memory is this process's own: it still serves the image until removed here too.
        #expect(try writer.render(RenderRequest(badge, size: size)).origin == .memory)
        let fresh = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try fresh.render(RenderRequest(badge, size: size)).origin == .drawn)
        #expect(try fresh.render(RenderRequest(other, size: size)).origin == .disk)
        #expect(draws.count == 3)
        #expect(try DiskProbe.run(["store-remove", fixture.url.path, "not-a-digest"]).status == 1)
    }
}
