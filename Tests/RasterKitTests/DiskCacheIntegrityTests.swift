import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A resizable render at scale 2, so its PNG carries both RasterKit text chunks.
struct CappedPanel: Rasterizable {
    var label: String
    let draws: Counter
    static let stateKeyPaths: [PartialKeyPath<CappedPanel> & Sendable] = [\.label]
    var capInsets: EdgeInsets? { EdgeInsets(all: 3) }

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        // Each label its own colour, so two panels' PNGs differ.
        canvas.fill(Path(rect: Rect(size: size)), with: .color(Color(red: Double(label.count % 8) / 8, green: 0.2, blue: 0.9)))
    }
}

/// Stored PNGs that were damaged or mixed up after they were written (issue 24, finding 5):
/// a checksum bound to the key catches what decoding cannot, and the render is drawn again.
@Suite struct DiskCacheIntegrityTests {
    /// Stores `components`' renders at scale 2 and closes the store.
    func store(_ components: [CappedPanel], in fixture: DiskFixture) throws {
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        for component in components { _ = try rasterizer.image(for: component, size: Size(12), scale: 2) }
        try rasterizer.cache.flush()
        try rasterizer.cache.diskCache?.close()
    }

    /// The stored PNG of every entry, by row id.
    func blobs(_ fixture: DiskFixture) throws -> [Int64: Data] {
        let queue = try StoreFile(path: fixture.url.path)
        defer { queue.close() }
        return try queue.transaction { db in
            try db.rows("SELECT id, png FROM entries").reduce(into: [:]) { $0[$1[0].int64] = $1[1].data }
        }
    }

    func update(_ fixture: DiskFixture, id: Int64, png: Data) throws {
        let queue = try StoreFile(path: fixture.url.path)
        defer { queue.close() }
        try queue.transaction { try $0.execute("UPDATE entries SET png = ? WHERE id = ?", [.blob(png), .integer(id)]) }
    }

    @Test func aFlippedBitInTheScaleChunkIsRedrawnWithTheRightScaleAndCaps() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let panel = CappedPanel(label: "flipped", draws: Counter())
        try store([panel], in: fixture)
        let (id, png) = try #require(try blobs(fixture).first)
        // The value after "rasterkit:scale\0" is "2"; one bit makes it "3". libpng drops the
        // chunk, CRC now wrong, and the image would decode at scale 1.
        let key = Array("rasterkit:scale".utf8) + [0]
        var bytes = Array(png)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: key) })
        #expect(bytes[start + key.count] == UInt8(ascii: "2"))
        bytes[start + key.count] ^= 0x01
        try update(fixture, id: id, png: Data(bytes))
        #expect(try RasterImage(pngData: Data(bytes)).scale == 1, "libpng drops the damaged chunk")

        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let rendered = try rasterizer.render(RenderRequest(panel, size: Size(12), scale: 2))
        #expect(rendered.origin == .drawn && panel.draws.count == 2)
        #expect(rendered.image.scale == 2 && rendered.image.capInsets == EdgeInsets(all: 3))
        #expect(try disk.statistics.integrityFailures == 1)
        #expect(fixture.log.warnings.count == 1 && fixture.log.warnings[0].contains("checksum"), "\(fixture.log.warnings)")
        try disk.flush()
        // The redraw replaced it.
        let later = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let again = try later.render(RenderRequest(panel, size: Size(12), scale: 2))
        #expect(again.origin == .disk && again.image.scale == 2 && again.image.capInsets == EdgeInsets(all: 3))
    }

    @Test func aFlippedBitInTheCapInsetsChunkIsNotServedAsPNGBytesEither() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let panel = CappedPanel(label: "caps", draws: Counter())
        try store([panel], in: fixture)
        let (id, png) = try #require(try blobs(fixture).first)
        let key = Array("rasterkit:cap-insets".utf8) + [0]
        var bytes = Array(png)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: key) })
        bytes[start + key.count] ^= 0x02
        try update(fixture, id: id, png: Data(bytes))

        let disk = try fixture.open()
        let cacheKey = Rasterizer().key(for: panel, size: Size(12), scale: 2)
        // Served as they are, the bytes are never decoded: only the checksum can tell.
        #expect(disk.pngData(for: cacheKey) == nil)
        #expect(try disk.statistics.integrityFailures == 1)
        try disk.flush()
        #expect(!disk.contains(cacheKey), "the damaged entry was deleted")
    }

    @Test func twoSwappedBlobsAreBothRedrawnNotServed() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let first = CappedPanel(label: "first", draws: Counter()), second = CappedPanel(label: "second", draws: Counter())
        try store([first, second], in: fixture)
        let stored = try blobs(fixture)
        #expect(stored.count == 2)
        let ids = Array(stored.keys)
        #expect(stored[ids[0]] != stored[ids[1]])
        // Both are valid PNGs of the same size, scale and caps: only the key tells them apart.
        try update(fixture, id: ids[0], png: stored[ids[1]]!)
        try update(fixture, id: ids[1], png: stored[ids[0]]!)

        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try rasterizer.render(RenderRequest(first, size: Size(12), scale: 2)).origin == .drawn)
        #expect(try rasterizer.render(RenderRequest(second, size: Size(12), scale: 2)).origin == .drawn)
        #expect(first.draws.count == 2 && second.draws.count == 2)
        #expect(try disk.statistics.integrityFailures == 2)
        #expect(fixture.log.warnings.filter { $0.contains("checksum") }.count == 2)
    }

    @Test func anEntryWrittenBeforeChecksumsIsRedrawnQuietly() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let panel = CappedPanel(label: "old", draws: Counter())
        try store([panel], in: fixture)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { try $0.execute("UPDATE entries SET checksum = NULL") }
        queue.close()

        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try rasterizer.render(RenderRequest(panel, size: Size(12), scale: 2)).origin == .drawn)
        #expect(try disk.statistics.integrityFailures == 0 && fixture.log.warnings.isEmpty)
    }

    @Test func aV1StoreIsMigratedAndKeepsWorking() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        // A store as the first release left it: only the v1 migration.
        try DiskCacheSchema.migrate(try SQLiteConnection(fixture.url.path, mode: .readWrite, busyTimeout: 5), upTo: "v1")

        let disk = try fixture.open()
        #expect(fixture.log.warnings.isEmpty && !fixture.files.contains { $0.contains("corrupt") })
        let panel = CappedPanel(label: "after migration", draws: Counter())
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        _ = try rasterizer.image(for: panel, size: Size(12), scale: 2)
        try disk.close()
        let later = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        #expect(try later.render(RenderRequest(panel, size: Size(12), scale: 2)).origin == .disk)
    }
}
