import Foundation

/// A read-only look into a store file that creates, renames and writes nothing: for
/// `rasterkit cache stats` and for telling, before any write, whether a file is a store.
///
/// Opened through an SQLite URI with `mode=ro`, and `immutable=1` unless a WAL and its index are
/// both there: without them the file holds every committed entry, and an immutable connection
/// neither creates them nor takes locks. (A WAL without its index is then ignored, so its last
/// transactions may be missing from what is read: it is left for a writer to recover.)
final class DiskCacheInspector {
    private let connection: SQLiteConnection
    private let path: String

    /// Opens `url`, which must exist and have passed ``DiskCacheFile/examine(_:)``.
    init(url: URL) throws {
        path = url.path
        let base = DiskCacheFile.resolvedPath(path)
        let hasLiveWAL = ["-wal", "-shm"].allSatisfy { FileManager.default.fileExists(atPath: base + $0) }
        // In an SQLite URI, `?`, `#` and `%` in the path must be escaped.
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        let uri = "file:\(escaped)?mode=ro" + (hasLiveWAL ? "" : "&immutable=1")
        do { connection = try SQLiteConnection(uri, mode: .readOnlyURI, busyTimeout: 5) } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    /// Throws ``DiskCacheError/notAStore(path:reason:)`` unless the database is a RasterKit
    /// store or empty; returns whether it is a store (rather than an empty database).
    func checkIsStore() throws -> Bool {
        let layout: DiskCacheSchema.Layout
        do { layout = try DiskCacheSchema.layout(of: connection) } catch let error as SQLiteFailure {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
        if layout.applicationID == DiskCacheSchema.applicationID { return layout.tables.contains("entries") }
        if let foreign = DiskCacheSchema.foreignness(applicationID: layout.applicationID, tables: layout.tables,
                                                     migrationsApplied: layout.appliedMigrations.count) {
            throw DiskCacheError.notAStore(path: path, reason: "another program's database: \(foreign)")
        }
        return false
    }

    /// What the store holds; call after ``checkIsStore()`` returned true.
    func contents(now: Double) throws -> DiskCacheContents {
        do {
            let totals = try DiskCacheQueries.totals(connection, now: now)
            return DiskCacheContents(count: totals.count, totalBytes: totals.bytes, expiredCount: totals.expired,
                                     types: try DiskCacheQueries.typeSummaries(connection))
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }
}
