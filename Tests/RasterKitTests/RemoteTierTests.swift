import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// An in-memory remote store whose faults the test chooses.
final class FakeRemote: RemoteStore {
    enum Mode: Sendable { case working, failing, hanging(Double), readOnly }

    private let objects = Lock<[String: Data]>([:])
    private let mode: Lock<Mode>
    let gets = Counter()
    let puts = Counter()

    init(_ mode: Mode = .working) { self.mode = Lock(mode) }

    func set(_ mode: Mode) { self.mode.withLock { $0 = mode } }
    func object(_ name: String) -> Data? { objects.withLock { $0[name] } }
    func replace(_ name: String, with data: Data) { objects.withLock { $0[name] = data } }
    var names: [String] { objects.withLock { Array($0.keys) } }

    func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        names.map { name in Result { try get(name, maximumBytes: maximumBytes) } }
    }

    func get(_ name: RemoteObjectName, maximumBytes: Int) throws -> Data? {
        gets.increment()
        switch mode.withLock({ $0 }) {
        case .failing: throw RemoteStoreError.status(503)
        case .hanging(let seconds):
            usleep(UInt32(seconds * 1_000_000))
            throw RemoteStoreError.timedOut
        case .working, .readOnly:
            let object = objects.withLock { $0[name.description] }
            if let object, object.count > maximumBytes { throw RemoteStoreError.tooLarge(limit: maximumBytes) }
            return object
        }
    }

    func put(_ uploads: [RemoteStoreUpload]) -> [RemoteStoreError?] {
        uploads.map { upload in
            puts.increment()
            switch mode.withLock({ $0 }) {
            case .failing: return RemoteStoreError.status(503)
            case .hanging(let seconds):
                usleep(UInt32(seconds * 1_000_000))
                return RemoteStoreError.timedOut
            case .readOnly: return RemoteStoreError.forbidden(status: 403)
            case .working:
                objects.withLock { $0[upload.name.description] = upload.bytes }
                return nil
            }
        }
    }
}

/// A clock the test moves.
final class ManualClock: Sendable {
    private let value = Lock(1000.0)
    var now: Double { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
}

/// The remote tier through the rasterizer, with an in-memory store (the nginx tests use a real one).
@Suite struct RemoteTierTests {
    private func machine(_ remote: FakeRemote, fixture: DiskFixture? = nil, options: RemoteCacheOptions = RemoteCacheOptions())
        throws -> Rasterizer {
        Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try fixture?.open(), remote: remote, remoteOptions: options,
                                      respondsToMemoryPressure: false))
    }

    @Test func twoMachinesShareRendersThroughTheRemote() throws {
        let remote = FakeRemote()
        let first = try machine(remote)
        let component = Counted(label: "shared", draws: Counter())
        let drawn = try first.image(for: component, size: Size(8), scale: 2)
        #expect(first.cache.flushUploads(timeout: 10))
        #expect(first.cache.remoteStatistics?.uploads == 1 && first.cache.remoteStatistics?.misses == 1)

        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let second = try machine(remote, fixture: fixture)
        let rendered = try second.render(RenderRequest(component, size: Size(8), scale: 2))
        #expect(rendered.origin == .remote && rendered.origin.wasCached)
        #expect(component.draws.count == 1)
        #expect(rendered.image.pixelWidth == drawn.pixelWidth && rendered.image.scale == 2)
        #expect(try rendered.image.pngData() == drawn.pngData())
        #expect(second.statistics.remoteHits == 1 && second.statistics.draws == 0)
        #expect(second.cache.remoteStatistics?.hits == 1)
        // Kept on the second machine's disk, with the remote's PNG.
        try second.cache.flush()
        let disk = try #require(second.cache.disk)
        #expect(disk.contains(rendered.key))
        #expect(second.cache.flushUploads(timeout: 10))
        #expect(second.cache.remoteStatistics?.uploads == 0)
    }

    @Test func damagedTruncatedAndForeignObjectsAreNeverServed() throws {
        let remote = FakeRemote()
        let first = try machine(remote)
        let a = Counted(label: "a", draws: Counter()), b = Counted(label: "b", draws: Counter())
        let keyA = first.key(for: a, size: Size(8)), keyB = first.key(for: b, size: Size(8))
        _ = try first.image(for: a, size: Size(8))
        _ = try first.image(for: b, size: Size(8))
        #expect(first.cache.flushUploads(timeout: 10))
        let nameA = RemoteObjectName(key: keyA).description, nameB = RemoteObjectName(key: keyB).description
        let objectA = try #require(remote.object(nameA)), objectB = try #require(remote.object(nameB))

        var damaged = objectA
        damaged[damaged.count - 20] ^= 0x40
        let variants: [Data] = [
            damaged,
            objectA.prefix(objectA.count - 1),          // truncated
            objectA.prefix(RemoteCacheObject.headerSize), // only a header
            objectB,                                     // another key's object
            Data("<html>502 Bad Gateway</html>".utf8),   // garbage
            Data(),
        ]
        for variant in variants {
            remote.replace(nameA, with: variant)
            let other = try machine(remote)
            let rendered = try other.render(RenderRequest(a, size: Size(8)))
            #expect(rendered.origin == .drawn)
            #expect(other.cache.remoteStatistics?.rejected == 1)
            // The redraw's upload replaces the damaged object before the next variant goes in.
            #expect(other.cache.flushUploads(timeout: 10))
            #expect(remote.object(nameA) == objectA)
        }
        #expect(RemoteCacheObject.decode(objectB, digest: keyB.value) != nil)
        #expect(RemoteCacheObject.decode(objectB, digest: keyA.value) == nil)
    }

    @Test func aFailingRemoteCostsOneRequestThenIsSkippedUntilItsRetry() throws {
        let remote = FakeRemote(.failing)
        let clock = ManualClock()
        var options = RemoteCacheOptions()
        options.retryInterval = 30
        let tier = RemoteTier(store: remote, options: options, clock: { clock.now })
        let rasterizer = Rasterizer(cache: RasterCache(memory: MemoryCache(costLimit: 8 << 20), disk: nil, remote: tier))
        let counter = Counter()
        for index in 0..<20 {
            let rendered = try rasterizer.render(RenderRequest(Counted(label: "down-\(index)", draws: counter), size: Size(4)))
            #expect(rendered.origin == .drawn)
        }
        #expect(remote.gets.count == 1 && counter.count == 20)
        #expect(tier.flush(timeout: 10))
        var statistics = tier.statistics
        #expect(statistics.errors == 1 && statistics.skipped == 19 && statistics.uploads == 0)
        #expect(statistics.uploadsDropped >= 1 && remote.puts.count == 0)

        // Back up: after the retry interval one probe closes the breaker.
        remote.set(.working)
        clock.advance(31)
        _ = try rasterizer.render(RenderRequest(Counted(label: "up-0", draws: counter), size: Size(4)))
        _ = try rasterizer.render(RenderRequest(Counted(label: "up-1", draws: counter), size: Size(4)))
        #expect(remote.gets.count == 3)
        #expect(tier.flush(timeout: 10))
        statistics = tier.statistics
        #expect(statistics.misses == 2 && statistics.uploads == 2)
    }

    @Test func aFailedProbeWaitsTwiceAsLong() throws {
        let remote = FakeRemote(.failing)
        let clock = ManualClock()
        let breaker = RemoteCircuitBreaker(failureThreshold: 1, retryInterval: 10, maximumRetryInterval: 25, clock: { clock.now })
        #expect(breaker.mayAsk())
        #expect(breaker.recordFailure())
        #expect(!breaker.mayAsk())
        clock.advance(10)
        #expect(breaker.mayAsk())   // the probe
        #expect(!breaker.mayAsk())  // the others wait for it
        breaker.recordFailure()
        clock.advance(19)
        #expect(!breaker.mayAsk())
        clock.advance(1)
        #expect(breaker.mayAsk())
        breaker.recordSuccess()
        #expect(breaker.mayAsk() && breaker.mayAsk() && !breaker.isOpen)
        _ = remote
    }

    @Test func aReadOnlyRemoteStillServesReads() throws {
        let remote = FakeRemote()
        let writer = try machine(remote)
        let shared = Counted(label: "published", draws: Counter())
        _ = try writer.image(for: shared, size: Size(8))
        #expect(writer.cache.flushUploads(timeout: 10))

        remote.set(.readOnly)
        let reader = try machine(remote)
        #expect(try reader.render(RenderRequest(shared, size: Size(8))).origin == .remote)
        let fresh = Counted(label: "local", draws: Counter())
        _ = try reader.image(for: fresh, size: Size(8))
        #expect(reader.cache.flushUploads(timeout: 10))
        _ = try reader.image(for: Counted(label: "local-2", draws: Counter()), size: Size(8))
        #expect(reader.cache.flushUploads(timeout: 10))
        let statistics = try #require(reader.cache.remoteStatistics)
        #expect(statistics.isReadOnly && statistics.uploadErrors == 1 && statistics.uploadsDropped == 1)
        #expect(statistics.hits == 1 && statistics.errors == 0)
        #expect(try reader.render(RenderRequest(shared, size: Size(8))).origin == .memory)
    }

    @Test func manyThreadsRacingOverSharedKeysDrawEachOnceAndUploadItOnce() throws {
        let remote = FakeRemote()
        let rasterizer = try machine(remote)
        let draws = Counter()
        let keys = 12, threads = 8
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                for index in 0..<keys {
                    _ = try? rasterizer.image(for: Counted(label: "race-\((index + thread) % keys)", draws: draws), size: Size(6))
                }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(rasterizer.cache.flushUploads(timeout: 10))
        #expect(draws.count == keys)
        #expect(remote.names.count == keys && remote.puts.count == keys)

        // A second machine, many threads: every key from the remote, none drawn.
        let second = try machine(remote)
        let secondDraws = Counter()
        for _ in 0..<threads {
            done.enter()
            Thread {
                for index in 0..<keys { _ = try? second.image(for: Counted(label: "race-\(index)", draws: secondDraws), size: Size(6)) }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(secondDraws.count == 0 && second.statistics.remoteHits == keys)
    }

    @Test func aFullUploadQueueDropsRendersInsteadOfWaiting() throws {
        let remote = FakeRemote(.hanging(0.2))
        var options = RemoteCacheOptions()
        options.maximumQueuedUploads = 2
        options.uploadBatchSize = 1
        options.failureThreshold = 100
        let tier = RemoteTier(store: remote, options: options)
        let image = try RasterImage(size: Size(4), scale: 1) { _ in }
        let started = Date()
        for index in 0..<10 {
            tier.upload(image, for: Rasterizer().key(for: Counted(label: "q\(index)", draws: Counter()), size: Size(4)),
                        children: [])
        }
        #expect(Date().timeIntervalSince(started) < 0.1)
        #expect(tier.flush(timeout: 10))
        #expect(tier.statistics.uploadsDropped >= 7)
    }
}
