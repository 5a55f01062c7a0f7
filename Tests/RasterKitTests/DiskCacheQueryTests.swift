import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A second component type, so queries by type have something to tell apart.
struct OtherStored: Rasterizable {
    var number: Int
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.black))
    }
}

/// Entries by type and by age, removal and statistics.
@Suite struct DiskCacheQueryTests {
    /// A store holding three `Counted` entries (made 0, 10 and 20 seconds after the start) and
    /// two `OtherStored` ones (made at 30 seconds).
    static func populated(_ fixture: DiskFixture) throws -> (DiskCache, counted: String, other: String) {
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        var counted = "", other = ""
        for label in ["q0", "q1", "q2"] {
            counted = try rasterizer.render(RenderRequest(Counted(label: label, draws: Counter()), size: Size(4))).key.typeName
            fixture.clock.advance(by: 10)
        }
        for number in 0..<2 { other = try rasterizer.render(RenderRequest(OtherStored(number: number), size: Size(4))).key.typeName }
        return (disk, counted, other)
    }

    @Test func entriesByTypeAndByAge() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let (disk, counted, other) = try Self.populated(fixture)
        fixture.clock.advance(by: 5)
        #expect(try disk.entries(typeName: counted).map(\.keyDescription).map { $0.contains("label: q") } == [true, true, true])
        #expect(try disk.entries(typeName: other).count == 2)
        #expect(try disk.entries(typeName: "No.Such.Type").isEmpty)
        // Oldest first; "older than 20 s" means made before 15 s after the start.
        #expect(try disk.entries(olderThan: 20).map(\.keyDescription).map { $0.contains("q0") || $0.contains("q1") } == [true, true])
        #expect(try disk.entries(olderThan: 0).count == 5)
        #expect(try disk.entries(olderThan: 3600).isEmpty)
        #expect(try disk.typeSummaries().map(\.typeName).sorted() == [counted, other].sorted())
        #expect(try disk.typeSummaries().first { $0.typeName == counted }?.count == 3)
    }

    @Test func removeByTypeAndRemoveAll() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let (disk, counted, other) = try Self.populated(fixture)
        let pending = Rasterizer().key(for: Counted(label: "pending", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: pending)
        #expect(try disk.removeAll(where: .typeName(counted)) == 4, "the pending entry is written, then removed with its type")
        #expect(!disk.contains(pending))
        #expect(try disk.entries(typeName: counted).isEmpty && disk.entries(typeName: other).count == 2)
        #expect(try disk.removeAll(where: .typeName(counted)) == 0)
        #expect(try disk.removeAll() == 2)
        let statistics = try disk.statistics
        #expect(statistics.count == 0 && statistics.totalBytes == 0)
    }

    /// A type is named as `rasterkit cache remove --type` users write it: in full, or without its
    /// module when only one module's type has the name. Memory and disk read names alike.
    @Test func typesAreNamedWithOrWithoutTheirModule() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let memory = MemoryCache()
        func key(_ n: UInt64, _ typeName: String) -> CacheKey {
            CacheKey(value: StableDigest(high: 0x9000 + n, low: 0x9000 + n), typeName: typeName, renderVersion: 0, size: nil, scale: 1) { "\(n)" }
        }
        let names = ["AppA.Badge", "AppB.Badge", "AppA.Icon", "RasterKit.Fallback<AppA.Icon, AppA.Badge>", "AppA.Outer.Badge"]
        for (n, name) in names.enumerated() {
            disk.store(try TestSupport.solidImage(.red), for: key(UInt64(n), name))
            memory.insert(try TestSupport.solidImage(.red), for: key(UInt64(n), name))
        }
        for (tier, removeAll) in [("disk", disk.removeAll(where:)), ("memory", memory.removeAll(where:))] {
            #expect(throws: CacheRemovalError.ambiguousTypeName("Badge", candidates: ["AppA.Badge", "AppB.Badge"])) {
                try removeAll(.typeName("Badge"))
            }
            #expect(try removeAll(.typeName("Icon")) == 1)
            #expect(try removeAll(.typeName("Fallback<AppA.Icon, AppA.Badge>")) == 1)
            #expect(try removeAll(.typeName("Outer.Badge")) == 1)
            #expect(try removeAll(.typeName("AppB.Badge")) == 1)
            #expect(try removeAll(.typeName("Badge")) == 1, "once one module's is left, the short name is that one")
            #expect(try removeAll(.typeName("Nothing")) == 0, "\(tier)")
        }
        #expect(try disk.statistics.count == 0 && memory.entries.isEmpty)
    }

    @Test func statisticsCountHitsMissesAndBytes() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let (disk, _, _) = try Self.populated(fixture)
        try disk.flush()
        let rasterizer = Rasterizer()
        #expect(disk.image(for: rasterizer.key(for: OtherStored(number: 0), size: Size(4))) != nil)
        #expect(disk.image(for: rasterizer.key(for: OtherStored(number: 9), size: Size(4))) == nil)
        let statistics = try disk.statistics
        #expect(statistics.count == 5 && statistics.writes == 5 && statistics.pendingWrites == 0)
        #expect(statistics.hits == 1 && statistics.misses == 6, "five misses while rendering, one here")
        #expect(statistics.writeFailures == 0 && statistics.decodeFailures == 0 && statistics.readFailures == 0)
        #expect(statistics.totalBytes == (try disk.entries(olderThan: -1).map(\.byteSize).reduce(0, +)))
    }
}
