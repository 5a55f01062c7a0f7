import Foundation
@testable import RasterKit
import Synchronization
import Testing

/// Stress tests of `Support/Concurrency`: many threads on one instance, then the invariants each
/// type promises. Run them under `make test-thread` too: ThreadSanitizer checks the orderings.
@Suite struct ConcurrencyPrimitiveTests {
    static let threads = 8
    static let rounds = 20_000

    /// Every increment made under the lock is counted: none is lost to another thread's.
    @Test func lockLosesNoUpdate() {
        let lock = Lock(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.rounds { lock.withLock { $0 += 1 } }
        }
        #expect(lock.withLock { $0 } == Self.threads * Self.rounds)
    }

    /// Readers never see a write half done, and writers exclude one another: the two halves a
    /// writer changes together are always equal, and every write is counted.
    @Test func readMostlyLockShowsWholeWritesOnly() {
        final class Pair: @unchecked Sendable {
            var first = 0
            var second = 0
        }
        let lock = ReadMostlyLock()
        let pair = Pair()
        let torn = Atomic<Int>(0)
        let writers = 2
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread < writers {
                for _ in 0..<Self.rounds / 10 {
                    lock.withWriteLock {
                        pair.first += 1
                        pair.second += 1
                    }
                }
            } else {
                for _ in 0..<Self.rounds {
                    let (first, second) = lock.withReadLock { (pair.first, pair.second) }
                    if first != second { torn.wrappingAdd(1, ordering: .relaxed) }
                }
            }
        }
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(lock.withReadLock { pair.first } == writers * (Self.rounds / 10))
        #expect(lock.withReadLock { pair.second } == writers * (Self.rounds / 10))
    }

    /// A writer waits for a read under way: the write lands after the read has ended.
    @Test func readMostlyLockWritersWaitForReadsUnderWay() {
        let lock = ReadMostlyLock()
        let events = Lock<[String]>([])
        let readerInside = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            lock.withReadLock {
                events.withLock { $0.append("read") }
                readerInside.signal()
                usleep(50_000)
                events.withLock { $0.append("read ends") }
            }
        }
        readerInside.wait()
        lock.withWriteLock { events.withLock { $0.append("write") } }
        done.wait()
        #expect(events.withLock { $0 } == ["read", "read ends", "write"])
    }

    /// Counters bumped from many threads sum exactly once the threads are done; a reset sets the
    /// whole sum.
    @Test func stripedCountersSumEveryThreadsAdds() {
        let counters = StripedCounters(width: 3)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<Self.rounds {
                counters.add(to: 0)
                counters.add(thread, to: 2)
            }
        }
        #expect(counters.value(of: 0) == Self.threads * Self.rounds)
        #expect(counters.value(of: 1) == 0)
        #expect(counters.value(of: 2) == (0..<Self.threads).reduce(0, +) * Self.rounds)
        counters.reset(0, to: 7)
        #expect(counters.value(of: 0) == 7)
    }

    /// A thread keeps its stripe for its life, and stripes are in range.
    @Test func threadStripesStayPutPerThread() {
        let moved = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads * 4) { _ in
            let first = ThreadStripe.current
            for _ in 0..<1_000 where ThreadStripe.current != first || !(0..<ThreadStripe.count).contains(first) {
                moved.wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(moved.load(ordering: .relaxed) == 0)
    }

    /// Each thread sees only its own count.
    @Test func threadLocalCountsAreEachThreadsOwn() {
        let count = ThreadLocalCount()
        let mixed = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            count.value = 0
            for round in 1...1_000 {
                count.value += thread + 1
                if count.value != round * (thread + 1) { mixed.wrappingAdd(1, ordering: .relaxed) }
            }
            count.value = 0
        }
        #expect(mixed.load(ordering: .relaxed) == 0)
    }
}
