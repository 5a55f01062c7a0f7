import Foundation
import RasterKit
import Synchronization

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = SanitizerVisibleMutex(0)
    @discardableResult
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
    var count: Int { value.withLock { $0 } }
}

/// Holds draws open until the test opens it, so concurrent requests can pile up on a draw.
final class Gate: Sendable {
    private let opened = SanitizerVisibleMutex(false)
    private let entered = Counter()

    /// Blocks the calling (draw) thread until `open()`, or 60 seconds as a safety net against a
    /// hung test (long, so a heavily loaded machine never opens it early).
    func pass() {
        entered.increment()
        let deadline = Date().addingTimeInterval(60)
        while !opened.withLock({ $0 }), Date() < deadline { usleep(200) }
    }

    func open() { opened.withLock { $0 = true } }

    /// How many draws have reached the gate.
    var arrivals: Int { entered.count }

    /// Waits until `condition` holds, or 30 seconds; returns whether it held.
    @discardableResult
    static func wait(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            if Date() > deadline { return false }
            usleep(200)
        }
        return true
    }
}

/// Waits (polling) until `condition` holds, for at most 30 seconds of wall time.
func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
