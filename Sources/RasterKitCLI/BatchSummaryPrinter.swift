import Foundation
import RasterKit
import RasterKitBatch

/// Prints a batch's summary the same way for every batch command (`svg`, `render`): a line of
/// counts on stdout and one line per failure on stderr, or one JSON object on stdout.
enum BatchSummaryPrinter {
    static func print(_ summary: BatchSummary, json: Bool) {
        if json {
            Swift.print(JSONLine.encode(summary))
            return
        }
        Swift.print(text(summary))
        if let remote = summary.remote { Swift.print(text(remote)) }
        if !summary.warnings.isEmpty {
            FileHandle.standardError.write(Data(summary.warnings.map { "warning: \($0)\n" }.joined().utf8))
        }
        guard !summary.failures.isEmpty else { return }
        let lines = summary.failures.map { "failed: \($0.file) → \($0.output): \($0.reason)" }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `Remote cache: 380 hits, 20 misses, 0 errors, 20 uploaded`, with what went wrong when
    /// anything did.
    static func text(_ remote: RemoteCacheStatistics) -> String {
        var line = "Remote cache: \(remote.hits) hits, \(remote.misses) misses, \(remote.errors) errors, \(remote.uploads) uploaded"
        if remote.rejected > 0 { line += ", \(remote.rejected) rejected (damaged or foreign)" }
        if remote.skipped > 0 { line += ", \(remote.skipped) not asked (unreachable)" }
        if remote.uploadsDropped > 0 { line += ", \(remote.uploadsDropped) not uploaded" }
        if remote.isReadOnly { line += " (read-only)" }
        return line
    }

    /// `400 outputs in 1.23 s: 380 rendered, 18 from cache, 2 failed`.
    static func text(_ summary: BatchSummary) -> String {
        let noun = summary.total == 1 ? "output" : "outputs"
        return "\(summary.total) \(noun) in " + DecimalText.fixed(summary.seconds, digits: 2) + " s"
            + ": " + summary.countsDescription
    }
}
