import RasterKit
import Foundation

/// `rasterkit render` as a library call: a manifest rendered into a folder, incrementally.
///
/// A run has two steps, so the caller can act between them (check the output folder, make its
/// renderer): ``prepare()`` loads and plans the manifest — unless the folder's record says the
/// last identical run left every input and output as they are, which is answered without loading
/// anything — and ``PreparedManifestRun/render(with:progress:)`` renders the plan, records the
/// run for the next one, and draws the contact sheet from thumbnails the workers made of the
/// images they already held.
///
/// ```swift
/// let run = ManifestRun(manifest: URL(fileURLWithPath: "assets.yaml"), outputDirectory: URL(fileURLWithPath: "build/assets"),
///                       contactSheet: URL(fileURLWithPath: "build/assets.png"))
/// switch try run.prepare() {
/// case .upToDate(let result): print("nothing to do: \(result.summary.total) outputs")
/// case .ready(let prepared):
///     let result = prepared.render(with: BatchRenderer(rasterizer: Rasterizer(limits: prepared.manifest.limits)))
///     print(result.summary.drawn, "drawn")
/// }
/// ```
public struct ManifestRun: Sendable {
    /// The manifest file (YAML or JSON).
    public var manifest: URL
    /// The folder the outputs are written into.
    public var outputDirectory: URL
    /// The one format every component is written in; nil: the formats each component names.
    public var format: ExportFormat?
    /// The part of the outputs this run writes.
    public var shard: Shard
    /// The limits the manifest is read under (its own `limits:` section can only lower them).
    public var loadingLimits: ResourceLimits
    /// Whether a run identical to the last one, with every input and output unchanged, is
    /// answered from the folder's record without loading the manifest (and outputs whose files
    /// are up to date left alone, when the renderer reuses them).
    public var reusesUpToDateOutputs: Bool
    /// Where to write a contact sheet of every component state and SVG; nil for none.
    public var contactSheet: URL?
    /// The quality of lossy `webp` outputs (1–100); nil keeps them lossless.
    public var webpQuality: Int?
    /// The records and values a data batch draws the parameterised components with; nil for
    /// the manifest as it is.
    public var data: ManifestData?
    /// Folders of fonts visible to the run's text besides the manifest's own (`--font-dir`):
    /// loaded with the manifest, part of the run's identity and of its text's keys, and their
    /// font files are inputs, so a changed font makes the next run render.
    public var fontDirectories: [URL] = []
    /// How long an input must have been left alone before its stamp is trusted (see
    /// ``FileStamp``); tests shorten it.
    var inputSettleTime = FileStamp.defaultSettleTime

    /// A run of `manifest` into `outputDirectory`.
    public init(manifest: URL, outputDirectory: URL, format: ExportFormat? = nil, shard: Shard = .whole,
                loadingLimits: ResourceLimits = .default, reusesUpToDateOutputs: Bool = true, contactSheet: URL? = nil) {
        self.manifest = manifest
        self.outputDirectory = outputDirectory
        self.format = format
        self.shard = shard
        self.loadingLimits = loadingLimits
        self.reusesUpToDateOutputs = reusesUpToDateOutputs
        self.contactSheet = contactSheet
    }

    /// What ``prepare()`` found.
    public enum Preparation: Sendable {
        /// The last identical run left everything in place: nothing was loaded or written.
        case upToDate(ManifestRunResult)
        /// The manifest is loaded and planned, ready to render.
        case ready(PreparedManifestRun)
    }

    /// The result of this run when the folder's record shows that the last identical run left
    /// every input and output as they are (never with a contact sheet to draw); nil otherwise.
    package func upToDateResult() -> ManifestRunResult? {
        let start = ContinuousClock.now
        guard reusesUpToDateOutputs, contactSheet == nil,
              let invocation = ManifestRunRecord.invocation(manifest: manifest, format: format, shard: shard, webpQuality: webpQuality,
                                                            data: data, fonts: fontDirectories),
              let record = ManifestRunRecord.upToDate(in: outputDirectory, invocation: invocation) else { return nil }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let summary = BatchSummary(total: record.outputCount, drawn: 0, cached: record.outputCount - record.fellBackCount,
                                   fellBack: record.fellBackCount, failed: 0, seconds: elapsed, failures: [])
        return ManifestRunResult(summary: summary, files: record.fileCount)
    }

    /// Loads and plans the manifest, unless the folder's record shows the run is up to date (never
    /// with a contact sheet to draw). Nothing is written.
    ///
    /// - Throws: ``ManifestError`` with every problem of the manifest, each at its line and column.
    public func prepare() throws(ManifestError) -> Preparation {
        if let result = upToDateResult() { return .upToDate(result) }
        let invocation = reusesUpToDateOutputs && contactSheet == nil
            ? ManifestRunRecord.invocation(manifest: manifest, format: format, shard: shard, webpQuality: webpQuality, data: data,
                                           fonts: fontDirectories) : nil
        let loaded = try Manifest(contentsOf: manifest, settleTime: inputSettleTime, limits: loadingLimits,
                                  fontDirectories: fontDirectories)
        var plan = try loaded.plan(format: format, shard: shard, webpQuality: webpQuality, data: data)
        // The records are an input like the manifest (and the fonts it loaded): a changed data
        // file makes the run's record stale.
        for path in data?.file.map({ [URL(fileURLWithPath: $0).standardizedFileURL.path] }) ?? [] {
            plan.inputPaths.append(path)
            let stamp = FileStamp.of(path, settledFor: inputSettleTime)
            plan.inputStamps = stamp.flatMap { stamp in plan.inputStamps?.merging([path: stamp]) { $1 } }
        }
        return .ready(PreparedManifestRun(run: self, manifest: loaded, plan: plan, invocation: invocation))
    }
}

/// A manifest loaded and planned by ``ManifestRun/prepare()``, ready to render.
public struct PreparedManifestRun: Sendable {
    /// The run it was prepared for.
    public let run: ManifestRun
    /// The checked manifest; its ``Manifest/limits`` are what its renders should be held to.
    public let manifest: Manifest
    /// Every output, file and preview of the run.
    public let plan: BatchPlan
    /// The run's identity for its record; nil when runs are not recorded.
    let invocation: String?

    /// Renders the plan into the output folder with `renderer`, then records the run (when every
    /// output was written) and writes the contact sheet. The folder's old record is removed first,
    /// so an interrupted run leaves none. `progress` is called after each output.
    public func render(with renderer: BatchRenderer,
                       progress: (@Sendable (BatchProgress) -> Void)? = nil) -> ManifestRunResult {
        let directory = run.outputDirectory
        ManifestRunRecord.forget(in: directory)
        let previews = run.contactSheet == nil ? nil : PreviewCollector(plan.previews)
        let log = run.reusesUpToDateOutputs ? BatchRunLog(count: plan.outputs.count) : nil
        let summary = renderer.run(plan, into: directory, progress: progress, previews: previews, log: log)
        if let invocation, summary.failed == 0 {
            ManifestRunRecord.remember(plan, fellBack: summary.fellBack, invocation: invocation, in: directory)
        }
        // The store's record lets the next identical run, into any folder, copy every output;
        // the remote store's pack of it, a machine whose own store is empty.
        if let log, summary.failed == 0, let cache = renderer.rasterizer?.cache, let store = cache.diskCache,
           let (identity, record) = StoredRunRecord.of(run, plan: plan, log: log.snapshot, store: store), let data = record.data {
            store.keepRunRecord(data, for: identity)
            if cache.remoteTakesUploads, let pack = record.packed(from: store)?.data { cache.storeRemoteRunPack(pack, for: identity) }
        }
        var result = ManifestRunResult(summary: summary, files: plan.files.count)
        if let destination = run.contactSheet, let previews {
            do {
                let sheet = try ContactSheet.manifestSheet(title: manifest.name, previews: plan.previews,
                                                           thumbnails: previews.thumbnails, directory: directory)
                try AtomicFileWriter.write(try sheet.pngData(), to: destination.path)
                result.contactSheet = destination
            } catch {
                result.contactSheetError = "cannot write the contact sheet '\(destination.path)': \(error)"
            }
        }
        return result
    }
}

/// What a ``ManifestRun`` did.
public struct ManifestRunResult: Sendable {
    /// The batch's counts and failures (for a run found up to date: every output cached).
    public var summary: BatchSummary
    /// Files written beside the images (asset catalogs' `Contents.json`).
    public var files: Int
    /// The contact sheet written, if one was asked for and could be.
    public var contactSheet: URL?
    /// Why the contact sheet asked for could not be written.
    public var contactSheetError: String?

    /// A result of `summary` and `files`, with no contact sheet.
    public init(summary: BatchSummary, files: Int, contactSheet: URL? = nil, contactSheetError: String? = nil) {
        self.summary = summary
        self.files = files
        self.contactSheet = contactSheet
        self.contactSheetError = contactSheetError
    }
}
