#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A count kept per thread, such as how many renders the calling thread is inside.
final class ThreadLocalCount: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        self.key = key
    }

    /// The calling thread's count; 0 until it sets one.
    var value: Int {
        get { pthread_getspecific(key).map { Int(bitPattern: $0) } ?? 0 }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
