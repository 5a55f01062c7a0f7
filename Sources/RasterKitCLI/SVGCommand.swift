import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch
import RasterKitCommandOptions

/// `rasterkit svg icons/ --size 24 --size 48 --scale 1 --scale 2 --out build/icons`: every SVG
/// at every size and scale, rendered in parallel in this process, unchanged ones from the cache.
///
/// Exits 0 when every output was written, 1 when some failed (the others are still written),
/// 2 for usage mistakes and inputs or output folders that cannot be used.
struct SVGCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svg",
        abstract: "Render SVG files to PNG at several sizes and scales.",
        discussion: """
            Writes <name>-<size>.png at scale 1 and <name>-<size>@<S>x.png otherwise, mirroring the \
            subfolders of folder inputs under --out. Each --post step runs on every render, in order \
            (the names and values of a manifest's post:). Outputs whose SVG, size, scale, mode, tint and steps are \
            unchanged since the last run into the same folder are left as they are. Each file is written \
            under a temporary name and renamed, so an interrupted run never leaves a half-written PNG. \
            An output over a limit (see Limits) fails alone. Exits 0 when everything was written, 1 \
            when some outputs failed (the rest are still written), 2 for usage errors.
            """)

    @Argument(help: "SVG files, or folders searched for .svg files at any depth.")
    var inputs: [String] = []

    @Option(name: .customLong("size"), parsing: .unconditionalSingleValue,
            help: "A size in points (square); repeat for several.")
    var sizes: [Double] = []

    @Option(name: .customLong("scale"), parsing: .unconditionalSingleValue,
            help: "Pixels per point; repeat for several (default 1).")
    var scales: [Double] = []

    @Option(help: "The folder to write PNGs into (created if missing).")
    var out: String

    @Option(parsing: .unconditional, help: DefaultJobs.help)
    var jobs: Int = DefaultJobs.count

    @Option(help: "Paint every painted pixel in this colour, keeping its alpha (hex such as FFFFFF or #1C71D8, or a CSS colour name).")
    var tint: String?

    @Option(help: "How each SVG is placed in the square; stretch matches rsvg-convert -w N -h N.")
    var mode: ContentMode = .stretch

    @Option(name: .customLong("post"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A post-processing step: circle, 'roundedCorners: 4', 'tint: #2F6FEB', 'padding: [2, 4]', ...; "
                               + "repeat for several, applied in order.", valueName: "step"))
    var post: [String] = []

    @OptionGroup var caching: CacheOptions

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @OptionGroup(title: "Fonts") var fonts: FontOptions

    @Flag(name: .customLong("allow-external-references"),
          help: "Let each SVG load images and other files from its own folder (off: nothing outside the SVG loads).")
    var allowExternalReferences = false

    @Flag(help: "Print the summary as one JSON object, and no progress.")
    var json = false

    @Flag(name: .customLong("list-outputs"),
          help: "Print the paths the run would write (with --json, their render keys too), and render nothing.")
    var listOutputs = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one SVG file or folder") }
        for input in inputs { try PathChecks.requireNonEmpty(input, "an SVG input") }
        try PathChecks.requireNonEmpty(out, "--out")
        guard !sizes.isEmpty else { throw ValidationError("give at least one --size") }
        for size in sizes where !(size.isFinite && size > 0) {
            throw ValidationError("--size must be a number greater than 0, not \(size)")
        }
        for scale in scales where !(scale.isFinite && scale > 0) {
            throw ValidationError("--scale must be a number greater than 0, not \(scale)")
        }
        try DefaultJobs.validate(jobs)
        if let tint { _ = try Self.parseTint(tint) }
        _ = try postSteps()
    }

    /// The `--post` steps, checked against the limits in effect.
    func postSteps() throws -> [PostStep] {
        var steps: [PostStep] = []
        for text in post {
            do {
                steps.append(try PostStep.parse(text, limits: limits.applied(to: .default)))
            } catch {
                throw ValidationError(error.problems.map { "--post '\(text)': \($0.message)" }.joined(separator: "\n"))
            }
        }
        return steps
    }

    func run() throws {
        var batch = Self.batch(inputs: inputs, sizes: sizes, scales: scales, mode: mode, tint: try tint.map(Self.parseTint),
                               allowExternalReferences: allowExternalReferences)
        batch.post = try postSteps()
        batch.fonts = fonts.digest
        // An existing store is opened on another thread while the outputs are planned: on a
        // warm run the two take about as long. A missing one is made only once the plan holds.
        let opening = listOutputs ? nil : caching.openExistingStoreInBackground()
        let outputs: [BatchOutput]
        do { outputs = try batch.outputs() } catch { fail(error.description, after: opening) }
        if listOutputs {
            OutputListing(outputs: outputs.map(\.plannedFile).sorted { $0.path < $1.path }).print(json: json)
            return
        }
        let directory = URL(fileURLWithPath: out)
        do { try Self.prepareOutputFolderOrParent(directory) } catch { fail(error.description, after: opening) }
        let summary = caching.runBatch(jobs: jobs, json: json, limits: limits.applied(to: .default),
                                       cache: opening?.value) { renderer, progress in
            renderer.run(outputs, into: directory, progress: progress.update)
        }
        BatchSummaryPrinter.print(summary, json: json)
        if summary.failed > 0 { throw ExitStatus.partialFailure }
        try caching.requireRemote(summary.remote)
    }

    /// Creates `--out` if needed and checks it is a folder this process can write.
    static func prepareOutputFolder(_ directory: URL) throws(OutputFolderError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw OutputFolderError(path: directory.relativePath, reason: "it cannot be created (\(FileReader.reason(error)))")
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw OutputFolderError(path: directory.relativePath, reason: String(cString: strerror(errno)))
        }
    }

    /// ``prepareOutputFolder(_:)`` for a run that builds a missing `--out` itself (a stored run
    /// makes it beside, under a hidden name, and renames it into place): only its parent is
    /// created and checked then.
    static func prepareOutputFolderOrParent(_ directory: URL) throws(OutputFolderError) {
        var info = stat()
        guard lstat(directory.path, &info) != 0, errno == ENOENT else { return try prepareOutputFolder(directory) }
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputFolderError(path: directory.relativePath, reason: "it cannot be created (\(FileReader.reason(error)))")
        }
        guard access(parent.path, W_OK | X_OK) == 0 else {
            throw OutputFolderError(path: directory.relativePath, reason: "it cannot be created (\(String(cString: strerror(errno))))")
        }
    }

    struct OutputFolderError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write to the output folder '\(path)': \(reason)" }
    }

    static func parseTint(_ text: String) throws -> Color { try HexColor.color(text, option: "--tint") }

    /// The batch these options describe, before its `--post` steps.
    static func batch(inputs: [String], sizes: [Double], scales: [Double], mode: ContentMode, tint: Color?,
                      allowExternalReferences: Bool) -> SVGBatch {
        SVGBatch(inputs: inputs.map { URL(fileURLWithPath: $0) }, sizes: sizes, scales: scales.isEmpty ? [1] : scales,
                 contentMode: mode, tint: tint, allowsExternalReferences: allowExternalReferences)
    }

    /// Prints `message` on stderr (and as JSON on stdout with `--json`) and exits with 2, once
    /// the store `opening` is open: the process does not exit under a thread inside SQLite.
    private func fail(_ message: String, after opening: BackgroundValue<RasterCache>? = nil) -> Never {
        _ = opening?.value
        UsageFailure.exit(command: "svg", message, json: json)
    }
}

/// `--mode` values: ``ContentMode``'s names (`aspectFit`), read as manifests read them (the
/// hyphenated `aspect-fit` too).
extension ContentMode: ExpressibleByArgument {
    /// The mode `argument` names, in either spelling; nil for anything else.
    public init?(argument: String) { self.init(parsing: argument) }
}
