import Foundation
import RasterKit
import RasterKitBatch

// `rasterkit-assets`: `rasterkit render` without ArgumentParser, HTTP or the other commands —
// the tool of the RenderAssets plugins, small enough to build as part of a package that uses them.
//
// Exits 0 when every output was written, 1 when some failed (the others are still written), 2 for
// usage mistakes and manifests with problems (then nothing is written).

/// Prints `lines` on standard error.
func printError(_ lines: [String]) {
    FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
}

/// Gives up before anything is written: the message on stderr (and `{"error": …}` on stdout
/// with `--json`), exit status 2.
func fail(_ lines: [String], json: Bool) -> Never {
    printError(lines)
    // `{"error": …}`, as `rasterkit --json` prints a usage failure.
    if json { print(jsonLine(["error": lines.joined(separator: "\n")])) }
    exit(2)
}

/// `value` as one line of JSON, keys sorted and slashes unescaped, as every `--json` prints.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}

let arguments: AssetsToolArguments
do {
    arguments = try AssetsToolArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch AssetsToolArguments.help {
    print(AssetsToolArguments.usage)
    exit(0)
} catch {
    printError(["rasterkit-assets: \(error)", AssetsToolArguments.usage])
    exit(2)
}

let json = arguments.json
let outputDirectory = URL(fileURLWithPath: arguments.out)
// A run checked against expected outputs always loads its manifest, to have its outputs to check.
let run = ManifestRun(manifest: URL(fileURLWithPath: arguments.manifest), outputDirectory: outputDirectory,
                      format: arguments.format,
                      reusesUpToDateOutputs: !arguments.noCache && !arguments.listOutputs && arguments.expectedOutputs == nil)
let prepared: PreparedManifestRun
do {
    switch try run.prepare() {
    case .upToDate(let result):
        print(json ? jsonLine(result.summary) : "\(result.summary.total) outputs, all up to date")
        exit(0)
    case .ready(let ready):
        prepared = ready
    }
} catch {
    let count = error.problems.count
    fail(error.problems.map(\.description)
            + ["rasterkit-assets: \(count) problem\(count == 1 ? "" : "s") in the manifest; nothing was written"],
         json: json)
}

if arguments.listOutputs {
    let listing = OutputListing(prepared.plan)
    print(json ? listing.json : listing.text, terminator: json ? "\n" : "")
    exit(0)
}

// SwiftPM asks a build-tool plugin for its commands only when it plans a build, which it does
// again when Package.swift or a target's files change, not when a manifest's text does: a
// manifest edited to write other files than the plan declared would leave them out of the bundle.
if let expected = arguments.expectedOutputs {
    let declared: [String]
    do {
        declared = try String(contentsOfFile: expected, encoding: .utf8).split(separator: "\n").map(String.init)
    } catch {
        fail(["rasterkit-assets: cannot read --expect-outputs \(expected): \(error.localizedDescription)"], json: json)
    }
    let actual = prepared.plan.plannedFiles.map(\.path)
    if declared != actual {
        let added = Set(actual).subtracting(declared).sorted(), removed = Set(declared).subtracting(actual).sorted()
        fail(["rasterkit-assets: \(arguments.manifest) now writes other files than this build was planned with"
                + (added.isEmpty ? "" : " (new: \(added.joined(separator: ", ")))")
                + (removed.isEmpty ? "" : " (gone: \(removed.joined(separator: ", ")))") + ".",
              "SwiftPM plans a build again only when Package.swift or the files of a target change: "
                + "touch Package.swift (or build with --disable-build-manifest-caching) and build again."],
             json: json)
    }
}

do {
    try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
} catch {
    fail(["rasterkit-assets: cannot create the output folder '\(arguments.out)': \(error.localizedDescription)"], json: json)
}

// Renders come from and go to the store, as with `rasterkit render`: `--cache PATH`, else the
// default store; none with `--no-cache`. A store that cannot be opened costs the disk tier only.
let limits = prepared.manifest.limits
let memoryLimit = 64 << 20
let noCache = arguments.noCache, cachePath = arguments.cache
let renderer = BatchRenderer(reusesUpToDateOutputs: !noCache) {
    if noCache { return Rasterizer(cache: RasterCache(memoryLimit: memoryLimit), limits: limits) }
    do {
        let disk = try cachePath.map { try DiskCache(at: URL(fileURLWithPath: $0)) } ?? DiskCache.default
        return Rasterizer(cache: RasterCache(memoryLimit: memoryLimit, disk: disk), limits: limits)
    } catch {
        printError(["rasterkit-assets: warning: rendering without the render cache, which cannot be used: \(error)"])
        return Rasterizer(cache: RasterCache(memoryLimit: memoryLimit), limits: limits)
    }
}
let result = prepared.render(with: renderer)
try? renderer.rasterizer?.cache.flush()

let summary = result.summary
if json {
    print(jsonLine(summary))
} else {
    print("\(summary.total) outputs in \(String(format: "%.2f", summary.seconds)) s: " + summary.countsDescription)
}
for failure in summary.failures { printError(["rasterkit-assets: \(failure.output) (\(failure.file)): \(failure.reason)"]) }
exit(summary.failed > 0 ? 1 : 0)

