import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch
import RasterKitCommandOptions

/// `rasterkit render showcase.yaml --out build/assets`: every component of a manifest in every
/// state, size and scale, and its folders of SVGs, rendered in parallel; unchanged outputs are
/// left alone and unchanged renders come from the cache.
///
/// Exits 0 when every output was written, 1 when some failed (the others are still written),
/// 2 for usage mistakes and manifests with problems (then nothing is written).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a manifest of components and SVGs to PNGs, an Xcode asset catalog or Android nine-patches.",
        discussion: """
            Writes <component>-<state>[-<W>x<H>][@<S>x].png for each component in the formats its outputs \
            name (--format replaces them all): png (or webp) files in --out, xcassets as <name>.xcassets with one \
            image set per component, state and size, ninepatch as drawable-<density>/ files (.9.png for \
            components with caps), pdf and svg as one vector document per size (any scale). svgs: entries \
            are written as PNGs like rasterkit svg. Outputs whose \
            renders are unchanged since the last run into the same folder are left as they are, and every \
            file is written under a temporary name and renamed. A manifest with problems prints each one \
            as file:line:column and exits 2 without writing anything; exits 1 when some outputs failed. \
            Limits: RasterKit's defaults, lowered by the manifest's limits: section, then replaced by each \
            limit flag given; an output over a limit fails alone.
            """)

    @Argument(help: "The manifest: YAML, or JSON.")
    var manifest: String

    @Option(help: "The folder to write into (created if missing).")
    var out: String

    @Option(parsing: .unconditional, help: DefaultJobs.help)
    var jobs: Int = DefaultJobs.count

    @OptionGroup var caching: CacheOptions

    @OptionGroup var sharding: ShardOptions

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @OptionGroup(title: "Fonts") var fonts: FontOptions

    @Option(help: "Write every component in this format instead of the formats its outputs name.")
    var format: ExportFormat?

    @Option(help: ArgumentHelp("Write webp outputs lossy at this quality (1–100) instead of lossless.", valueName: "N"))
    var quality: Int?

    @Option(name: .customLong("contact-sheet"), help: "Also write a labelled PNG of every component state and SVG here.")
    var contactSheet: String?

    @Flag(help: "Print the summary as one JSON object, and no progress.")
    var json = false

    @Option(help: ArgumentHelp("Render the manifest's parameterised components once per record of this file (CSV with a "
        + "header row, JSON lines, or a YAML or JSON list), their parameters taken from the record's fields.", valueName: "file"))
    var data: String?

    @Option(help: ArgumentHelp("With --data: name each record's outputs by this template of its fields, as '{slug}' "
        + "(default: each component's names:).", valueName: "template"))
    var names: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A parameter's value for every record (or, without --data, for "
        + "the one render of each parameterised component); repeatable.", valueName: "name=value"))
    var setValues: [String] = []

    @Flag(name: .customLong("list-outputs"),
          help: "Print the paths the run would write (with --json, their render keys too), and render nothing.")
    var listOutputs = false

    func validate() throws {
        do { try WebPBatchEncoder.validate(quality: quality) } catch { throw ValidationError("--quality: \(error)") }
        if quality != nil, let format, format != .webp {
            throw ValidationError("--quality applies to webp outputs, and --format \(format.rawValue) writes none")
        }
        try PathChecks.requireNonEmpty(manifest, "the manifest")
        try PathChecks.requireNonEmpty(out, "--out")
        try DefaultJobs.validate(jobs)
        if let data { try PathChecks.requireNonEmpty(data, "--data") }
        if let names {
            guard data != nil else { throw ValidationError("--names names the records of --data; give --data too") }
            do { _ = try RecordNameTemplate(names) } catch { throw ValidationError("--names: \(error.reason)") }
        }
        _ = try parsedValues()
        if let contactSheet {
            try PathChecks.requireNonEmpty(contactSheet, "--contact-sheet")
            // The sheet replaces whatever is at its path: never the manifest it is made from
            // (`--contact-sheet m.yaml` overwrote the manifest with a PNG) …
            guard !PathChecks.sameFile(contactSheet, manifest) else {
                throw ValidationError("--contact-sheet \(contactSheet) is the manifest; write the contact sheet elsewhere")
            }
            // … nor a file among the outputs, which the batch owns, indexes and sweeps.
            guard !PathChecks.isInside(contactSheet, out) else {
                throw ValidationError("--contact-sheet \(contactSheet) is inside --out \(out); write it outside the output folder")
            }
            try PathChecks.requireReplaceable(contactSheet, "--contact-sheet")
        }
    }

    func run() throws {
        let shard = try sharding.resolved()
        let directory = URL(fileURLWithPath: out)
        var run = ManifestRun(manifest: URL(fileURLWithPath: manifest), outputDirectory: directory, format: format,
                              shard: shard, loadingLimits: limits.manifestLoadingLimits,
                              reusesUpToDateOutputs: caching.reusesUpToDateOutputs && !listOutputs,
                              contactSheet: contactSheet.map { URL(fileURLWithPath: $0) })
        run.webpQuality = quality
        run.data = try manifestData()
        run.fontDirectories = fonts.urls
        if listOutputs {
            do {
                guard case .ready(let prepared) = try run.prepare() else { return }
                OutputListing(prepared.plan).print(json: json)
            } catch {
                report(error)
            }
            return
        }
        if let result = run.upToDateResult() {
            RenderReport(summary: result.summary, shard: shard, files: result.files).print(json: json)
            return
        }
        let isLikelyToDraw = caching.isLikelyToDraw
        // An identical run recorded in the store (a CI job on a fresh checkout with the store
        // restored), or shared as a pack through the remote store, is written from there
        // without loading the manifest.
        let cache = contactSheet == nil ? caching.makeCacheForStoredRuns() : nil
        if let cache, let disk = cache.diskCache, let stored = run.storedRun(in: disk),
           try writeStoredRun(stored, cache: cache, shard: shard) { return }
        // The remote store is asked for the pack while the manifest is loaded and planned: a
        // remote that is slow, or accepts connections and never answers, then costs its wait
        // less the planning, and one that answers hides its round trip behind it.
        let lookup = run
        let remotePack = cache.flatMap { cache in
            cache.hasRemote ? BackgroundValue { lookup.remoteRunRecord(in: cache) } : nil
        }
        // Fonts load on another processor while this one reads the manifest, when drawing is
        // likely: with a store, most outputs come from it and fonts are loaded on first use.
        if isLikelyToDraw { FontLibrary.preload() }
        let prepared: PreparedManifestRun
        do {
            switch try run.prepare() {
            case .upToDate(let result):
                RenderReport(summary: result.summary, shard: shard, files: result.files).print(json: json)
                return
            case .ready(let ready):
                prepared = ready
            }
        } catch {
            report(error)
        }
        // A pack is only a hint: it is written when it is exactly this run's plan, else ignored.
        if let cache, let record = remotePack?.value, let stored = prepared.storedRun(from: record, cache: cache),
           try writeStoredRun(stored, cache: cache, shard: shard) { return }
        do { try SVGCommand.prepareOutputFolderOrParent(directory) } catch { fail(error.description) }

        // The manifest's own `limits:` lowered the defaults; each flag given replaces its limit.
        var result: ManifestRunResult?
        // runBatch's summary is the batch's with the remote store's counts and upload warnings.
        let summary = caching.runBatch(jobs: jobs, json: json, limits: limits.applied(to: prepared.manifest.limits),
                                       cache: cache) { renderer, progress in
            let made = prepared.render(with: renderer, progress: progress.update)
            result = made
            return made.summary
        }
        guard let result else { return }
        var report = RenderReport(summary: summary, shard: shard, files: result.files)
        report.contactSheet = result.contactSheet.map { _ in contactSheet ?? "" }
        report.contactSheetError = result.contactSheetError
        report.print(json: json)
        if result.summary.failed > 0 || result.contactSheetError != nil { throw ExitStatus.partialFailure }
        try caching.requireRemote(summary.remote)
    }

    /// Writes the outputs of `stored` (found in the store, or in the remote store's pack) and
    /// reports them; false when some output's bytes are gone from the store, and the run must
    /// render as usual (which draws them).
    private func writeStoredRun(_ stored: StoredManifestRun, cache: RasterCache, shard: Shard) throws -> Bool {
        do { try SVGCommand.prepareOutputFolderOrParent(stored.run.outputDirectory) } catch { fail(error.description) }
        let progress = ProgressBar(style: .forStandardError(silent: json))
        let written = stored.write(jobs: jobs, progress: progress.update)
        progress.finish()
        guard let written else { return false }
        var summary = written.summary
        summary.remote = cache.remoteStatistics
        if let remote = summary.remote, remote.hasFailures {
            summary.warnings.append("the remote cache failed: " + CacheOptions.failureDescription(remote))
        }
        RenderReport(summary: summary, shard: shard, files: written.files).print(json: json)
        if summary.failed > 0 { throw ExitStatus.partialFailure }
        try caching.requireRemote(summary.remote)
        return true
    }

    // MARK: Failing before anything is written

    /// Prints every manifest problem (or the error) on stderr, and as JSON with `--json`; exits 2.
    /// `--set name=value`s, each name once.
    private func parsedValues() throws -> [String: String] {
        var values: [String: String] = [:]
        for pair in setValues {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--set \(pair): give name=value")
            }
            let name = String(pair[..<equals])
            guard values.updateValue(String(pair[pair.index(after: equals)...]), forKey: name) == nil else {
                throw ValidationError("--set \(name) is given more than once")
            }
        }
        return values
    }

    /// The data batch `--data`, `--names` and `--set` ask for; nil for neither. The data file's
    /// problems exit with 2, each at its line.
    private func manifestData() throws -> ManifestData? {
        let values = try parsedValues()
        guard data != nil || !values.isEmpty else { return nil }
        var result = ManifestData(names: names, values: values)
        if let data {
            do {
                result.records = try DataRecords.read(contentsOf: URL(fileURLWithPath: data), limits: limits.manifestLoadingLimits)
            } catch {
                report(error)
            }
            result.file = data
        }
        return result
    }

    private func report(_ error: any Error) -> Never {
        guard let manifestError = error as? ManifestError else { fail("\(error)") }
        let count = manifestError.problems.count
        let lines = manifestError.problems.map(\.description)
            + ["rasterkit render: \(count) problem\(count == 1 ? "" : "s") in the manifest; nothing was written"]
        UsageFailure.exit(lines: lines, json: json ? RenderReport.encode(manifestError) : nil)
    }

    /// Prints `message` on stderr (and as JSON on stdout with `--json`) and exits with 2.
    private func fail(_ message: String) -> Never {
        UsageFailure.exit(command: "render", message, json: json)
    }
}
