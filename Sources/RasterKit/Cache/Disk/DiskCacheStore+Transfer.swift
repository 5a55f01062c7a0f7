import Foundation
internal import GRDB
internal import GRDBSQLite

/// A store file opened to be imported: read-only, and checked as a whole before any entry is read.
///
/// The file is untrusted input (anyone may hand one over), so nothing in it runs: its schema must
/// be exactly what this build's migrations make — no view, trigger, index, generated column or
/// constraint of its own, which SQLite would evaluate while the rows are read (a generated
/// column of `zeroblob(…)` made a 32 KB file cost gigabytes) — before any table is read;
/// `trusted_schema` is off; no string or blob over the input limit is read; and every query
/// goes through the primary keys the exact schema guarantees, so an import takes time linear in
/// the rows.
struct DiskCacheImportSource {
    let path: String
    let queue: DatabaseQueue
    /// Whether its entries record the encoder of their PNG, and it keeps files' bytes (schema v3).
    let hasEncodedOutputs: Bool
    /// Whether it keeps entries' touches beside them (schema v5).
    let hasAccessTimes: Bool
    /// The most bytes one entry, or one page of entries, may hold.
    let maximumBytes: Int

    init(url: URL, maximumBytes: Int = ResourceLimits.default.maximumInputBytes) throws {
        path = url.path
        self.maximumBytes = maximumBytes
        // Another program's database, a text file, a missing file: refused without being opened for writing.
        try DiskCache.checkStoreFile(at: url)
        guard FileManager.default.fileExists(atPath: path) else {
            throw DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                                 message: "there is no file to import", path: path)
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "RasterKit.DiskCache.import"
        configuration.prepareDatabase { db in
            // Functions in the file's schema may not run, and no value larger than an entry may be made.
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, Int32(clamping: maximumBytes))
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            (hasEncodedOutputs, hasAccessTimes) = try queue.read { db in
                let migrations = try Self.checkSchema(db)
                // The open's inspection reads only the header and schema; an import reads every row.
                let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard check == ["ok"] else {
                    throw DiskCacheSchema.Damage.corrupt("integrity_check: \(check.prefix(3).joined(separator: "; "))")
                }
                return (migrations.contains("v3-encoded-outputs"), migrations.contains("v5-access-times"))
            }
        } catch let damage as DiskCacheSchema.Damage {
            throw DiskCacheError.notAStore(path: path, reason: damage.description)
        } catch let error as DiskCacheError {
            throw error
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    /// The migrations the file's schema records, once its schema is exactly the one they make
    /// (see ``DiskCacheSchema/check(_:)``). Throws ``DiskCacheSchema/Damage`` otherwise.
    private static func checkSchema(_ db: Database) throws -> Set<String> {
        let applied = try DiskCacheSchema.inspect(db)
        guard !applied.isEmpty else { throw DiskCacheSchema.Damage.foreign("it has no migrations") }
        return applied
    }
}

extension DiskCacheStore {
    /// Writes a compact, consistent copy of the database to `path` (which must not exist).
    func copy(to path: String) throws {
        try pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    /// Copies `source`'s entries that pass their checksum and are not here yet, a page at a
    /// time (one transaction each, so memory stays bounded by a page of PNGs), then the bytes
    /// kept beside them.
    func importEntries(from source: DiskCacheImportSource) throws -> DiskCacheImportReport {
        var report = DiskCacheImportReport()
        let encoding = source.hasEncodedOutputs ? "png_encoding" : "NULL"
        let lastAccess = source.hasAccessTimes ? DiskCacheSchema.lastAccessSQL : "last_access"
        var lastID = Int64.min
        while true {
            // A page is at most `importPageSize` entries and at most `maximumBytes` of PNGs (at
            // least one entry): the sizes are read first, without the blobs.
            let sizes = try source.queue.read { db in
                try Row.fetchAll(db, sql: "SELECT id, length(png) FROM entries WHERE id > ? ORDER BY id LIMIT \(Self.importPageSize)",
                                 arguments: [lastID])
            }
            guard !sizes.isEmpty else { break }
            var pageEnd: Int64 = sizes[0][0], pageBytes = 0
            for size in sizes {
                let bytes: Int = size[1] ?? 0
                if pageBytes > 0, pageBytes + bytes > source.maximumBytes { break }
                pageBytes += bytes
                pageEnd = size[0]
            }
            let rows = try source.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, digest, type_name, render_version, key_description, pixel_width, pixel_height, scale,
                           cap_top, cap_left, cap_bottom, cap_right, created_at, \(lastAccess), expires_at, children,
                           checksum, \(encoding), png
                    FROM entries WHERE id > ? AND id <= ? ORDER BY id
                    """, arguments: [lastID, pageEnd])
            }
            lastID = pageEnd
            report.entriesInFile += rows.count
            try writing { db in
                let insert = try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO entries (id, digest, type_name, render_version, key_description, pixel_width,
                        pixel_height, scale, cap_top, cap_left, cap_bottom, cap_right, created_at, last_access,
                        expires_at, children, checksum, png_encoding, png, byte_size)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in rows {
                    guard Self.isIntact(row) else {
                        report.damaged += 1
                        continue
                    }
                    let png: Data = row[18]
                    var values = StatementArguments((0..<19).map { row[$0] as DatabaseValue })
                    values += [png.count]
                    try insert.execute(arguments: values)
                    if db.changesCount > 0 { report.imported += 1 } else { report.alreadyPresent += 1 }
                }
            }
        }
        if source.hasEncodedOutputs { report.keptOutputs = try importKeptOutputs(from: source) }
        return report
    }

    /// Bytes kept beside entries, for entries this store now holds with the same digest.
    private func importKeptOutputs(from source: DiskCacheImportSource) throws -> Int {
        var imported = 0
        var after: (Int64, String) = (.min, "")
        while true {
            // Pages bounded in bytes as for entries: the sizes first, without the blobs.
            let sizes = try source.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT entry_id, encoding, length(bytes) FROM encoded_outputs
                    WHERE (entry_id, encoding) > (?, ?) ORDER BY entry_id, encoding LIMIT \(Self.importPageSize)
                    """, arguments: [after.0, after.1])
            }
            guard !sizes.isEmpty else { break }
            var end: (Int64, String) = (sizes[0][0], sizes[0][1]), pageBytes = 0
            for size in sizes {
                let bytes: Int = size[2] ?? 0
                if pageBytes > 0, pageBytes + bytes > source.maximumBytes { break }
                pageBytes += bytes
                end = (size[0], size[1])
            }
            let rows = try source.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT kept.entry_id, kept.encoding, kept.checksum, kept.bytes, entries.digest
                    FROM encoded_outputs AS kept JOIN entries ON entries.id = kept.entry_id
                    WHERE (kept.entry_id, kept.encoding) > (?, ?) AND (kept.entry_id, kept.encoding) <= (?, ?)
                    ORDER BY kept.entry_id, kept.encoding
                    """, arguments: [after.0, after.1, end.0, end.1])
            }
            after = end
            try writing { db in
                let insert = try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO encoded_outputs (entry_id, encoding, checksum, bytes)
                    SELECT id, ?3, ?4, ?5 FROM entries WHERE id = ?1 AND digest = ?2
                    """)
                let grow = try db.cachedStatement(sql: "UPDATE entries SET byte_size = byte_size + ?2 WHERE id = ?1")
                for row in rows {
                    let id: Int64 = row[0], encoding: String = row[1], checksum: Int64 = row[2], bytes: Data = row[3]
                    guard let digest = StableDigest(storedBytes: row[4]), digest.storedID == id,
                          DiskCacheChecksum.of(digest: digest, encoding: encoding, bytes: bytes) == checksum else { continue }
                    try insert.execute(arguments: [id, digest.storedBytes, encoding, checksum, bytes])
                    if db.changesCount > 0 {
                        try grow.execute(arguments: [id, bytes.count])
                        imported += 1
                    }
                }
            }
        }
        return imported
    }

    /// Whether an entry's row id, digest, checksum and PNG belong together, and its PNG's header
    /// is the size its columns state, within the default pixel limits (an entry is still checked
    /// against its key's render before it is served).
    private static func isIntact(_ row: Row) -> Bool {
        guard let digest = StableDigest(storedBytes: row[1]), digest.storedID == (row[0] as Int64),
              let checksum = row[16] as Int64?, let png = row[18] as Data?,
              DiskCacheChecksum.of(digest: digest, png: png) == checksum,
              let width = row[5] as Int?, let height = row[6] as Int?,
              let header = try? PNGHeader(png), header.width == width, header.height == height else { return false }
        return (try? PixelLimits.default.check(pixelWidth: width, pixelHeight: height)) != nil
    }

    /// Entries read and written per transaction while importing.
    private static let importPageSize = 256
}
