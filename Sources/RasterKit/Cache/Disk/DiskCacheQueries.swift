import Foundation

/// The store's queries over many rows, shared by an open store's readers and the inspector of
/// `cache stats`, which reads a file without opening it as a store.
enum DiskCacheQueries {
    /// Entries, PNG bytes and expired entries in the whole store.
    static func totals(_ connection: SQLiteConnection, now: Double) throws -> (count: Int, bytes: Int, expired: Int) {
        let row = try connection.rows("""
            SELECT count(*), total(byte_size), (SELECT count(*) FROM entries WHERE expires_at <= ?1) FROM entries
            """, [.real(now)]).first
        return (row?[0].int ?? 0, Int(row?[1].double ?? 0), row?[2].int ?? 0)
    }

    /// Entries and bytes per component type, largest first.
    static func typeSummaries(_ connection: SQLiteConnection) throws -> [DiskCacheTypeSummary] {
        try connection.rows("""
            SELECT type_name, count(*), total(byte_size) FROM entries GROUP BY type_name
            ORDER BY total(byte_size) DESC, type_name
            """).map { row in
            DiskCacheTypeSummary(typeName: row[0].string ?? "", count: row[1].int, totalBytes: Int(row[2].double))
        }
    }

    /// Metadata of the entries `condition` picks (with `arguments` bound), oldest first.
    static func entryInfos(_ connection: SQLiteConnection, where condition: String,
                           _ arguments: [SQLiteValue]) throws -> [DiskCacheEntryInfo] {
        try connection.statement("""
            SELECT digest, type_name, render_version, key_description, pixel_width, pixel_height, scale,
                   cap_top, cap_left, cap_bottom, cap_right, byte_size, created_at, \(DiskCacheSchema.lastAccessSQL),
                   expires_at, children
            FROM entries WHERE \(condition) ORDER BY created_at, digest
            """).rows(arguments) { row in
            let digest = row.data(0)
            return DiskCacheEntryInfo(
                digest: StableDigest(storedBytes: digest)?.hex ?? HexDigits.of(digest),
                typeName: row.text(1) ?? "", renderVersion: row.int(2), keyDescription: row.text(3) ?? "",
                pixelWidth: row.int(4), pixelHeight: row.int(5), scale: row.double(6), capInsets: capInsets(row, from: 7),
                byteSize: row.int(11), created: Date(timeIntervalSince1970: row.double(12)),
                lastAccess: Date(timeIntervalSince1970: row.double(13)), expires: Date(timeIntervalSince1970: row.double(14)),
                children: DiskCacheChildren.decode(row.text(15)) ?? [])
        }
    }

    /// The four cap columns of the current row from `first` on, or nil when any is NULL (a
    /// render without caps).
    static func capInsets(_ row: SQLiteStatement, from first: Int32) -> EdgeInsets? {
        guard (first..<first + 4).allSatisfy({ !row.isNull($0) }) else { return nil }
        return EdgeInsets(top: row.double(first), left: row.double(first + 1), bottom: row.double(first + 2),
                          right: row.double(first + 3))
    }
}
