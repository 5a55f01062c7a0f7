import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory render-assets [--target NAME]… [--out FOLDER]
/// [--format FORMAT] [--cache PATH | --no-cache]`: renders each `*.rasterkit.yaml` manifest of
/// the package's targets (or of the targets named) into the package, for outputs that are
/// committed. `Icons.rasterkit.yaml` is rendered into the folder `Icons` beside it, or into
/// `FOLDER/Icons` with `--out` (relative to the package, unless absolute; writing outside
/// the package needs `--allow-writing-to-directory FOLDER` as well). Runs `rasterkit-assets`, so
/// only what changed is drawn again, and renders are kept in the default store as `rasterkit
/// render` keeps them (`--cache PATH` names another, `--no-cache` uses none).
@main
struct RenderAssetsCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let out = extractor.extractOption(named: "out")
        let format = extractor.extractOption(named: "format")
        let cache = extractor.extractOption(named: "cache")
        let noCache = extractor.extractFlag(named: "no-cache") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw CommandError("render-assets: unknown arguments \(extractor.remainingArguments.joined(separator: " ")); "
                               + "it takes --target NAME, --out FOLDER, --format FORMAT, --cache PATH, --no-cache")
        }
        guard out.count <= 1, format.count <= 1, cache.count <= 1 else {
            throw CommandError("render-assets: --out, --format and --cache may each be given once")
        }

        let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
        let manifests = targets.compactMap { $0 as? SourceModuleTarget }
            .flatMap { target in target.sourceFiles.map(\.url).filter(Self.isManifest) }
            .sorted { $0.path < $1.path }
        guard !manifests.isEmpty else {
            throw CommandError("render-assets: no *.rasterkit.yaml manifest in "
                               + (targetNames.isEmpty ? "the package's targets" : "the targets " + targetNames.joined(separator: ", ")))
        }

        let tool = try context.tool(named: "RasterKitAssetsTool").url
        // --out is relative to the package, unless absolute.
        let outBase = out.first.map { path in
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : context.package.directoryURL.appendingPathComponent(path)
        }
        var options: [String] = []
        if let format = format.first { options += ["--format", format] }
        if let cache = cache.first { options += ["--cache", cache] }
        if noCache { options.append("--no-cache") }
        var failed: [String] = []
        for manifest in manifests {
            let stem = String(manifest.lastPathComponent.dropLast(Self.suffix.count))
            let folder = (outBase ?? manifest.deletingLastPathComponent()).appendingPathComponent(stem)
            print("render-assets: \(manifest.path) → \(folder.path)")
            let process = Process()
            process.executableURL = tool
            process.arguments = [manifest.path, "--out", folder.path] + options
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 { failed.append(manifest.lastPathComponent) }
        }
        guard failed.isEmpty else {
            throw CommandError("render-assets: \(failed.joined(separator: ", ")) did not render completely")
        }
    }

    static let suffix = ".rasterkit.yaml"

    static func isManifest(_ url: URL) -> Bool {
        url.lastPathComponent.hasSuffix(suffix) && url.lastPathComponent.count > suffix.count
    }
}

/// A failure the command reports to SwiftPM.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
