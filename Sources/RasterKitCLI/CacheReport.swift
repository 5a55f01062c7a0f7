import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch

/// What a `rasterkit cache` subcommand reports: sorted-key JSON with `--json`, or a few lines.
/// Fields a subcommand does not report are left out of its JSON.
struct CacheReport: Encodable {
    var path: String
    /// `stats`: true when there is no store file (yet); left out otherwise.
    var missing: Bool?
    var entries = 0
    var bytes = 0
    /// Entries past their expiry date still in the store.
    var expired: Int?
    var types: [DiskCacheTypeSummary]?
    /// `prune` and `clear`: entries and bytes removed.
    var removed: Int?
    var removedBytes: Int?
    /// `prune`: of the removed, how many were least recently used and how many expired.
    var evicted: Int?
    var expiredRemoved: Int?
    /// `export`: the file written.
    var exportedTo: String?
    /// `import`: what was added, kept and refused.
    var imported: DiskCacheImportReport?

    var json: String { JSONLine.encode(self) }

    var summary: String {
        var lines = ["store: \(path)" + (missing == true ? " (no store yet)" : ""),
                     "entries: \(entries) (\(Self.format(bytes: bytes)))"]
        if let removed {
            var line = "removed: \(removed) entries"
            if let removedBytes { line += " (\(Self.format(bytes: removedBytes)))" }
            if let evicted, let expiredRemoved { line += ": \(expiredRemoved) expired, \(evicted) least recently used" }
            lines.append(line)
        }
        if let exportedTo { lines.append("exported to: \(exportedTo)") }
        if let imported {
            lines.append("imported: \(imported.imported) of \(imported.entriesInFile) entries "
                + "(\(imported.alreadyPresent) already here, \(imported.damaged) damaged and left out)")
        }
        if let expired, expired > 0 { lines.append("expired: \(expired) (run `rasterkit cache prune` to remove them)") }
        if let types, !types.isEmpty {
            lines.append("by type:")
            for type in types {
                lines.append("  \(type.typeName): \(type.count) entries, \(Self.format(bytes: type.totalBytes))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `1.5 MiB`, `812 bytes`.
    static func format(bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return DecimalText.fixed(value, digits: 1) + " " + units[unit]
    }

}
