import Foundation
internal import Logging

extension DiskCacheStore {
    /// Opens the store at `url`. A RasterKit store that cannot be used (its header garbled, the
    /// file truncated, a newer schema) is moved aside as `<name>.corrupt-<timestamp>`, with a
    /// warning, and a fresh store is made in its place: a cache can always be rebuilt, so losing
    /// it must never stop rendering. Anything else (another program's database, a text file, a
    /// device, a companion file SQLite would write through) is refused, untouched, with
    /// ``DiskCacheError/refusal`` set: only files that were ours are ever moved.
    static func openRecovering(at url: URL, options: DiskCacheOptions) throws -> DiskCacheStore {
        try checkLocation(of: url)
        let kind = try DiskCacheFile.examine(url)
        do {
            return try open(at: url, options: options)
        } catch let damage as DiskCacheSchema.Damage {
            // Without our id in the header, a damaged file may be anyone's: leave it be.
            guard kind == .store, !damage.isForeign else {
                throw DiskCacheError.notAStore(path: url.path, reason: "\(damage)")
            }
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
    /// `<name>.corrupt-<UTC timestamp>` (plus their usual suffixes) in the same directory, then
    /// deletes all but the newest ``keptCopies`` such copies: a store damaged on every run
    /// must not fill the disk with them.
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
        for suffix in [""] + DiskCacheFile.companionSuffixes {
            let source = url.path + suffix
            guard FileManager.default.fileExists(atPath: source) else { continue }
            guard rename(source, target.path + suffix) == 0 else {
                let reason = String(cString: strerror(errno))
                throw DiskCacheError(operation: .recover, resultCode: DiskCacheError.ioError,
                                     message: "cannot move the unusable store aside to \(target.lastPathComponent)\(suffix): \(reason)",
                                     path: url.path)
            }
        }
        removeOldCopies(of: url)
        return target
    }

    /// How many moved-aside copies of a store are kept, newest first.
    static let keptCopies = 2

    /// Deletes moved-aside copies of the store beyond the newest ``keptCopies``. Their names
    /// sort by time: the stamp is ISO 8601 in UTC, and `-2`, `-3`… (numerically) within a second.
    private static func removeOldCopies(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = "\(url.lastPathComponent).corrupt-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let copies = names.filter { name in
            name.hasPrefix(prefix) && !DiskCacheFile.companionSuffixes.contains { name.hasSuffix($0) }
        }.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        for copy in copies.dropFirst(keptCopies) {
            for suffix in [""] + DiskCacheFile.companionSuffixes {
                // unlink removes a link itself, never what it points to.
                unlink(directory.appendingPathComponent(copy + suffix).path)
            }
        }
    }
}
