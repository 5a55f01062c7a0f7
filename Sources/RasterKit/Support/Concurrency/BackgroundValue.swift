import Dispatch

/// A value made on another thread while the caller goes on with other work; ``value`` waits
/// for it. A warm command opens its render store this way while it plans its outputs: on two
/// processors the two take about as long, and neither needs the other.
package final class BackgroundValue<Value: Sendable>: Sendable {
    private let made = DispatchGroup()
    private let result = Lock<Value?>(nil)

    /// Starts making the value with `make` at once, on a thread of its own.
    package init(_ make: @escaping @Sendable () -> Value) {
        made.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let value = make()
            result.withLock { $0 = value }
            made.leave()
        }
    }

    /// The value, once made (waiting for it if needed); the same value every time.
    package var value: Value {
        made.wait()
        // Set before the group was left, never changed after.
        return result.withLock { $0! }
    }
}
