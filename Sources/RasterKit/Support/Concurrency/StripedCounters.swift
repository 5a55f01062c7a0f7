import Synchronization

/// A set of counters that many threads bump at once without sharing a cache line: each thread
/// adds to its own stripe, and reading sums the stripes. Reads are exact once writers are done,
/// and never tear a single counter.
final class StripedCounters: @unchecked Sendable {
    /// Bytes between stripes: two cache lines, so adjacent-line prefetching does not pair them.
    private static let stripeBytes = 128
    private let width: Int
    private let storage: UnsafeMutablePointer<Atomic<Int>>
    private let stride: Int

    /// Counters numbered `0..<width`.
    init(width: Int) {
        precondition(width > 0 && width * MemoryLayout<Int>.stride <= Self.stripeBytes, "StripedCounters holds 1...16 counters")
        self.width = width
        stride = Self.stripeBytes / MemoryLayout<Atomic<Int>>.stride
        let slots = stride * ThreadStripe.count
        storage = UnsafeMutableRawPointer.allocate(byteCount: slots * MemoryLayout<Atomic<Int>>.stride, alignment: Self.stripeBytes)
            .bindMemory(to: Atomic<Int>.self, capacity: slots)
        for slot in 0..<slots { (storage + slot).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deinitialize(count: stride * ThreadStripe.count)
        storage.deallocate()
    }

    /// Adds `amount` to counter `index`.
    @inline(__always)
    func add(_ amount: Int = 1, to index: Int) {
        storage[ThreadStripe.current &* stride &+ index].wrappingAdd(amount, ordering: .relaxed)
    }

    /// The sum of counter `index` over every stripe.
    func value(of index: Int) -> Int {
        var total = 0
        for stripe in 0..<ThreadStripe.count { total &+= storage[stripe &* stride &+ index].load(ordering: .relaxed) }
        return total
    }

    /// Sets counter `index` to `value` (the other stripes to zero). Not atomic with concurrent adds.
    func reset(_ index: Int, to value: Int = 0) {
        for stripe in 0..<ThreadStripe.count { storage[stripe &* stride &+ index].store(0, ordering: .relaxed) }
        storage[index].store(value, ordering: .relaxed)
    }
}
