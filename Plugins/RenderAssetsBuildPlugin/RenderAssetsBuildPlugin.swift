import Foundation
import PackagePlugin

/// Renders a target's `*.rasterkit.yaml` manifests into its resources as part of the build, so
/// `Bundle.module` holds the PNGs: one build command per manifest, running `rasterkit-assets`.
///
/// SwiftPM builds a plugin's tools before it asks the plugin for its commands, so the plugin runs
/// `rasterkit-assets MANIFEST --out DIR --list-outputs --json` itself to learn exactly which files
/// the command writes (its declared outputs, which SwiftPM then treats as resources) and which
/// files the manifest reads (its declared inputs, with the tool and the manifest): the command
/// runs again when one of those changes, and not otherwise. Renders are kept in a store in the
/// plugin's work directory, so a changed manifest redraws only its changed states.
///
/// SwiftPM plans a build (and so asks this plugin for its commands) again only when Package.swift
/// or the files of a target change, not when a manifest's text does. A manifest edited to write
/// other files than the plan declared fails its command with what changed and how to plan again
/// (`touch Package.swift`), rather than leaving the bundle without them.
@main
struct RenderAssetsBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let manifests = target.sourceFiles.map(\.url).filter(RenderAssetsManifests.isManifest).sorted { $0.path < $1.path }
        guard !manifests.isEmpty else { return [] }
        let tool = try context.tool(named: "RasterKitAssetsTool").url
        let work = context.pluginWorkDirectoryURL
        let store = work.appendingPathComponent("renders.sqlite")
        return try manifests.map { manifest in
            let out = work.appendingPathComponent("outputs").appendingPathComponent(RenderAssetsManifests.stem(of: manifest))
            let listing = try RenderAssetsManifests.listing(tool: tool, manifest: manifest, out: out, work: work)
            // The outputs declared here, which the command checks its run against: SwiftPM asks
            // the plugin again only when it plans the build again (Package.swift or a target's
            // files changed), not when the manifest is edited to write other files.
            let expected = work.appendingPathComponent("\(RenderAssetsManifests.stem(of: manifest)).outputs")
            try Data(listing.outputs.map(\.path).joined(separator: "\n").utf8).write(to: expected)
            return .buildCommand(
                displayName: "Rendering \(manifest.lastPathComponent) for \(target.name)",
                executable: tool,
                arguments: [manifest.path, "--out", out.path, "--cache", store.path, "--expect-outputs", expected.path],
                inputFiles: [tool, manifest] + listing.inputs.map { URL(fileURLWithPath: $0) },
                outputFiles: listing.outputs.map { out.appendingPathComponent($0.path) })
        }
    }
}

/// Finding manifests and asking the tool what a run of one reads and writes.
enum RenderAssetsManifests {
    static let suffix = ".rasterkit.yaml"

    static func isManifest(_ url: URL) -> Bool {
        url.lastPathComponent.hasSuffix(suffix) && url.lastPathComponent.count > suffix.count
    }

    /// `Icons.rasterkit.yaml` → `Icons`.
    static func stem(of manifest: URL) -> String {
        String(manifest.lastPathComponent.dropLast(suffix.count))
    }

    /// What `rasterkit-assets --list-outputs --json` prints.
    struct Listing: Decodable {
        struct Output: Decodable {
            var path: String
        }
        var outputs: [Output]
        var inputs: [String]
    }

    /// Runs the tool with `--list-outputs --json`; a manifest with problems fails the plugin
    /// with each problem as an error at its line.
    static func listing(tool: URL, manifest: URL, out: URL, work: URL) throws -> Listing {
        let process = Process()
        process.executableURL = tool
        process.arguments = [manifest.path, "--out", out.path, "--list-outputs", "--json"]
        // Problems go to a file: a pipe that fills while stdout is read would block the tool.
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let errors = work.appendingPathComponent("list-outputs-\(stem(of: manifest)).stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = errorHandle
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") { Diagnostics.error(String(line)) }
            throw PluginError("rasterkit-assets could not list the outputs of \(manifest.path) "
                              + "(exit status \(process.terminationStatus))")
        }
        do {
            return try JSONDecoder().decode(Listing.self, from: data)
        } catch {
            throw PluginError("rasterkit-assets --list-outputs printed what is not a listing: \(String(decoding: data, as: UTF8.self))")
        }
    }
}

/// A failure the plugin reports to SwiftPM.
struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
