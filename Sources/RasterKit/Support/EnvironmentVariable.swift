#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's environment, one variable at a time.
package enum EnvironmentVariable {
    /// The value of the variable `name`, or nil when it is not set. Read with `getenv`:
    /// Foundation's `ProcessInfo.environment` copies every variable into a dictionary, a tenth of
    /// a millisecond each time a warm run asks.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
