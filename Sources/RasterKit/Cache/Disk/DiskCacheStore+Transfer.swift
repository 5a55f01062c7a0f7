import Foundation

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
    /// A read-only connection on the file; used by one import at a time.
    let connection: SQLiteConnection
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
        do {
            connection = try SQLiteConnection(path, mode: .readOnly, busyTimeout: 5)
            // Functions in the file's schema may not run, and no value larger than an entry may be made.
            try connection.execute("PRAGMA trusted_schema = OFF")
            connection.limitLength(to: maximumBytes)
            let applied = try DiskCacheSchema.check(fileOf: connection)
            // The open's inspection reads only the header and schema; an import reads every row.
            let check = try connection.column("PRAGMA integrity_check").compactMap(\.string)
            guard check == ["ok"] else {
                throw DiskCacheSchema.Damage.corrupt("integrity_check: \(check.prefix(3).joined(separator: "; "))")
            }
            hasEncodedOutputs = applied.contains("v3-encoded-outputs")
            hasAccessTimes = applied.contains("v5-access-times")
        } catch let damage as DiskCacheSchema.Damage {
            throw DiskCacheError.notAStore(path: path, reason: damage.description)
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }
}

extension DiskCacheStore {
    /// Writes a compact, consistent copy of the database to `path` (which must not exist).
    func copy(to path: String) throws {
        try writingWithoutTransaction { try $0.execute("VACUUM INTO ?", [.text(path)]) }
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
            let sizes = try source.read {
                try $0.rows("SELECT id, length(png) FROM entries WHERE id > ? ORDER BY id LIMIT \(Self.importPageSize)",
                            [.integer(lastID)])
            }
            guard let pageEnd = Self.pageEnd(sizes, key: { $0[0].int64 }, bytes: { $0[1].int }, limit: source.maximumBytes)
            else { break }
            let rows = try source.read {
                try $0.rows("""
                    SELECT id, digest, type_name, render_version, key_description, pixel_width, pixel_height, scale,
                           cap_top, cap_left, cap_bottom, cap_right, created_at, \(lastAccess), expires_at, children,
                           checksum, \(encoding), png
                    FROM entries WHERE id > ? AND id <= ? ORDER BY id
                    """, [.integer(lastID), .integer(pageEnd)])
            }
            lastID = pageEnd
            report.entriesInFile += rows.count
            report = try writing { [report] db in
                var report = report
                for row in rows {
                    guard Self.isIntact(row) else {
                        report.damaged += 1
                        continue
                    }
                    let inserted = try db.execute("""
                        INSERT OR IGNORE INTO entries (id, digest, type_name, render_version, key_description, pixel_width,
                            pixel_height, scale, cap_top, cap_left, cap_bottom, cap_right, created_at, last_access,
                            expires_at, children, checksum, png_encoding, png, byte_size)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, row + [.int(row[18].data?.count ?? 0)])
                    if inserted > 0 { report.imported += 1 } else { report.alreadyPresent += 1 }
                }
                return report
            }
        }
        if source.hasEncodedOutputs { report.keptOutputs = try importKeptOutputs(from: source) }
        return report
    }

    /// Bytes kept beside entries, for entries this store now holds with the same digest.
    private func importKeptOutputs(from source: DiskCacheImportSource) throws -> Int {
        var imported = 0
        var after: [SQLiteValue] = [.integer(.min), .text("")]
        while true {
            // Pages bounded in bytes as for entries: the sizes first, without the blobs.
            let sizes = try source.read {
                try $0.rows("""
                    SELECT entry_id, encoding, length(bytes) FROM encoded_outputs
                    WHERE (entry_id, encoding) > (?, ?) ORDER BY entry_id, encoding LIMIT \(Self.importPageSize)
                    """, after)
            }
            guard let end = Self.pageEnd(sizes, key: { Array($0[0...1]) }, bytes: { $0[2].int }, limit: source.maximumBytes)
            else { break }
            let rows = try source.read {
                try $0.rows("""
                    SELECT kept.entry_id, kept.encoding, kept.checksum, kept.bytes, entries.digest
                    FROM encoded_outputs AS kept JOIN entries ON entries.id = kept.entry_id
                    WHERE (kept.entry_id, kept.encoding) > (?, ?) AND (kept.entry_id, kept.encoding) <= (?, ?)
                    ORDER BY kept.entry_id, kept.encoding
                    """, after + end)
            }
            after = end
            imported += try writing { db in
                var imported = 0
                for row in rows {
                    let id = row[0].int64, encoding = row[1].string ?? "", checksum = row[2].int64, bytes = row[3].data ?? Data()
                    guard let digest = row[4].data.flatMap(StableDigest.init(storedBytes:)), digest.storedID == id,
                          DiskCacheChecksum.of(digest: digest, encoding: encoding, bytes: bytes) == checksum else { continue }
                    let inserted = try db.execute("""
                        INSERT OR IGNORE INTO encoded_outputs (entry_id, encoding, checksum, bytes)
                        SELECT id, ?3, ?4, ?5 FROM entries WHERE id = ?1 AND digest = ?2
                        """, [.integer(id), .blob(digest.storedBytes), .text(encoding), .integer(checksum), .blob(bytes)])
                    if inserted > 0 {
                        try Self.grow(.integer(id), by: bytes.count, db)
                        imported += 1
                    }
                }
                return imported
            }
        }
        return imported
    }

    /// The key of the last of `sizes` (rows in key order) that fit in a page of at most `limit`
    /// bytes, at least one row; nil when there are none.
    private static func pageEnd<Key>(_ sizes: [[SQLiteValue]], key: ([SQLiteValue]) -> Key, bytes: ([SQLiteValue]) -> Int,
                                     limit: Int) -> Key? {
        guard let first = sizes.first else { return nil }
        var end = key(first), pageBytes = 0
        for size in sizes {
            if pageBytes > 0, pageBytes + bytes(size) > limit { break }
            pageBytes += bytes(size)
            end = key(size)
        }
        return end
    }

    /// Whether an entry's row id, digest, checksum and PNG belong together, and its PNG's header
    /// is the size its columns state, within the default pixel limits (an entry is still checked
    /// against its key's render before it is served).
    private static func isIntact(_ row: [SQLiteValue]) -> Bool {
        guard case .integer(let id) = row[0], case .blob(let digestBytes) = row[1],
              let digest = StableDigest(storedBytes: digestBytes), digest.storedID == id,
              case .integer(let checksum) = row[16], case .blob(let png) = row[18],
              DiskCacheChecksum.of(digest: digest, png: png) == checksum,
              case .integer(let width) = row[5], case .integer(let height) = row[6],
              let header = try? PNGHeader(png), header.width == Int(width), header.height == Int(height) else { return false }
        return (try? PixelLimits.default.check(pixelWidth: Int(width), pixelHeight: Int(height))) != nil
    }

    /// Entries read and written per transaction while importing.
    private static let importPageSize = 256
}

extension DiskCacheImportSource {
    /// Runs `body` on the file's connection in one read transaction.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.transaction(immediate: false) { try body(connection) }
    }
}
