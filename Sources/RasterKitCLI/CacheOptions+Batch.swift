import Foundation
import Logging
import RasterKit
import RasterKitBatch
import RasterKitCommandOptions

extension CacheOptions {
    /// Runs a batch of `svg` or `render` with these options and `limits`: `body` runs the renderer with a
    /// progress bar on standard error (silent with `--json`). The cache opens only when something
    /// must be rendered, so a run with every output up to date never touches it, and its pending
    /// writes are committed before this returns. A store that cannot take them only costs renders
    /// in a later run, so the batch's result stands.
    ///
    /// `cache`: one made already (by ``makeCache(memoryLimit:)``, to look for a stored run
    /// before loading anything), for the rasterizer to use instead of opening the stores again.
    func runBatch(jobs: Int, json: Bool, limits: ResourceLimits, cache: RasterCache? = nil,
                  _ body: (BatchRenderer, ProgressBar) -> BatchSummary) -> BatchSummary {
        let progress = ProgressBar(style: .forStandardError(silent: json))
        let options = self
        // The summary carries the batch's warnings, and the command prints them once, its own way.
        let quiet = Logger(label: "RasterKit.BatchRenderer") { _ in SwiftLogNoOpLogHandler() }
        let renderer = BatchRenderer(jobs: jobs, reusesUpToDateOutputs: reusesUpToDateOutputs, logger: quiet) {
            options.makeRasterizer(limits: limits, cache: cache)
        }
        var summary = body(renderer, progress)
        progress.finish()
        if let cache = renderer.rasterizer?.cache {
            // Uploads wait, bounded, so the next shard or machine finds this run's renders.
            if !cache.flushUploads(timeout: Self.uploadWaitLimit) {
                summary.warnings.append("some renders were not uploaded to the remote cache within \(Int(Self.uploadWaitLimit)) s")
            }
            summary.remote = cache.remoteStatistics
            try? cache.flush()
        } else if remoteURL != nil {
            summary.remote = RemoteCacheStatistics()
        }
        if let remote = summary.remote, remote.hasFailures {
            summary.warnings.append("the remote cache failed: " + Self.failureDescription(remote))
        }
        return summary
    }

    /// `3 lookups failed (timed out), 11 uploads failed (HTTP 500 ×11), 4 renders not uploaded`.
    static func failureDescription(_ remote: RemoteCacheStatistics) -> String {
        var parts: [String] = []
        if remote.errors > 0 { parts.append("\(remote.errors) lookups failed (\(BatchSummaryPrinter.reasons(remote.lookupFailures)))") }
        if remote.uploadErrors > 0 { parts.append("\(remote.uploadErrors) uploads failed (\(BatchSummaryPrinter.reasons(remote.uploadFailures)))") }
        if remote.uploadsDropped > 0 { parts.append("\(remote.uploadsDropped) renders not uploaded") }
        return parts.joined(separator: ", ")
    }

}
