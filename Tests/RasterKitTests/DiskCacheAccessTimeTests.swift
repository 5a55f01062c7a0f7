import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Last accesses are kept beside the entries (schema v5): a touch writes a 16-byte row instead
/// of rewriting the entry with its PNG, and everything that reads an entry's last access sees
/// the later of the two.
@Suite struct DiskCacheAccessTimeTests {
    private static func values(_ url: URL, _ sql: String) throws -> [Double] {
        let queue = try StoreFile(path: url.path)
        defer { queue.close() }
        return try queue.values(sql).map(\.double)
    }

    @Test func aTouchWritesBesideTheEntryAndLeavesItsRowAlone() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let key = Rasterizer().key(for: Counted(label: "beside", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: key)
        try disk.flush()
        let created = fixture.clock.now
        fixture.clock.advance(by: 90)
        #expect(disk.image(for: key) != nil)
        try disk.flush()
        #expect(try Self.values(fixture.url, "SELECT last_access FROM entries") == [created])
        #expect(try Self.values(fixture.url, "SELECT last_access FROM access_times") == [created + 90])
        #expect(try disk.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == created + 90)
        // An older touch never moves the last access back.
        fixture.clock.advance(by: -30)
        #expect(disk.image(for: key) != nil)
        try disk.flush()
        #expect(try Self.values(fixture.url, "SELECT last_access FROM access_times") == [created + 90])
    }

    @Test func removingAnEntryRemovesItsAccessTime() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer()
        let kept = rasterizer.key(for: Counted(label: "kept", draws: Counter()), size: Size(4))
        let gone = rasterizer.key(for: Counted(label: "gone", draws: Counter()), size: Size(4))
        for key in [kept, gone] { disk.store(try TestSupport.solidImage(.red), for: key) }
        try disk.flush()
        fixture.clock.advance(by: 120)
        #expect(disk.image(for: kept) != nil && disk.image(for: gone) != nil)
        try disk.flush()
        #expect(try Self.values(fixture.url, "SELECT count(*) FROM access_times") == [2])
        _ = try disk.remove(gone)
        try disk.flush()
        #expect(try Self.values(fixture.url, "SELECT count(*) FROM access_times") == [1])
        #expect(disk.contains(kept) && !disk.contains(gone))
    }

    /// A store written before v5 (no `access_times`) is migrated when opened, and imports with
    /// its own last accesses.
    @Test func aStoreFromBeforeAccessTimesOpensAndImports() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let key = Rasterizer().key(for: Counted(label: "old", draws: Counter()), size: Size(4))
        do {
            let disk = try fixture.open()
            disk.store(try TestSupport.solidImage(.green), for: key)
            try disk.flush()
        }
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { db in
            try db.execute("""
                DROP TRIGGER entries_forget_access_time; DROP TABLE access_times;
                DELETE FROM grdb_migrations WHERE identifier = 'v5-access-times';
                UPDATE entries SET last_access = 1234;
                """)
        }
        try queue.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()

        fixture.clock.advance(by: 1)
        let target = fixture.directory.appendingPathComponent("target.sqlite")
        let imported = try DiskCache(at: target, byteLimit: DiskCache.defaultByteLimit, defaultLifetime: DiskCache.defaultLifetime,
                                     options: fixture.options())
        let report = try imported.importEntries(from: fixture.url)
        #expect(report.imported == 1)
        #expect(try imported.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == 1234)

        let reopened = try fixture.open()
        #expect(reopened.image(for: key) != nil)
        try reopened.flush()
        #expect(try Self.values(fixture.url, "SELECT count(*) FROM access_times") == [1], "migrated, then touched")
    }
}
