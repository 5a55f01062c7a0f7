import Foundation
import Testing
@testable import RasterKit

/// The files around a store (issue 24, findings 4 and 9): companions SQLite would write
/// through, moved-aside copies that pile up, read-only inspection, and deletion without SQL.
@Suite struct DiskCacheFileTests {
    /// A closed store with `entries` renders in it.
    func makeStore(_ fixture: DiskFixture, entries: Int = 3) throws {
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for index in 0..<entries { _ = try rasterizer.image(for: Counted(label: "f\(index)", draws: Counter()), size: Size(8)) }
        try disk.close()
    }

    @Test func aWALThatIsASymbolicLinkIsRefusedAndNeverWrittenThrough() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture)
        let victim = fixture.directory.appendingPathComponent("victim.txt")
        let original = Data("someone else's file\n".utf8)
        try original.write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: fixture.url.path + "-wal", withDestinationPath: victim.path)
        let before = fixture.files

        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.refusal == .unsafeCompanionFile && error.message.contains("symbolic link"), "\(error)")
        #expect(error.message.contains(fixture.url.path + "-wal"))
        #expect(fixture.files == before, "nothing moved aside or created")
        #expect(try Data(contentsOf: victim) == original)
        // Reading for stats refuses it too, rather than let SQLite open it.
        #expect(throws: DiskCacheError.self) { try DiskCache.contents(at: fixture.url) }
        // Deleting the store removes the link, not what it points to.
        try DiskCache.deleteStore(at: fixture.url)
        #expect(fixture.files == ["victim.txt"])
        #expect(try Data(contentsOf: victim) == original)
    }

    @Test func aDanglingSHMLinkIsRefusedAndItsTargetNotCreated() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let target = fixture.directory.appendingPathComponent("elsewhere/created-by-sqlite")
        try FileManager.default.createSymbolicLink(atPath: fixture.url.path + "-shm", withDestinationPath: target.path)
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.refusal == .unsafeCompanionFile)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(fixture.files == ["renders.sqlite-shm"])
    }

    @Test func aWALWithAnotherHardLinkIsRefused() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture)
        let victim = fixture.directory.appendingPathComponent("victim.txt")
        try Data("linked".utf8).write(to: victim)
        #expect(link(victim.path, fixture.url.path + "-wal") == 0)
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.refusal == .unsafeCompanionFile && error.message.contains("hard links"), "\(error)")
        #expect(try Data(contentsOf: victim) == Data("linked".utf8))
    }

    @Test func onlyTheNewestTwoMovedAsideCopiesAreKept() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        for run in 0..<5 {
            try makeStore(fixture, entries: 1)
            // Damaged, yet still ours: the application id in the header is intact.
            var bytes = try Data(contentsOf: fixture.url)
            bytes.replaceSubrange(0..<16, with: Data(repeating: UInt8(run), count: 16))
            try bytes.write(to: fixture.url)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.url.path + suffix) }
            try fixture.open().close()
            fixture.clock.advance(by: 1)
        }
        let copies = fixture.files.filter { $0.contains(".corrupt-") }
        #expect(copies.count == 2, "\(fixture.files)")
        // The newest two: runs 3 and 4, told apart by the first byte they were damaged with.
        let firstBytes = try copies.map { try Data(contentsOf: fixture.directory.appendingPathComponent($0)).first }
        #expect(Set(firstBytes) == [3, 4], "\(copies)")
    }

    @Test func contentsAreReadWithoutCreatingOrChangingAnyFile() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        #expect(try DiskCache.contents(at: fixture.url) == nil)
        #expect(fixture.files.isEmpty, "a missing store is not created")
        try makeStore(fixture, entries: 3)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.url.path + suffix) }
        let bytes = try Data(contentsOf: fixture.url)
        let contents = try #require(try DiskCache.contents(at: fixture.url))
        #expect(contents.count == 3 && contents.totalBytes > 0 && contents.types.first?.count == 3)
        #expect(fixture.files == ["renders.sqlite"], "no -wal or -shm")
        #expect(try Data(contentsOf: fixture.url) == bytes)

        // A damaged store is reported, not moved aside or repaired.
        var damaged = bytes
        damaged.removeLast(damaged.count / 2)
        try damaged.write(to: fixture.url)
        #expect(throws: DiskCacheError.self) { try DiskCache.contents(at: fixture.url) }
        #expect(fixture.files == ["renders.sqlite"])
    }

    @Test func contentsSeeEntriesStillInTheWALOfAnOpenStore() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        _ = try rasterizer.image(for: Counted(label: "in the wal", draws: Counter()), size: Size(8))
        try disk.flush()
        #expect(try DiskCache.contents(at: fixture.url)?.count == 1)
        try disk.close()
    }

    @Test func deleteStoreRemovesEveryFileWithoutSQLAndRefusesForeignFiles() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        _ = try Rasterizer(cache: RasterCache(disk: disk)).image(for: Counted(label: "x", draws: Counter()), size: Size(8))
        try disk.flush()
        #expect(fixture.files.contains("renders.sqlite-wal"))
        try disk.close()
        #expect(try DiskCache.deleteStore(at: fixture.url))
        #expect(fixture.files.isEmpty)
        #expect(try !DiskCache.deleteStore(at: fixture.url), "nothing left to delete")

        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { try $0.execute("CREATE TABLE mine (x)") }
        queue.close()
        let error = try #require(throws: DiskCacheError.self) { try DiskCache.deleteStore(at: fixture.url) }
        #expect(error.isNotAStore)
        #expect(fixture.files == ["renders.sqlite"])

        // A damaged database without RasterKit's id may be anyone's: not deleted either.
        let whole = try Data(contentsOf: fixture.url)
        var damaged = whole
        damaged.replaceSubrange(16..<18, with: [0xFF, 0xFF])   // an impossible page size
        damaged.append(Data(repeating: 0xAB, count: 4096))
        try damaged.write(to: fixture.url)
        #expect(throws: DiskCacheError.self) { try DiskCache.deleteStore(at: fixture.url) }
        #expect(try Data(contentsOf: fixture.url) == damaged)
    }

    @Test func checkStoreFileAcceptsStoresAndRefusesOthersWithoutWriting() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try DiskCache.checkStoreFile(at: fixture.url)
        try Data().write(to: fixture.url)
        try DiskCache.checkStoreFile(at: fixture.url)
        try FileManager.default.removeItem(at: fixture.url)
        try makeStore(fixture)
        try DiskCache.checkStoreFile(at: fixture.url)
        let text = Data("hello\n".utf8)
        try text.write(to: fixture.url)
        let error = try #require(throws: DiskCacheError.self) { try DiskCache.checkStoreFile(at: fixture.url) }
        #expect(error.isNotAStore && error.description.contains("not a RasterKit store"))
        #expect(try Data(contentsOf: fixture.url) == text && fixture.files == ["renders.sqlite"])
    }

    /// SQLite names the companions after the store's real path: a store reached through a link
    /// (to the file, or to its folder) has its companions checked where SQLite would use them.
    @Test func companionsAreCheckedWhereTheStoreReallyIs() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture)
        let manager = FileManager.default
        let linkedFile = fixture.directory.appendingPathComponent("link.sqlite")
        let linkedFolder = fixture.directory.appendingPathComponent("folder link")
        try manager.createSymbolicLink(atPath: linkedFile.path, withDestinationPath: "renders.sqlite")
        try manager.createSymbolicLink(atPath: linkedFolder.path, withDestinationPath: ".")
        #expect(DiskCacheFile.resolvedPath(linkedFile.path) == fixture.url.resolvingSymlinksInPath().path)
        #expect(DiskCacheFile.resolvedPath(linkedFolder.path + "/missing.sqlite")
            == fixture.directory.resolvingSymlinksInPath().path + "/missing.sqlite")
        #expect(DiskCacheFile.resolvedPath("/nowhere/at/all.sqlite") == "/nowhere/at/all.sqlite")
        for url in [linkedFile, linkedFolder.appendingPathComponent("renders.sqlite")] {
            try DiskCache.checkStoreFile(at: url)
        }
        try manager.createSymbolicLink(atPath: fixture.url.path + "-shm", withDestinationPath: "elsewhere")
        for url in [linkedFile, linkedFolder.appendingPathComponent("renders.sqlite"), fixture.url] {
            let error = try #require(throws: DiskCacheError.self) { _ = try DiskCache(at: url) }
            #expect(error.refusal == .unsafeCompanionFile && error.message.contains(fixture.url.resolvingSymlinksInPath().path + "-shm"),
                    "\(error)")
        }
    }

    @Test func aDeviceIsNotAStore() throws {
        let error = try #require(throws: DiskCacheError.self) { _ = try DiskCache(at: URL(fileURLWithPath: "/dev/null")) }
        #expect(error.isNotAStore, "\(error)")
    }
}
