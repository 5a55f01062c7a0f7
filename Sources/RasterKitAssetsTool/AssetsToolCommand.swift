import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch

/// `rasterkit-assets`: `rasterkit render`'s manifest run alone, without HTTP or the other
/// commands: the tool of the RenderAssets plugins, small enough to build as part of a package
/// that uses them. Its options mean what they mean for `rasterkit render`; the store's are that
/// command's own (`StoreOptions`). The remote store's are left out: a build of a package that
/// applies the plugins builds no HTTP client, and contacts no server a variable names.
///
/// Exits 0 when every output was written, 1 when some failed (the others are still written), 2
/// for usage mistakes and manifests with problems (then nothing is written).
@main
struct AssetsToolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rasterkit-assets",
        abstract: "Render a RasterKit manifest into a folder as `rasterkit render` does: the RenderAssets plugins' tool.",
        discussion: """
            --expect-outputs FILE is the build plugin's own: the run fails before writing anything when \
            the manifest's outputs are not exactly the paths in FILE (one a line), the ones the build \
            was planned with.
            """)

    @Argument(help: "The manifest: YAML, or JSON.")
    var manifest: String

    @Option(help: "The folder to write into (created if missing).")
    var out: String

    @Option(help: "Write every component in this format instead of the formats its outputs name.")
    var format: ExportFormat?

    @OptionGroup var store: StoreOptions

    @Flag(name: .customLong("list-outputs"), help: "Print the paths the run would write, and render nothing.")
    var listOutputs = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Option(name: .customLong("expect-outputs"),
            help: ArgumentHelp("Refuse to run when the outputs are not the paths in this file, one a line.", valueName: "file"))
    var expectedOutputs: String?

    func validate() throws {
        try PathChecks.requireNonEmpty(manifest, "the manifest")
        try PathChecks.requireNonEmpty(out, "--out")
        if let expectedOutputs {
            try PathChecks.requireNonEmpty(expectedOutputs, "--expect-outputs")
            if listOutputs { throw ValidationError("--expect-outputs and --list-outputs cannot be used together") }
        }
    }

    func run() throws {
        let outputDirectory = URL(fileURLWithPath: out)
        // A run checked against expected outputs always loads its manifest, to have its outputs to check.
        let run = ManifestRun(manifest: URL(fileURLWithPath: manifest), outputDirectory: outputDirectory, format: format,
                              reusesUpToDateOutputs: store.reusesUpToDateOutputs && !listOutputs && expectedOutputs == nil)
        let prepared: PreparedManifestRun
        do {
            switch try run.prepare() {
            case .upToDate(let result):
                print(json ? JSONLine.encode(result.summary) : "\(result.summary.total) outputs, all up to date")
                return
            case .ready(let ready):
                prepared = ready
            }
        } catch {
            let count = error.problems.count
            fail(error.problems.map(\.description)
                 + ["rasterkit-assets: \(count) problem\(count == 1 ? "" : "s") in the manifest; nothing was written"])
        }
        if listOutputs {
            let listing = OutputListing(prepared.plan)
            print(json ? listing.json : listing.text, terminator: json ? "\n" : "")
            return
        }
        if let expectedOutputs { requireExpectedOutputs(prepared.plan.plannedFiles.map(\.path), listedIn: expectedOutputs) }
        do {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            fail(["rasterkit-assets: cannot create the output folder '\(out)': \(error.localizedDescription)"])
        }
        // Renders come from and go to the store `rasterkit render` would use with these options.
        let store = store, limits = prepared.manifest.limits
        let renderer = BatchRenderer(reusesUpToDateOutputs: store.reusesUpToDateOutputs) {
            Rasterizer(cache: store.makeCache(tool: "rasterkit-assets"), limits: limits)
        }
        let summary = prepared.render(with: renderer).summary
        try? renderer.rasterizer?.cache.flush()
        print(json ? JSONLine.encode(summary)
                   : "\(summary.total) outputs in \(String(format: "%.2f", summary.seconds)) s: " + summary.countsDescription)
        for failure in summary.failures { printError(["rasterkit-assets: \(failure.output) (\(failure.file)): \(failure.reason)"]) }
        if summary.failed > 0 { throw ExitStatus.partialFailure }
    }

    /// Fails unless `actual` are the paths `file` lists. SwiftPM asks a build-tool plugin for its
    /// commands only when it plans a build, which it does again when Package.swift or a target's
    /// files change, not when a manifest's text does: a manifest edited to write other files than
    /// the plan declared would leave them out of the bundle.
    private func requireExpectedOutputs(_ actual: [String], listedIn file: String) {
        let declared: [String]
        do {
            declared = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        } catch {
            fail(["rasterkit-assets: cannot read --expect-outputs \(file): \(error.localizedDescription)"])
        }
        guard declared != actual else { return }
        let added = Set(actual).subtracting(declared).sorted(), removed = Set(declared).subtracting(actual).sorted()
        fail(["rasterkit-assets: \(manifest) now writes other files than this build was planned with"
                + (added.isEmpty ? "" : " (new: \(added.joined(separator: ", ")))")
                + (removed.isEmpty ? "" : " (gone: \(removed.joined(separator: ", ")))") + ".",
              "SwiftPM plans a build again only when Package.swift or the files of a target change: "
                + "touch Package.swift (or build with --disable-build-manifest-caching) and build again."])
    }

    /// Gives up before anything is written: the message on stderr (and `{"error": …}` on stdout
    /// with `--json`, as `rasterkit --json` prints a usage failure), exit status 2.
    private func fail(_ lines: [String]) -> Never {
        printError(lines)
        if json { print(JSONLine.encode(["error": lines.joined(separator: "\n")])) }
        Self.exit(withError: ExitStatus.usage)
    }

    /// Prints `lines` on standard error.
    private func printError(_ lines: [String]) {
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Usage mistakes exit with 2 (ArgumentParser's default is 64), as `rasterkit`'s do.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: ExitStatus.normalize(error, for: Self.self))
        }
    }
}
