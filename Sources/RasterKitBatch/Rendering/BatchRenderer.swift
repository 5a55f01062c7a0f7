import RasterKit
import Foundation
public import Logging
import Synchronization

/// Renders many outputs in parallel and writes each one atomically into a directory. An
/// output that fails is recorded with its source and the reason while the others go on.
///
/// ```swift
/// let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 4)
/// let summary = renderer.run(outputs, into: URL(fileURLWithPath: "build/icons")) { progress in
///     print("\(progress.done)/\(progress.total)")
/// }
/// ```
public final class BatchRenderer: Sendable {
    /// Worker threads rendering at once.
    public let jobs: Int
    /// Whether an output whose file already holds what its fingerprint names is left as it is
    /// (counted as cached) instead of being made again.
    public let reusesUpToDateOutputs: Bool

    /// librsvg and cairo recurse on deep documents; worker threads get a main thread's stack.
    static let workerStackSize = 8 << 20

    /// - Parameters:
    ///   - rasterizer: draws every output, through its cache and under its limits.
    ///   - jobs: worker threads (default: one per active processor). With at least one per
    ///     processor the process may use, each worker keeps to one processor for the batch
    ///     (see `WorkerPlacement`).
    ///   - reusesUpToDateOutputs: leave outputs alone whose files already hold what their
    ///     fingerprints name, as recorded by the last batch into the same directory.
    ///   - logger: where the renderer reports what its summary cannot say (workers that could not
    ///     start, an index that could not be saved) and, at debug level, each failed output and
    ///     each batch's counts. Pass your application's, as swift-log's convention for libraries
    ///     asks; by default a logger labelled `RasterKit.BatchRenderer`.
    public init(rasterizer: Rasterizer, jobs: Int = Processors.available,
                reusesUpToDateOutputs: Bool = true, logger: Logger = Logger(label: "RasterKit.BatchRenderer")) {
        precondition(jobs >= 1, "BatchRenderer needs at least one job")
        self.jobs = jobs
        self.reusesUpToDateOutputs = reusesUpToDateOutputs
        self.logger = logger
        source = LazyRasterizer(rasterizer)
        threads = WorkerThreads(stackSize: Self.workerStackSize)
    }

    /// A renderer that makes its rasterizer only when the first output needs rendering, so a
    /// batch whose outputs are all up to date never opens a cache. When `makeRasterizer`
    /// throws, every output that needed it fails with that error.
    ///
    /// ```swift
    /// let renderer = BatchRenderer(jobs: 2) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: url))) }
    /// ```
    public convenience init(jobs: Int = Processors.available, reusesUpToDateOutputs: Bool = true,
                            logger: Logger = Logger(label: "RasterKit.BatchRenderer"),
                            makeRasterizer: @escaping @Sendable () throws -> Rasterizer) {
        self.init(jobs: jobs, reusesUpToDateOutputs: reusesUpToDateOutputs, logger: logger,
                  threads: WorkerThreads(stackSize: Self.workerStackSize), makeRasterizer: makeRasterizer)
    }

    /// A renderer that starts its workers with `threads`: tests make some starts fail.
    init(jobs: Int, reusesUpToDateOutputs: Bool, logger: Logger = Logger(label: "RasterKit.BatchRenderer"),
         threads: WorkerThreads, makeRasterizer: @escaping @Sendable () throws -> Rasterizer) {
        precondition(jobs >= 1, "BatchRenderer needs at least one job")
        self.jobs = jobs
        self.reusesUpToDateOutputs = reusesUpToDateOutputs
        self.logger = logger
        source = LazyRasterizer(makeRasterizer)
        self.threads = threads
    }

    private let source: LazyRasterizer
    private let threads: WorkerThreads
    /// Reports what a summary cannot carry; see ``init(rasterizer:jobs:reusesUpToDateOutputs:logger:)``.
    let logger: Logger

    /// The rasterizer that draws and caches the images, once it has been made.
    public var rasterizer: Rasterizer? { source.made }

    /// Renders every output and writes it under `directory` (created as needed), blocking
    /// until all are done. `progress` is called after each output, on a worker thread, one
    /// call at a time.
    public func run(_ outputs: [BatchOutput], into directory: URL,
                    progress: (@Sendable (BatchProgress) -> Void)? = nil) -> BatchSummary {
        run(outputs, into: directory, progress: progress, previews: nil)
    }

    /// ``run(_:into:progress:)``, keeping thumbnails of the outputs `previews` wants.
    func run(_ outputs: [BatchOutput], into directory: URL, progress: (@Sendable (BatchProgress) -> Void)?,
             previews: PreviewCollector?, log: BatchRunLog? = nil) -> BatchSummary {
        writing(into: directory) { files in
            run(outputs, with: files, progress: progress, previews: previews, log: log)
        }
    }

    /// Runs `body` with a writer into `directory`. A folder that does not exist yet is built
    /// beside it under a hidden name and moved into place whole (`StagedFolder`): it appears with
    /// every file in it or not at all. When another run made the folder meanwhile, `body` runs
    /// again into it, like into any other, now mostly from the store and from memory.
    func writing(into directory: URL, _ body: (FolderWriter) -> BatchSummary) -> BatchSummary {
        guard let staged = StagedFolder.make(for: directory.path) else { return body(FolderWriter(root: directory.path)) }
        let summary = body(FolderWriter(staged: staged))
        if staged.publish() { return summary }
        staged.remove()
        return body(FolderWriter(root: directory.path))
    }

    /// Renders every output and writes it with `files`.
    func run(_ outputs: [BatchOutput], with files: FolderWriter, progress: (@Sendable (BatchProgress) -> Void)?,
                     previews: PreviewCollector?, log: BatchRunLog?) -> BatchSummary {
        let clock = ContinuousClock()
        let start = clock.now
        let units = BatchWorkUnits(outputs)
        let tally = BatchTally(total: outputs.count, progress: progress) {
            let elapsed = clock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        for (index, reason) in units.rejected { tally.record(outputs[index], .failure(reason)) }
        let directoryPath = files.root
        // A folder not yet published is new and empty: no killed run can have left files in it.
        if !files.isUnpublished { Self.sweepStaleTemporaryFiles(under: directoryPath, paths: outputs.lazy.map(\.path)) }
        let index = reusesUpToDateOutputs ? BatchOutputIndex.load(from: directoryPath, expecting: outputs.count) : nil

        let prefetch = BatchRemotePrefetch.start(outputs, order: units.groups, index: index, source: source)
        let next = Atomic<Int>(0)
        let workers = min(jobs, units.groups.count)
        let finished = DispatchGroup()
        let placement = WorkerPlacement(workers: workers)
        let started = threads.start(workers, finished: finished) { [self] workerIndex in
            placement?.pin(worker: workerIndex)
            // One store connection per worker, reading recent snapshots: a warm batch is mostly lookups.
            DiskCache.sharingSnapshots {
                while true {
                    let claimed = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard claimed < units.groups.count else { break }
                    for claimedIndex in units.groups[claimed] {
                        let output = outputs[claimedIndex]
                        tally.record(output, produce(output, at: claimedIndex, into: files, index: index,
                                                     previews: previews, log: log))
                    }
                }
            }
        }
        finished.wait()
        // The store's writes (a warm run's last uses) go on while the index is saved and the
        // folder published; whoever flushes the cache waits for what is left.
        rasterizer?.cache.startWritingToDisk()
        prefetch?.finish()
        var warnings: [String] = []
        if let failure = started.failure {
            if started.started == 0 {
                // No worker claimed anything: every output still waiting fails, saying why.
                let reason = "no worker thread could be started (\(failure))"
                for group in units.groups { for claimedIndex in group { tally.record(outputs[claimedIndex], .failure(reason)) } }
            } else {
                warnings.append("only \(started.started) of \(workers) worker threads could be started (\(failure)); "
                                + "the batch ran on \(started.started)")
            }
        }
        for warning in warnings { logger.warning("\(warning)") }
        // Losing the index only costs renders next time, so a failure to save it is no failure.
        if !outputs.isEmpty, let index {
            do { try index.save() } catch {
                logger.warning("cannot save the batch index; unchanged outputs will be made again next time",
                               metadata: ["directory": "\(directoryPath)", "error": "\(error)"])
            }
        }
        var summary = tally.summary()
        summary.warnings = warnings
        logger.debug("batch finished", metadata: [
            "directory": "\(directoryPath)", "total": "\(summary.total)", "drawn": "\(summary.drawn)",
            "cached": "\(summary.cached)", "fellBack": "\(summary.fellBack)", "failed": "\(summary.failed)", "seconds": "\(summary.seconds)",
        ])
        return summary
    }

    /// Removes temporary files that killed runs left in the folders this batch writes to (see
    /// ``StaleTemporaryFiles``): `directory` and the folder of each of `paths` (relative to it).
    /// A folder reached through a symbolic link below `directory` is not swept: it is not inside
    /// the output folder, and outputs are not written through it either.
    static func sweepStaleTemporaryFiles(under directory: String, paths: some Sequence<String>) {
        var folders: Set<String> = [""]
        for path in paths {
            if let slash = path.lastIndex(of: "/") { folders.insert(String(path[..<slash])) }
        }
        for folder in folders where Self.isPlainFolder(folder, under: directory) {
            StaleTemporaryFiles.sweep(folder.isEmpty ? directory : directory + "/" + folder)
        }
    }

    /// Whether every existing component of `relative` below `directory` is a folder itself, not
    /// a symbolic link (`lstat`), and none climbs out with `..`. `directory` itself may be a link:
    /// the command checked `--out` as a whole.
    static func isPlainFolder(_ relative: String, under directory: String) -> Bool {
        var path = directory
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            guard component != "..", component != "." else { return false }
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0 else { return errno == ENOENT }
            guard (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        }
        return true
    }

    /// Writes one output, unless its file is already up to date: with the bytes the render store
    /// kept for it when it has them, else rendered (through the cache) and encoded.
    private func produce(_ output: BatchOutput, at position: Int, into files: FolderWriter, index: BatchOutputIndex?,
                         previews: PreviewCollector?, log: BatchRunLog?) -> BatchTally.Outcome {
        let stamp = index == nil ? nil : output.sourceStamp?()
        if let index, let stamp, index.isUpToDate(output.path, sourceStamp: stamp) { return .cached }
        // A key or fingerprint that cannot be made means rendering will fail too, and say why.
        let key = try? output.renderKey?()
        if let key { log?.noteKey(key.value, at: position) }
        let fingerprint: String?
        if let key, let encoder = output.encoder {
            fingerprint = BatchOutput.fingerprint(key, encoding: encoder.identifier)
        } else {
            fingerprint = index == nil ? nil : try? output.fingerprint?()
        }
        if let index, let fingerprint, index.isUpToDate(output.path, fingerprint: fingerprint) {
            if let stamp { index.recordSourceStamp(output.path, stamp) }
            return .cached
        }
        do {
            let rasterizer = try source.get()
            let store = rasterizer.cache.diskCache
            // A symbolic link to elsewhere among the folder's subfolders fails this output
            // instead of having it written outside the output folder.
            let expected = try output.expectedRender?(rasterizer.limits)
            if let key, let encoder = output.encoder, let store, let expected,
               let kept = store.encodedOutput(for: key, encoding: encoder.identifier, accepting: {
                   KeptOutputCheck.matches($0, encoder: encoder, expected: expected)
               }) {
                let written = try files.write(kept, to: output.path)
                index?.record(output.path, fingerprint: fingerprint, sourceStamp: stamp, written: written)
                previews?.keep(output.path, fileBytes: kept)
                return .cached
            }
            if let document = output.document {
                // A vector document is drawn from the component, not from a render: nothing to keep.
                let written = try files.write(try document(rasterizer), to: output.path)
                index?.record(output.path, fingerprint: fingerprint, sourceStamp: stamp, written: written)
                return .drawn
            }
            // Another machine's render, in the very bytes this encoder writes: copied as they are.
            if let key, let encoder = output.encoder, encoder.writesRenderPNG, let expected,
               let png = rasterizer.remotePNG(for: key, encoding: encoder.identifier, expecting: expected) {
                let written = try files.write(png, to: output.path)
                index?.record(output.path, fingerprint: fingerprint, sourceStamp: stamp, written: written)
                previews?.keep(output.path, fileBytes: png)
                return .cached
            }
            let rendered = try output.render(rasterizer)
            // From the remote store with the very bytes this encoder writes: written as they are.
            let data = if let remote = rendered.remotePNG, remote.encoding == output.encoder?.identifier {
                remote.png
            } else {
                try output.encode(rendered.image)
            }
            // A fallback's bytes are never kept: the store holds nothing under its key.
            if let encoder = output.encoder, rendered.origin != .fallback {
                store?.keepEncodedOutput(data, encoding: encoder.identifier, isRenderPNG: encoder.writesRenderPNG,
                                         for: rendered.key)
                // The render's own PNG goes to the remote store too, for other machines to copy.
                if encoder.writesRenderPNG, rendered.origin == .drawn {
                    rasterizer.cache.offerToRemote(data, encoding: encoder.identifier, for: rendered.key)
                }
            }
            let written = try files.write(data, to: output.path)
            previews?.keep(output.path, render: rendered.image)
            // A fallback's file is not up to date: the next run tries the primary again.
            let fellBack = rendered.origin == .fallback
            if fellBack { log?.noteFallback(at: position, error: rendered.fallbackError) }
            index?.record(output.path, fingerprint: fellBack ? nil : fingerprint, sourceStamp: fellBack ? nil : stamp,
                          written: written)
            return fellBack ? .fellBack : rendered.origin == .drawn ? .drawn : .cached
        } catch {
            index?.record(output.path, fingerprint: nil)
            let reason = BatchRenderer.reason(for: error)
            logger.debug("output failed", metadata: ["path": "\(output.path)", "source": "\(output.source)", "reason": "\(reason)"])
            return .failure(reason)
        }
    }

    /// The message a failure is reported with: the component's own error rather than the
    /// rasterizer's wrapper around it, which repeats the whole cache key.
    static func reason(for error: any Error) -> String {
        if case let RenderError.drawFailed(_, _, underlying) = error { return reason(for: underlying) }
        return String(describing: error)
    }
}
