import Foundation
internal import GRDB

/// A store file opened to be imported: read-only, and checked as a whole before any entry is read.
struct DiskCacheImportSource {
    let path: String
    let queue: DatabaseQueue
    /// Whether its entries record the encoder of their PNG, and it keeps files' bytes (schema v3).
    let hasEncodedOutputs: Bool
    /// Whether it keeps entries' touches beside them (schema v5).
    let hasAccessTimes: Bool

    init(url: URL) throws {
        path = url.path
        // Another program's database, a text file, a missing file: refused without being opened for writing.
        try DiskCache.checkStoreFile(at: url)
        guard FileManager.default.fileExists(atPath: path) else {
            throw DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                                 message: "there is no file to import", path: path)
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "RasterKit.DiskCache.import"
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            (hasEncodedOutputs, hasAccessTimes) = try queue.read { db in
                try DiskCacheSchema.inspect(db)
                guard try db.tableExists("entries") else {
                    throw DiskCacheSchema.Damage.corrupt("it holds no entries table")
                }
                // The open's inspection reads only the header and schema; an import reads every row.
                let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard check == ["ok"] else {
                    throw DiskCacheSchema.Damage.corrupt("integrity_check: \(check.prefix(3).joined(separator: "; "))")
                }
                return (try db.tableExists("encoded_outputs"), try db.tableExists("access_times"))
            }
        } catch let damage as DiskCacheSchema.Damage {
            throw DiskCacheError.notAStore(path: path, reason: damage.description)
        } catch let error as DiskCacheError {
            throw error
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
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
            let rows = try source.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, digest, type_name, render_version, key_description, pixel_width, pixel_height, scale,
                           cap_top, cap_left, cap_bottom, cap_right, created_at, \(lastAccess), expires_at, children,
                           checksum, \(encoding), png
                    FROM entries WHERE id > ? ORDER BY id LIMIT \(Self.importPageSize)
                    """, arguments: [lastID])
            }
            guard let last = rows.last else { break }
            lastID = last[0]
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
            let rows = try source.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT kept.entry_id, kept.encoding, kept.checksum, kept.bytes, entries.digest
                    FROM encoded_outputs AS kept JOIN entries ON entries.id = kept.entry_id
                    WHERE (kept.entry_id, kept.encoding) > (?, ?) ORDER BY kept.entry_id, kept.encoding
                    LIMIT \(Self.importPageSize)
                    """, arguments: [after.0, after.1])
            }
            guard let last = rows.last else { break }
            after = (last[0], last[1])
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

    /// Whether an entry's row id, digest, checksum and PNG belong together.
    private static func isIntact(_ row: Row) -> Bool {
        guard let digest = StableDigest(storedBytes: row[1]), digest.storedID == (row[0] as Int64),
              let checksum = row[16] as Int64?, let png = row[18] as Data? else { return false }
        return DiskCacheChecksum.of(digest: digest, png: png) == checksum
    }

    /// Entries read and written per transaction while importing.
    private static let importPageSize = 256
}
