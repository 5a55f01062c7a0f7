#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A small number that stays the same for the life of the calling thread, handed out round-robin
/// as threads first ask. Structures that many threads read at once (``ReadMostlyLock``,
/// ``StripedCounter``) give each stripe its own cache line and let a thread touch only its own,
/// so threads that hit the same cache entry never write to the same memory.
///
/// Round-robin rather than a hash of the thread's id: the first threads of a process (the ones a
/// benchmark or a server's event loops start together) always get different stripes.
enum ThreadStripe {
    /// How many stripes there are: a power of two, more than the cores of most machines.
    static let count = 16

    /// The calling thread's stripe, in `0..<count`.
    @inline(__always)
    static var current: Int {
        if let value = pthread_getspecific(key) { return Int(bitPattern: value) &- 1 }
        return assign()
    }

    private static func assign() -> Int {
        let stripe = next.wrappingAdd(1, ordering: .relaxed).oldValue & (count - 1)
        // Stored plus one, since a thread's value starts as nil.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: stripe + 1))
        return stripe
    }

    private static let next = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()
}
