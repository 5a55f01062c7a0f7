import Foundation

/// Runs `operation` and blocks the calling thread until it ends. libFuzzer calls its callback on
/// the main thread, which is not one of Swift's cooperative threads, so blocking it waits for
/// work on those threads without starving them.
public func waitFor(_ operation: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await operation()
        done.signal()
    }
    done.wait()
}
