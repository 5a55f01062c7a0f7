import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Moving a render store to another machine: export to one file, import on another path, and
/// a batch into a fresh folder there draws nothing (issue 16); damaged files and entries refused.
@Suite struct DiskCacheTransferTests {
    @Test func exportThenImportElsewhereServesAFreshFolderWithoutDrawing() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(BatchFreshFolderTests.manifest).plan(format: .ninepatch)
        let original = fixture.folder.appendingPathComponent("machine-a/renders.sqlite")
        try FileManager.default.createDirectory(at: original.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (cold, _, _) = try BatchFreshFolderTests.run(plan, into: fixture.folder.appendingPathComponent("a"), store: original)
        #expect(cold.failed == 0 && cold.drawn > 0 && cold.written == cold.total, "the card's nested chip may serve the chip's own output")

        let export = fixture.folder.appendingPathComponent("renders-export.sqlite")
        do {
            let disk = try DiskCache(at: original)
            try disk.export(to: export)
            try disk.close()
        }
        // On "another machine": a new store at another path, filled only from the export.
        let other = fixture.folder.appendingPathComponent("machine-b/renders.sqlite")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        let report: DiskCacheImportReport
        do {
            let disk = try DiskCache(at: other)
            report = try disk.importEntries(from: export)
            try disk.close()
        }
        #expect(report.imported == report.entriesInFile && report.damaged == 0 && report.keptOutputs == 2)
        #expect(report.imported > cold.total / 2)

        let fresh = fixture.folder.appendingPathComponent("b")
        let (warm, statistics, _) = try BatchFreshFolderTests.run(plan, into: fresh, store: other)
        #expect(warm.drawn == 0 && warm.failed == 0 && statistics.draws == 0)
        #expect(try BatchFreshFolderTests.contents(of: fresh)
            == (try BatchFreshFolderTests.contents(of: fixture.folder.appendingPathComponent("a"))))

        // Importing again adds nothing and keeps what is there.
        let disk = try DiskCache(at: other)
        let again = try disk.importEntries(from: export)
        #expect(again.imported == 0 && again.alreadyPresent == report.entriesInFile)
        try disk.close()
    }

    /// A store of `count` tiles, exported; returns the export's URL.
    func exportedStore(_ fixture: DiskFixture, count: Int = 4) throws -> URL {
        // The real clock: entries the fixture's clock dates would be expired for the importing store.
        let disk = try DiskCache(at: fixture.url)
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for number in 0..<count { _ = try rasterizer.image(for: TransferTile(number: number), size: Size(8)) }
        let export = fixture.directory.appendingPathComponent("export.sqlite")
        try disk.export(to: export)
        try disk.close()
        return export
    }

    @Test func aDamagedEntryInTheFileIsLeftOutAndCounted() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let export = try exportedStore(fixture)
        let queue = try StoreFile(path: export.path)
        try queue.transaction { db in
            let id = try #require(try db.value("SELECT id FROM entries LIMIT 1"))
            var png = try #require(try db.value("SELECT png FROM entries WHERE id = ?", [id])?.data)
            png[png.count - 20] ^= 0x01
            try db.execute("UPDATE entries SET png = ? WHERE id = ?", [.blob(png), id])
            // And a valid PNG moved to another row, which its checksum does not match there.
            try db.execute("""
                UPDATE entries SET png = (SELECT png FROM entries WHERE id <> ?1 ORDER BY id LIMIT 1)
                WHERE id = (SELECT id FROM entries WHERE id <> ?1 ORDER BY id DESC LIMIT 1)
                """, [id])
        }
        queue.close()
        let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
        let report = try target.importEntries(from: export)
        #expect(report.entriesInFile == 4 && report.damaged == 2 && report.imported == 2)
        let statistics = try target.statistics
        #expect(statistics.count == 2, "\(statistics)")
        try target.close()
    }

    @Test func filesThatAreNotStoresAreRefusedBeforeAnythingIsAdded() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let export = try exportedStore(fixture)
        let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
        defer { try? target.close() }

        let text = fixture.directory.appendingPathComponent("notes.txt")
        try Data("just some text, long enough to look like a file of its own\n".utf8).write(to: text)
        let truncated = fixture.directory.appendingPathComponent("truncated.sqlite")
        let bytes = try Data(contentsOf: export)
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let foreign = fixture.directory.appendingPathComponent("foreign.sqlite")
        let queue = try StoreFile(path: foreign.path)
        try queue.transaction { try $0.execute("CREATE TABLE people (name TEXT)") }
        queue.close()

        for (file, name) in [(text, "text"), (truncated, "truncated"), (foreign, "foreign"),
                             (fixture.directory.appendingPathComponent("missing.sqlite"), "missing"),
                             (fixture.directory, "a folder"), (target.url, "the store itself")] {
            #expect(throws: DiskCacheError.self, "\(name)") { try target.importEntries(from: file) }
        }
        #expect(try target.statistics.count == 0)
        // The refused files are left as they were.
        #expect(try Data(contentsOf: text).count > 0 && (try Data(contentsOf: truncated)) == bytes.prefix(bytes.count / 2))
    }

    @Test func exportRefusesWhatItMustNotReplace() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        defer { try? disk.close() }
        #expect(throws: DiskCacheError.self) { try disk.export(to: fixture.directory) }
        #expect(throws: DiskCacheError.self) { try disk.export(to: disk.url) }
        #expect(throws: DiskCacheError.self) { try disk.export(to: URL(fileURLWithPath: "/nonexistent-folder/export.sqlite")) }
        // An existing file is replaced by a whole, readable export.
        let export = fixture.directory.appendingPathComponent("export.sqlite")
        try Data("old".utf8).write(to: export)
        try disk.export(to: export)
        try DiskCache.checkStoreFile(at: export)
        #expect(fixture.files.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func expiredEntriesAreNotKeptByTheImport() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        // Dated by the fixture's clock, long ago for a store on the real clock.
        let disk = try fixture.open()
        _ = try Rasterizer(cache: RasterCache(disk: disk)).image(for: TransferTile(number: 1), size: Size(8))
        let export = fixture.directory.appendingPathComponent("export.sqlite")
        try disk.export(to: export)
        try disk.close()
        let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
        defer { try? target.close() }
        #expect(try target.importEntries(from: export).imported == 1)
        #expect(try target.statistics.count == 0, "pruned as expired once imported")
    }
}

/// A user-written component for the transfer tests.
struct TransferTile: Rasterizable {
    var number: Int
    static let stateKeyPaths: [PartialKeyPath<TransferTile> & Sendable] = [\.number]
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(Color(red: Double(number % 10) / 10, green: 0.3, blue: 0.6)))
    }
}
