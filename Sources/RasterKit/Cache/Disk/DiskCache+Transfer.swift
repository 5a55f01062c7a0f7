import Foundation

/// What ``DiskCache/importEntries(from:)`` did.
public struct DiskCacheImportReport: Sendable, Hashable, Codable {
    /// Entries the file held.
    public var entriesInFile = 0
    /// Entries added to the store.
    public var imported = 0
    /// Entries the store already held for the same key, kept as they were (same key, same render).
    public var alreadyPresent = 0
    /// Entries refused because their checksum does not match their key and bytes, or that
    /// were written without one: damaged in transit, or made by hand.
    public var damaged = 0
    /// Bytes batches wrote to files (nine-patches) imported with their entries.
    public var keptOutputs = 0

    /// An empty report.
    public init() {}
}

extension DiskCache {
    /// Writes a consistent copy of the whole store to `url`, as one compact SQLite file (the
    /// pages of removed entries left out), for moving renders to another machine: a CI cache,
    /// an artifact, another developer's store. Pending renders are written first. The copy is
    /// made under a temporary name beside `url` and renamed into place, so a reader never sees
    /// half of it; an existing regular file at `url` is replaced, anything else is refused.
    ///
    /// ```swift
    /// try DiskCache.default.export(to: URL(fileURLWithPath: "renders-export.sqlite"))
    /// ```
    public func export(to url: URL) throws {
        try checkOpen(.write)
        try flush()
        let destination = url.standardizedFileURL.path
        guard destination != self.url.standardizedFileURL.path else {
            throw DiskCacheError(operation: .write, resultCode: DiskCacheError.cannotOpen,
                                 message: "cannot export the store onto itself", path: destination)
        }
        if let kind = AtomicFileWriter.nonRegularKind(at: destination) {
            throw DiskCacheError(operation: .write, resultCode: DiskCacheError.cannotOpen,
                                 message: "cannot export to '\(destination)': it is \(kind); only a regular file is replaced",
                                 path: destination)
        }
        let temporary = AtomicFileWriter.temporaryPath(for: destination)
        do {
            try writer.exclusively { try store.copy(to: temporary) }
        } catch {
            unlink(temporary)
            throw DiskCacheError.wrapping(error, operation: .write, path: destination)
        }
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DiskCacheError(operation: .write, resultCode: DiskCacheError.cannotOpen,
                                 message: "cannot move the export into place: \(reason)", path: destination)
        }
    }

    /// Adds the entries of a file ``export(to:)`` wrote (or any RasterKit store) to this store.
    ///
    /// The file is checked before anything is added: it must be a RasterKit store this build can
    /// read (not another program's database, not one made by a newer RasterKit), and pass SQLite's
    /// `integrity_check`. Then every entry is checked against its checksum, which binds its key
    /// to its bytes: a damaged entry is counted in ``DiskCacheImportReport/damaged`` and left out,
    /// never served. Entries the store already holds for a key are kept. The file is only read.
    /// Afterwards the store is pruned to its byte limit.
    ///
    /// - Throws: ``DiskCacheError`` when the file is missing, not a usable store, or damaged as a
    ///   whole; nothing has been added then.
    public func importEntries(from url: URL) throws -> DiskCacheImportReport {
        try checkOpen(.write)
        guard url.standardizedFileURL.path != self.url.standardizedFileURL.path else {
            throw DiskCacheError(operation: .read, resultCode: DiskCacheError.cannotOpen,
                                 message: "cannot import the store into itself", path: url.path)
        }
        let source = try DiskCacheImportSource(url: url)
        let report = try writer.exclusively { try store.importEntries(from: source) }
        _ = try prune()
        return report
    }
}
