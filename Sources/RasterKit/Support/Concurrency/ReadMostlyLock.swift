#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A reader–writer lock for data that is read far more often than it is written, whose readers
/// share no memory they write: each reader marks itself in its thread's own stripe (see
/// ``ThreadStripe``), so threads reading at the same time never pass a cache line between them.
/// A writer announces itself, waits for the readers under way to finish, and excludes new ones.
///
/// The memory cache's hit path runs under the read side, which is what lets hits scale with
/// threads; an ordinary mutex, even held for a few nanoseconds, makes every hit bounce its cache
/// line between cores.
final class ReadMostlyLock: @unchecked Sendable {
    private static let stripeBytes = 128
    private let readers: UnsafeMutablePointer<Atomic<Int>>
    private let stride = ReadMostlyLock.stripeBytes / MemoryLayout<Atomic<Int>>.stride
    /// Set while a writer holds (or waits for) the lock; on a line of its own, read by every reader.
    private let writing: UnsafeMutablePointer<Atomic<Bool>>
    /// Orders writers, and is where readers wait while one writes.
    private let writers = Lock(())

    init() {
        let slots = stride * ThreadStripe.count
        readers = UnsafeMutableRawPointer.allocate(byteCount: slots * MemoryLayout<Atomic<Int>>.stride, alignment: Self.stripeBytes)
            .bindMemory(to: Atomic<Int>.self, capacity: slots)
        for slot in 0..<slots { (readers + slot).initialize(to: Atomic(0)) }
        writing = UnsafeMutableRawPointer.allocate(byteCount: Self.stripeBytes, alignment: Self.stripeBytes)
            .bindMemory(to: Atomic<Bool>.self, capacity: 1)
        writing.initialize(to: Atomic(false))
    }

    deinit {
        readers.deinitialize(count: stride * ThreadStripe.count)
        readers.deallocate()
        writing.deinitialize(count: 1)
        writing.deallocate()
    }

    /// Runs `body` with shared access: other readers may run at the same time, writers may not.
    /// Not reentrant: a read inside a read waits for a writer that waits for the outer read.
    @inline(__always)
    func withReadLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        let mark = readers + ThreadStripe.current &* stride
        while true {
            // Sequentially consistent on both sides: either the writer sees this mark, or this
            // reader sees the writer's flag (the store-load order a plain acquire would not give).
            mark.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
            if !writing.pointee.load(ordering: .sequentiallyConsistent) { break }
            mark.pointee.wrappingSubtract(1, ordering: .releasing)
            writers.withLock { _ in }  // sleeps until the writer is done
        }
        defer { mark.pointee.wrappingSubtract(1, ordering: .releasing) }
        return try body()
    }

    /// Runs `body` with exclusive access.
    func withWriteLock<Result: Sendable>(_ body: () throws -> Result) rethrows -> Result {
        try writers.withLock { _ in
            writing.pointee.store(true, ordering: .sequentiallyConsistent)
            defer { writing.pointee.store(false, ordering: .releasing) }
            for stripe in 0..<ThreadStripe.count {
                var spins = 0
                while readers[stripe &* stride].load(ordering: .sequentiallyConsistent) != 0 {
                    spins += 1
                    // A reader holds the lock for nanoseconds, unless it was preempted.
                    if spins > 64 { sched_yield() }
                }
            }
            return try body()
        }
    }
}
