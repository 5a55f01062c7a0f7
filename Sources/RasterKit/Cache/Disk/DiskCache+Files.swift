import Foundation

extension DiskCache {
    /// Checks, reading only, that the file at `url` may be used as a store: missing (it will be
    /// created), empty, or a RasterKit store, possibly damaged. Creates, renames and writes
    /// nothing, so a tool can refuse a mistaken path before it renders anything.
    ///
    /// - Throws: ``DiskCacheError`` with ``DiskCacheError/refusal`` set for another program's
    ///   database, a text file, a device, or a `-wal`/`-shm`/`-journal` SQLite would write through.
    public static func checkStoreFile(at url: URL) throws {
        try checkStoreFile(atPath: url.path)
    }

    /// ``checkStoreFile(at:)`` for a path, as a command line gives it.
    package static func checkStoreFile(atPath path: String) throws {
        guard try DiskCacheFile.examine(path: path) == .unclaimedDatabase else { return }
        // A damaged database that does not say it is ours is refused when opened; here only
        // what can be read is judged.
        do { _ = try DiskCacheInspector(url: URL(fileURLWithPath: path)).checkIsStore() } catch let error as DiskCacheError where !error.isNotAStore {
            return
        }
    }

    /// What the store at `url` holds, read without creating, renaming or writing any file (not
    /// even SQLite's `-wal` and `-shm`): nil when there is no file, empty contents for an empty
    /// file or database.
    ///
    /// - Throws: ``DiskCacheError``: with ``DiskCacheError/refusal`` set when the file is not a
    ///   RasterKit store; with SQLite's code when it is one that cannot be read (damaged).
    public static func contents(at url: URL, now: Date = Date()) throws -> DiskCacheContents? {
        let url = url.standardizedFileURL
        switch try DiskCacheFile.examine(url) {
        case .missing: return nil
        case .empty: return DiskCacheContents()
        case .store, .unclaimedDatabase:
            let inspector = try DiskCacheInspector(url: url)
            guard try inspector.checkIsStore() else { return DiskCacheContents() }
            return try inspector.contents(now: now.timeIntervalSince1970)
        }
    }

    /// Deletes the store at `url` with its `-wal`, `-shm` and `-journal` files, without running
    /// any SQL: it works on a full disk, where deleting rows would need free pages, and on a
    /// damaged store. Processes that still have the store open keep using the deleted files
    /// until they close it; the next one to open the path starts a fresh store. Companion
    /// files are unlinked, never followed. Returns whether there was a store to delete.
    ///
    /// - Throws: ``DiskCacheError`` with ``DiskCacheError/refusal`` set, deleting nothing, when
    ///   the file is not a RasterKit store; with `SQLITE_IOERR` when a file cannot be deleted.
    @discardableResult
    public static func deleteStore(at url: URL) throws -> Bool {
        let url = url.standardizedFileURL
        let kind: DiskCacheFile.Kind
        do {
            kind = try DiskCacheFile.examine(url)
        } catch let error as DiskCacheError where error.refusal == .unsafeCompanionFile {
            // Deleting a link removes the link alone, so such companions go with the store.
            kind = try DiskCacheFile.examine(url, checkingCompanions: false)
        }
        if kind == .unclaimedDatabase {
            // Deleting needs proof the file is ours: a damaged database without our id may be
            // someone else's, so one that cannot be read is refused too.
            do { _ = try DiskCacheInspector(url: url).checkIsStore() } catch let error as DiskCacheError where !error.isNotAStore {
                throw DiskCacheError.notAStore(path: url.path, reason: "an SQLite database that cannot be read: \(error.message)")
            }
        }
        // The store itself where a link at `url` points (the link stays, to make the next store
        // there), and the companions beside it, where SQLite puts them.
        let path = DiskCacheFile.resolvedPath(url.path)
        for file in [path] + DiskCacheFile.companionSuffixes.map({ path + $0 }) {
            guard unlink(file) == 0 || errno == ENOENT else {
                throw DiskCacheError(operation: .write, resultCode: DiskCacheError.ioError,
                                     message: "cannot delete \(file): \(String(cString: strerror(errno)))",
                                     path: url.path)
            }
        }
        return kind != .missing
    }
}
