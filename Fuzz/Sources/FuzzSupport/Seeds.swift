import Foundation
import Synchronization

/// Seeds that only the build under test can make: an object that names its render's key, or a
/// run pack that names the build. They are written into the first corpus folder on the command
/// line (the one `make fuzz` gives first, `Fuzz/.build/corpus/<target>`) before libFuzzer reads
/// it, so every campaign starts from genuine inputs of this build rather than from committed
/// bytes that go stale whenever the format or the build changes.
public enum Seeds {
    /// Writes `seeds` (file name → bytes) into the first folder argument, if any.
    public static func write(_ seeds: [String: Data]) {
        let arguments = CommandLine.arguments.dropFirst()
        guard let folder = arguments.first(where: { !$0.hasPrefix("-") && isFolder($0) }) else { return }
        for (name, bytes) in seeds {
            try? bytes.write(to: URL(fileURLWithPath: folder).appendingPathComponent("genuine-\(name)"))
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A new, empty folder for a harness's fixtures, removed when the process exits.
    public static func scratchFolder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rasterkit-fuzz-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        scratchFolders.withLock { $0.append(url) }
        return url
    }
}

private let scratchFolders: Mutex<[URL]> = {
    atexit {
        for url in scratchFolders.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
    return Mutex([])
}()
