// Paths the benchmarks share: the rasterkit binary under test, and scratch folders that are
// removed when the benchmark process exits (cold runs leave an output folder and a store each).
import Foundation

/// The release rasterkit (`make bench` builds it statically and sets RASTERKIT_BINARY).
public let rasterkitBinary = ProcessInfo.processInfo.environment["RASTERKIT_BINARY"]
    ?? FileManager.default.currentDirectoryPath + "/../.build/release/rasterkit"

/// This process's scratch root, removed at exit.
private let scratchRoot: String = {
    let path = NSTemporaryDirectory() + "rasterkit-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return path
}()

/// A new empty folder named after `purpose`.
public func scratchFolder(_ purpose: String) -> String {
    let path = scratchRoot + "/\(purpose)-" + UUID().uuidString.prefix(8)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
