import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A warm run writes only last-access times (of entries and of its run record), batched, each
/// only when later than the one stored; they wait for other writers and fail like any write.
@Suite struct DiskCacheTouchTests {
    private static func values(_ url: URL, _ sql: String) throws -> [Double] {
        let queue = try StoreFile(path: url.path)
        defer { queue.close() }
        return try queue.values(sql).map(\.double)
    }

    /// Stores `count` renders and closes the store, as a cold run would.
    private static func storeRenders(_ fixture: DiskFixture, count: Int) throws -> [CacheKey] {
        let disk = try fixture.open()
        let rasterizer = Rasterizer()
        let keys = try (0..<count).map { rasterizer.key(for: Counted(label: "r\($0)", draws: Counter()), size: Size(8)) }
        for key in keys { disk.store(try TestSupport.solidImage(.blue), for: key) }
        try disk.close()
        return keys
    }

    @Test func aWarmRunsTouchesAreWritten() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 5)
        fixture.clock.advance(by: 3600)
        let disk = try fixture.open()
        for key in keys { #expect(disk.image(for: key) != nil) }
        try disk.flush()
        #expect(try Self.values(fixture.url, "SELECT last_access FROM access_times") == Array(repeating: fixture.clock.now, count: 5))
        #expect(try disk.entries(olderThan: 0).allSatisfy { $0.lastAccess.timeIntervalSince1970 == fixture.clock.now })
        // An earlier touch written the same way never moves the last access back.
        fixture.clock.advance(by: -1800)
        let earlier = try fixture.open()
        #expect(earlier.image(for: keys[0]) != nil)
        try earlier.close()
        #expect(try Self.values(fixture.url, "SELECT max(last_access) FROM access_times") == [fixture.clock.now + 1800])
        try disk.close()
        try DiskCache.checkStoreFile(at: fixture.url)
        #expect(fixture.log.warnings.isEmpty, "\(fixture.log.warnings)")
    }

    /// Touches are written into the WAL, and the store moves what it wrote into the file when
    /// it closes: a CI cache that keeps only the `.sqlite` file
    /// keeps the touches.
    @Test func whatTheyWriteIsCheckpointedOnClose() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 3)
        fixture.clock.advance(by: 600)
        let disk = try fixture.open()
        for key in keys { #expect(disk.image(for: key) != nil) }
        try disk.close()
        // Read the main file alone, as a copy of it without its WAL would be.
        let copy = fixture.directory.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: fixture.url, to: copy)
        #expect(try Self.values(copy, "SELECT count(*) FROM access_times") == [3])
    }

    /// `startWriting` writes what is queued without waiting for the batch interval (a minute in
    /// this fixture) or for a flush, and returns before it is written.
    @Test func startWritingWritesWithoutAFlush() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 4)
        fixture.clock.advance(by: 120)
        let disk = try fixture.open()
        for key in keys { #expect(disk.image(for: key) != nil) }
        disk.startWriting()
        var written: [Double] = []
        for _ in 0..<200 {
            written = try Self.values(fixture.url, "SELECT count(*) FROM access_times")
            if written == [4] { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(written == [4])
        try disk.close()
        disk.startWriting()
    }

    /// A store over its byte limit is pruned by a warm run's first batch.
    @Test func aStoreOverItsLimitIsStillPrunedByAWarmRun() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 6)
        let stored = try Self.values(fixture.url, "SELECT total(byte_size) FROM entries").first ?? 0
        fixture.clock.advance(by: 120)
        let disk = try fixture.open(byteLimit: Int(stored) / 2)
        #expect(disk.image(for: keys[5]) != nil)
        try disk.flush()
        let remaining = try Self.values(fixture.url, "SELECT total(byte_size) FROM entries").first ?? .infinity
        #expect(remaining <= stored / 2)
        #expect(disk.contains(keys[5]), "the entry just served is the last to go")
        try disk.close()
    }

    @Test func aRunRecordIsReadAndTouched() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let identity = StableDigest(high: 0x1234, low: 0x5678)
        let body = Data("the record".utf8)
        do {
            let disk = try fixture.open()
            disk.keepRunRecord(body, for: identity)
            try disk.close()
        }
        let written = fixture.clock.now
        fixture.clock.advance(by: 3600)
        let disk = try fixture.open()
        #expect(disk.runRecord(for: identity) == body)
        #expect(disk.runRecord(for: StableDigest(high: 0x1234, low: 0x9999)) == nil, "same id, another digest")
        #expect(try Self.values(fixture.url, "SELECT last_access FROM run_records") == [written + 3600])
        try disk.close()
    }

    /// Another process holding the write lock is waited for (the busy timeout), not failed.
    @Test func touchesWaitForAnotherWriter() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 2)
        fixture.clock.advance(by: 120)
        let disk = try fixture.open()
        for key in keys { #expect(disk.image(for: key) != nil) }
        let path = fixture.url.path
        let holding = Task.detached {
            try StoreFile(path: path).transaction { _ in Thread.sleep(forTimeInterval: 0.3) }
        }
        try await Task.sleep(for: .milliseconds(50))
        try disk.flush()
        try await holding.value
        #expect(try Self.values(fixture.url, "SELECT count(*) FROM access_times") == [2])
        #expect(try disk.statistics.writeFailures == 0)
        try disk.close()
    }

    /// A touch that fails (a table gone from the file) is a write failure the flush reports.
    @Test func aFailingTouchIsReported() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let keys = try Self.storeRenders(fixture, count: 1)
        fixture.clock.advance(by: 120)
        let disk = try fixture.open()
        #expect(disk.image(for: keys[0]) != nil)
        let other = try StoreFile(path: fixture.url.path)
        try other.transaction { try $0.execute("DROP TRIGGER entries_forget_access_time; DROP TABLE access_times") }
        other.close()
        #expect(throws: DiskCacheError.self) { try disk.flush() }
        #expect(try disk.statistics.writeFailures == 0, "touches are not renders; none was lost")
        try disk.close()
    }
}
