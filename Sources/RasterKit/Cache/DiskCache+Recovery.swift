import Foundation
internal import Logging

extension DiskCacheStore {
    /// Opens the store at `url`. A file that is not a usable store (not a database, truncated,
    /// failing `quick_check`, another program's tables, a newer schema) is moved aside as
    /// `<name>.corrupt-<timestamp>`, with a warning, and a fresh store is made in its place:
    /// a cache can always be rebuilt, so losing it must never stop rendering.
    static func openRecovering(at url: URL, options: DiskCacheOptions) throws -> DiskCacheStore {
        try checkLocation(of: url)
        do {
            return try open(at: url, options: options)
        } catch let damage as DiskCacheSchema.Damage {
            let aside = try moveAside(url, at: options.clock())
            options.logger.warning("moved an unusable render store aside and started a fresh one", metadata: [
                "path": "\(url.path)", "movedTo": "\(aside.lastPathComponent)", "reason": "\(damage)",
            ])
            do {
                return try open(at: url, options: options)
            } catch let damage as DiskCacheSchema.Damage {
                throw DiskCacheError(operation: .recover, resultCode: 11,
                                     message: "the fresh store is unusable too: \(damage)", path: url.path)
            }
        }
    }

    /// Fails early, with a clear message, for locations SQLite could only answer with "unable to
    /// open database file". The directory is never created: a mistyped path should fail.
    private static func checkLocation(of url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                                 message: "the path is a directory, not a store file", path: url.path)
        }
        let directory = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                                 message: "the directory \(directory.path) does not exist", path: url.path)
        }
    }

    /// Renames the store and its WAL, shared-memory and journal files to
    /// `<name>.corrupt-<UTC timestamp>` (plus their usual suffixes) in the same directory.
    static func moveAside(_ url: URL, at time: Double) throws -> URL {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: Date(timeIntervalSince1970: time))
        let directory = url.deletingLastPathComponent()
        var target = directory.appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            attempt += 1
            target = directory.appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)-\(attempt)")
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let source = url.path + suffix
            guard FileManager.default.fileExists(atPath: source) else { continue }
            guard rename(source, target.path + suffix) == 0 else {
                let reason = String(cString: strerror(errno))
                throw DiskCacheError(operation: .recover, resultCode: DiskCacheError.ioError,
                                     message: "cannot move the unusable store aside to \(target.lastPathComponent)\(suffix): \(reason)",
                                     path: url.path)
            }
        }
        return target
    }
}
