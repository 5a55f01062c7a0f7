#if canImport(Glibc)
import Glibc
#endif

/// The sanitizers the running test process was built with.
package enum Sanitizers {
    /// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`): its
    /// runtime, and so `__tsan_init`, is linked in.
    package static let threadSanitizerIsActive: Bool = dlsym(nil, "__tsan_init") != nil
}
