import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Lookups inside `DiskCache.sharingSnapshots` read one snapshot of the store for a while, on a
/// connection the thread keeps: they must still see new entries soon, hold no snapshot once the
/// scope ends, and be right when many threads do it at once.
@Suite struct DiskCacheSnapshotTests {
    static func key(_ label: String) -> CacheKey {
        Rasterizer().key(for: Counted(label: label, draws: Counter()), size: Size(4))
    }

    /// What `PRAGMA wal_checkpoint(TRUNCATE)` says from another connection: 1 while a reader
    /// still reads the WAL (a snapshot is open), else 0.
    static func checkpointIsBusy(_ url: URL) throws -> Bool {
        let queue = try StoreFile(path: url.path)
        defer { queue.close() }
        return try queue.value("PRAGMA wal_checkpoint(TRUNCATE)") == 1
    }

    @Test func aSnapshotIsHeldInsideTheScopeAndReleasedAfter() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let reading = try fixture.open(), writing = try fixture.open()
        let image = try TestSupport.solidImage(.green)
        writing.store(image, for: Self.key("stored"))
        try writing.flush()
        try DiskCache.sharingSnapshots { () throws in
            #expect(reading.image(for: Self.key("stored"))?.allPixels == image.allPixels)
            // Written after the snapshot was taken: the WAL cannot be emptied under it.
            writing.store(image, for: Self.key("after"))
            try writing.flush()
            #expect(try Self.checkpointIsBusy(fixture.url), "the thread's snapshot is still open")
        }
        #expect(try Self.checkpointIsBusy(fixture.url) == false, "no connection went back with a snapshot open")
        // Lookups outside a scope leave none open either.
        #expect(reading.image(for: Self.key("stored")) != nil)
        #expect(try Self.checkpointIsBusy(fixture.url) == false)
        try reading.close()
        try writing.close()
    }

    @Test func entriesStoredMeanwhileAreSeenAfterABoundedNumberOfLookupsOrTime() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let reading = try fixture.open(), writing = try fixture.open()
        let image = try TestSupport.solidImage(.blue)
        try DiskCache.sharingSnapshots { () throws in
            #expect(reading.image(for: Self.key("late")) == nil)
            writing.store(image, for: Self.key("late"))
            try writing.flush()
            for index in 0..<DiskCacheReadConnection.snapshotLookups {
                _ = reading.image(for: Self.key("other \(index)"))
            }
            #expect(reading.image(for: Self.key("late"))?.allPixels == image.allPixels)

            #expect(reading.image(for: Self.key("later")) == nil)
            writing.store(image, for: Self.key("later"))
            try writing.flush()
            Thread.sleep(forTimeInterval: Double(DiskCacheReadConnection.snapshotNanoseconds) / 1e9 * 2)
            #expect(reading.image(for: Self.key("later"))?.allPixels == image.allPixels)
        }
        try reading.close()
        try writing.close()
    }

    /// Many threads, each sharing snapshots, look up the same keys while another cache stores
    /// more: every stored key is found with its pixels, and nothing is found that was not stored.
    @Test func manyThreadsLookingUpWhileAnotherCacheStores() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let writing = try fixture.open(options: fixture.options(batchSize: 4, interval: 0.001))
        let images = try [Color.red, .green, .blue].map { try TestSupport.solidImage($0) }
        for index in 0..<12 { writing.store(images[index % 3], for: Self.key("first \(index)")) }
        try writing.flush()
        let reading = try fixture.open()
        let wrong = Counter(), found = Counter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<200 { writing.store(images[index % 3], for: Self.key("more \(index)")) }
            }
            for _ in 0..<8 {
                group.addTask {
                    DiskCache.sharingSnapshots {
                        for round in 0..<100 {
                            let index = round % 12
                            let image = reading.image(for: Self.key("first \(index)"))
                            if image?.allPixels == images[index % 3].allPixels { found.increment() }
                            else { wrong.increment() }
                            if reading.image(for: Self.key("never \(round)")) != nil { wrong.increment() }
                        }
                    }
                }
            }
        }
        #expect(wrong.count == 0)
        #expect(found.count == 800)
        try writing.flush()
        #expect(try Self.checkpointIsBusy(fixture.url) == false)
        try reading.close()
        try writing.close()
    }
}
