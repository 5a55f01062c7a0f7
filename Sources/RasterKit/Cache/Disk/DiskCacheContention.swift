import Foundation

/// Trying again, for a while, what a race with another process on one store made fail: two
/// processes creating a store at once can deadlock on its switch to WAL mode (SQLite answers one
/// "busy" at once to break it), or apply the same migration twice.
enum DiskCacheContention {
    /// What `body` returns, tried again while `isPassing` says its error is one such race, for up
    /// to `seconds` from the first try. Between tries it pauses 1, 2, 4 … up to 32 ms, with
    /// jitter, so processes that met once do not meet again.
    static func retrying<T>(for seconds: TimeInterval, while isPassing: (any Error) -> Bool,
                            _ body: () throws -> T) throws -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        var attempt = 0
        while true {
            do {
                return try body()
            } catch where isPassing(error) && DispatchTime.now().uptimeNanoseconds < deadline {
                attempt += 1
                let milliseconds = Double(1 << min(attempt - 1, 5)) * Double.random(in: 0.5...1.5)
                Thread.sleep(forTimeInterval: milliseconds / 1000)
            }
        }
    }
}
