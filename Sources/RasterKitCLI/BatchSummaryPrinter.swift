import Foundation
import RasterKit
import RasterKitArguments
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
    /// anything did: `2 errors (timed out)`, `11 uploads failed (HTTP 500)`. Lookups add up:
    /// hits + misses + errors are the lookups made; the ones not made while the store kept
    /// failing are counted apart.
    static func text(_ remote: RemoteCacheStatistics) -> String {
        var line = "Remote cache: \(remote.hits) hits, \(remote.misses) misses, \(remote.errors) errors"
        if !remote.lookupFailures.isEmpty { line += " (\(reasons(remote.lookupFailures)))" }
        line += ", \(remote.uploads) uploaded"
        if remote.rejected > 0 { line += ", \(remote.rejected) of the misses rejected (damaged, foreign or not the key's render)" }
        if remote.skipped > 0 { line += ", \(remote.skipped) lookups not made (the store kept failing)" }
        if remote.uploadErrors > 0 { line += ", \(remote.uploadErrors) uploads failed (\(reasons(remote.uploadFailures)))" }
        if remote.uploadsDropped > 0 { line += ", \(remote.uploadsDropped) not uploaded" }
        if remote.isReadOnly { line += " (read-only)" }
        return line
    }

    /// `HTTP 500 ×9, timed out ×2`, most frequent first.
    static func reasons(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { $0.value == 1 ? $0.key : "\($0.key) ×\($0.value)" }.joined(separator: ", ")
    }

    /// `400 outputs in 1.23 s: 380 rendered, 18 from cache, 2 failed`.
    static func text(_ summary: BatchSummary) -> String {
        let noun = summary.total == 1 ? "output" : "outputs"
        return "\(summary.total) \(noun) in " + DecimalText.fixed(summary.seconds, digits: 2) + " s"
            + ": " + summary.countsDescription
    }
}
