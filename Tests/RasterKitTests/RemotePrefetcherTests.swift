import Dispatch
import Foundation
import Synchronization
import Testing
@testable import RasterKit

/// Fetching ahead of a run's lookups: windows, one answer per key, the bounds, and a store that
/// is down. The bytes are opaque here; verification is the tier's (see `RemoteTierTests`).
@Suite struct RemotePrefetcherTests {
    static func digest(_ index: Int) -> StableDigest { StableDigest(high: 0xFEED, low: UInt64(index)) }

    /// A store holding `count` objects of `size` bytes, object `i` filled with byte `i`.
    static func remote(_ count: Int, size: Int = 16, mode: FakeRemote.Mode = .working) -> FakeRemote {
        let remote = FakeRemote(mode)
        for index in 0..<count {
            remote.replace(RemoteObjectName(digest: digest(index)).description, with: Data(repeating: UInt8(index % 256), count: size))
        }
        return remote
    }

    static func prefetcher(_ store: any RemoteStore, window: Int, maximumHeldBytes: Int = 1 << 20) -> RemotePrefetcher {
        RemotePrefetcher(store: store, breaker: RemoteCircuitBreaker(failureThreshold: 1, retryInterval: 30,
                                                                      maximumRetryInterval: 600, clock: { 0 }),
                         window: window, maximumHeldBytes: maximumHeldBytes)
    }

    static func waitUntilIdle(_ prefetcher: RemotePrefetcher) throws {
        let deadline = Date().addingTimeInterval(10)
        while prefetcher.isBusy, Date() < deadline { usleep(1_000) }
        try #require(!prefetcher.isBusy, "the prefetcher never finished")
    }

    @Test func eachKeyIsFetchedOnceAndHandedOutOnce() throws {
        let remote = Self.remote(40)
        let prefetcher = Self.prefetcher(remote, window: 8)
        prefetcher.enqueue((0..<40).map(Self.digest))
        prefetcher.enqueue((0..<40).map(Self.digest))   // again: nothing new
        try Self.waitUntilIdle(prefetcher)
        for index in 0..<40 {
            guard case .fetched(.success(let data?)) = prefetcher.claim(Self.digest(index)) else {
                Issue.record("key \(index) was not fetched")
                continue
            }
            #expect(data == Data(repeating: UInt8(index), count: 16))
            guard case .notPrefetched = prefetcher.claim(Self.digest(index)) else {
                Issue.record("key \(index) was handed out twice")
                continue
            }
        }
        #expect(remote.gets.count == 40)
        // A key the store does not have is fetched as "none".
        prefetcher.enqueue([Self.digest(99)])
        try Self.waitUntilIdle(prefetcher)
        guard case .fetched(.success(nil)) = prefetcher.claim(Self.digest(99)) else {
            Issue.record("a missing object is not answered as none")
            return
        }
        // Remembered for the rest of the run, so the lookup after it does not ask again…
        guard case .knownMissing = prefetcher.claim(Self.digest(99)) else {
            Issue.record("a missing object is asked for again")
            return
        }
        // …and forgotten when the run ends.
        prefetcher.cancel()
        guard case .notPrefetched = prefetcher.claim(Self.digest(99)) else {
            Issue.record("a miss outlived its run")
            return
        }
    }

    @Test func aKeyLookedUpWhileStillQueuedIsLeftToItsLookup() throws {
        let gate = GatedRemote(inner: Self.remote(6))
        let prefetcher = Self.prefetcher(gate, window: 2)
        prefetcher.enqueue((0..<6).map(Self.digest))
        gate.waitForFirstCall()
        // Keys 0 and 1 are in flight, held at the gate; key 5 waits in the queue.
        guard case .notPrefetched = prefetcher.claim(Self.digest(5)) else {
            Issue.record("a queued key made its lookup wait")
            return
        }
        gate.open()
        try Self.waitUntilIdle(prefetcher)
        for index in 0..<5 {
            guard case .fetched(.success(_?)) = prefetcher.claim(Self.digest(index)) else {
                Issue.record("key \(index) was not fetched")
                continue
            }
        }
        #expect(gate.requested.withLock { $0 } == (0..<5).map { RemoteObjectName(digest: Self.digest($0)).description })
    }

    @Test func unclaimedObjectsAreHeldUpToTheBoundOldestDroppedFirst() throws {
        let remote = Self.remote(5, size: 60)
        let prefetcher = Self.prefetcher(remote, window: 1, maximumHeldBytes: 100)
        prefetcher.enqueue((0..<5).map(Self.digest))
        try Self.waitUntilIdle(prefetcher)
        // 60 bytes each, at most 100 held: only the newest is left.
        for index in 0..<4 {
            guard case .notPrefetched = prefetcher.claim(Self.digest(index)) else {
                Issue.record("key \(index) was held past the bound")
                continue
            }
        }
        guard case .fetched(.success(_?)) = prefetcher.claim(Self.digest(4)) else {
            Issue.record("the newest object was dropped")
            return
        }
    }

    @Test func aStoreThatIsDownCostsOneWindowAndOpensTheBreaker() throws {
        let remote = Self.remote(20, mode: .failing)
        let breaker = RemoteCircuitBreaker(failureThreshold: 1, retryInterval: 30, maximumRetryInterval: 600, clock: { 0 })
        let prefetcher = RemotePrefetcher(store: remote, breaker: breaker, window: 4, maximumHeldBytes: 1 << 20)
        prefetcher.enqueue((0..<20).map(Self.digest))
        try Self.waitUntilIdle(prefetcher)
        #expect(remote.gets.count == 4)
        #expect(breaker.isOpen)
        var failures = 0, left = 0
        for index in 0..<20 {
            switch prefetcher.claim(Self.digest(index)) {
            case .fetched(.failure): failures += 1
            case .notPrefetched: left += 1
            case .fetched(.success), .knownMissing: Issue.record("a failing store answered key \(index)")
            }
        }
        #expect(failures == 4 && left == 16)
    }

    @Test func manyThreadsClaimingWhileFetchingGetEachAnswerOnce() throws {
        let count = 300
        let remote = Self.remote(count)
        let prefetcher = Self.prefetcher(remote, window: 16)
        let delivered = Lock([Int](repeating: 0, count: count))
        let leftToLookups = Atomic<Int>(0)
        prefetcher.enqueue((0..<count).map(Self.digest))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            // Each thread claims every key, from its own starting point.
            for step in 0..<count {
                let index = (step + thread * 37) % count
                switch prefetcher.claim(Self.digest(index)) {
                case .fetched(.success(let data?)) where data.first == UInt8(index % 256):
                    delivered.withLock { $0[index] += 1 }
                case .notPrefetched:
                    leftToLookups.add(1, ordering: .relaxed)
                default:
                    delivered.withLock { $0[index] += 1000 }   // a wrong answer
                }
            }
        }
        try Self.waitUntilIdle(prefetcher)
        let counts = delivered.withLock { $0 }
        #expect(counts.allSatisfy { $0 <= 1 }, "an answer was handed out twice, or a wrong one")
        #expect(counts.reduce(0, +) + leftToLookups.load(ordering: .relaxed) == 8 * count)
        #expect(remote.gets.count <= count)
    }

    @Test func cancelDropsTheQueueAndWhatWasNotClaimed() throws {
        let remote = Self.remote(10)
        let prefetcher = Self.prefetcher(remote, window: 10)
        prefetcher.enqueue((0..<10).map(Self.digest))
        try Self.waitUntilIdle(prefetcher)
        prefetcher.cancel()
        for index in 0..<10 {
            guard case .notPrefetched = prefetcher.claim(Self.digest(index)) else {
                Issue.record("key \(index) survived cancel")
                continue
            }
        }
    }
}

/// A store whose first `get` of many names waits until the test opens it.
final class GatedRemote: RemoteStore, @unchecked Sendable {
    private let inner: FakeRemote
    private let called = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let isFirst = Atomic<Bool>(true)
    let requested = Lock<[String]>([])

    init(inner: FakeRemote) { self.inner = inner }

    func waitForFirstCall() { called.wait() }
    func open() { gate.signal() }

    func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        requested.withLock { $0 += names.map(\.description) }
        if isFirst.exchange(false, ordering: .acquiringAndReleasing) {
            called.signal()
            gate.wait()
        }
        return inner.get(names, maximumBytes: maximumBytes)
    }

    func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?] { inner.put(objects) }
}
