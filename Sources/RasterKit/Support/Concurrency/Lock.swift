import Synchronization

/// The package's lock for a value that several threads change: a `Mutex` whose hand-offs
/// ThreadSanitizer can follow.
///
/// Under contention, Synchronization's `Mutex` on Linux passes the lock through the kernel
/// (futex priority-inheritance calls inside an uninstrumented library), so ThreadSanitizer sees
/// no ordering between two critical sections and reports races that cannot happen. An atomic
/// counter bumped with acquire-release ordering at both ends of every critical section gives
/// it that ordering. Use it for state that threads hand to each other often (render threads
/// and a writer queue), so `--sanitize=thread` runs stay meaningful. Sanitizer runs are debug
/// builds, so release builds skip the counter and get a plain `Mutex`.
package struct Lock<Value>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let handOff = Atomic<UInt>(0)

    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    package borrowing func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in
            #if DEBUG
            handOff.wrappingAdd(1, ordering: .acquiringAndReleasing)
            defer { handOff.wrappingAdd(1, ordering: .acquiringAndReleasing) }
            #endif
            return try body(&value)
        }
    }
}
