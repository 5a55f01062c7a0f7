import RasterKit
import Foundation

extension BatchRenderer {
    /// Renders items made in Swift, with the same names, formats, parallelism and summary as
    /// `rasterkit render`.
    ///
    /// ```swift
    /// let items = [BatchItem(name: "badge", state: "three", component: Badge(count: 3),
    ///                        sizes: [Size(width: 22, height: 22)], scales: [1, 2, 3])]
    /// let summary = try BatchRenderer(rasterizer: Rasterizer()).run(items, format: .xcassets, into: outputDirectory)
    /// // Assets.xcassets/badge-three.imageset/{Contents.json, badge-three.png, badge-three@2x.png, badge-three@3x.png}
    /// ```
    ///
    /// - Throws: ``BatchPlanError`` before anything is written, when a scale does not fit the
    ///   format or two items would write one file.
    public func run(_ items: [BatchItem], format: ExportFormat = .png, catalogName: String = "Assets",
                    shard: Shard = .whole, into directory: URL,
                    progress: (@Sendable (BatchProgress) -> Void)? = nil) throws(BatchPlanError) -> BatchSummary {
        run(try BatchPlan(items: items, format: format, catalogName: catalogName, shard: shard), into: directory,
            progress: progress)
    }

    /// Writes a plan's files, then renders its images in parallel. A file already holding the
    /// same bytes is left alone; one that cannot be written is a failure in the summary.
    public func run(_ plan: BatchPlan, into directory: URL,
                    progress: (@Sendable (BatchProgress) -> Void)? = nil) -> BatchSummary {
        run(plan, into: directory, progress: progress, previews: nil)
    }

    /// `run(_:into:progress:)` of a plan, keeping thumbnails of the plan's previews in `previews`.
    /// The files and the images go into the same folder, staged whole when it is new.
    func run(_ plan: BatchPlan, into directory: URL, progress: (@Sendable (BatchProgress) -> Void)?,
             previews: PreviewCollector?, log: BatchRunLog? = nil) -> BatchSummary {
        writing(into: directory) { writer in
            var failures: [BatchSummary.Failure] = []
            // Folders that hold only catalog files (an .xcassets root) are swept here; run(_:with:)
            // sweeps the folders of the images.
            Self.sweepStaleTemporaryFiles(under: writer.root, paths: plan.files.lazy.map(\.path))
            for file in plan.files {
                do {
                    // Below the output folder: never through a symbolic link among its subfolders.
                    try writer.write(file.contents, to: file.path)
                } catch {
                    failures.append(BatchSummary.Failure(file: file.source, output: file.path, reason: "\(error)"))
                }
            }
            var summary = run(plan.outputs, with: writer, progress: progress, previews: previews, log: log)
            summary.add(fileFailures: failures)
            return summary
        }
    }
}
