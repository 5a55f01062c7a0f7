import Foundation
import RasterKit
import Synchronization

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Lock(0)
    @discardableResult
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
    func decrement() { value.withLock { $0 -= 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Holds draws open until the test opens it, so concurrent requests can pile up on a draw.
final class Gate: Sendable {
    private let opened = Lock(false)
    private let entered = Counter()

    /// Blocks the calling (draw) thread until `open()`, or 180 seconds as a safety net against a
    /// hung test (longer than any wait below, so a loaded machine never opens it early).
    func pass() {
        entered.increment()
        let deadline = Date().addingTimeInterval(180)
        while !opened.withLock({ $0 }), Date() < deadline { usleep(200) }
    }

    func open() { opened.withLock { $0 = true } }

    /// How many draws have reached the gate.
    var arrivals: Int { entered.count }

    /// Blocks the calling thread until `condition` holds, or `waitLimit`; returns whether it
    /// held. For synchronous tests only: an async test must `await eventually`, or it holds one
    /// of the few threads the tasks it waits for need.
    @discardableResult
    static func wait(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(waitLimit)
        while !condition() {
            if Date() > deadline { return false }
            usleep(200)
        }
        return true
    }
}

/// How long a test waits for something to happen before failing. Generous: synchronous tests
/// occupy Swift's cooperative threads (two on a 2-core machine) while they run, and under
/// ThreadSanitizer some run for a minute, during which async tests' tasks wait their turn.
let waitLimit: TimeInterval = 120

/// Waits (polling, without blocking a thread) until `condition` holds, for at most `waitLimit`.
func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(waitLimit)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
