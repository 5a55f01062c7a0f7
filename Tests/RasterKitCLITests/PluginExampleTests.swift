import Foundation
import RasterKitTestSupport
import Testing

/// `Examples/PluginExample`, a package that uses the build-tool plugin, built as a user's package
/// is (its own scratch folder under `.build/plugin-example`, so later runs are incremental), and
/// `swift package render-assets` run on it. Slow on a first run: the example builds RasterKit's
/// targets a second time.
@Suite(.serialized) struct PluginExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/PluginExample")
    static let scratch = root.appendingPathComponent(".build/plugin-example")

    /// `swift arguments…` on the example, with its scratch folder.
    static func swift(_ arguments: [String]) throws -> CLI.Run {
        let command = arguments.prefix(1) + ["--package-path", example.path, "--scratch-path", scratch.path] + arguments.dropFirst()
        return try CLI.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + command)
    }

    /// Builds the example's check, runs it, and removes a rendered badge from the built bundle
    /// to see the check fail, and the next build put it back.
    @Test func exampleBuildsAndFindsItsResources() throws {
        let build = try Self.swift(["build", "--product", "PluginExampleCheck"])
        try #require(build.status == 0, "\(build.stdout)\n\(build.stderr)")
        let binPath = try Self.swift(["build", "--show-bin-path"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let check = URL(fileURLWithPath: binPath).appendingPathComponent("PluginExampleCheck")
        let run = try CLI.run(executable: check, [])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("all 4 badges found in Bundle.module"), "\(run.stdout)")

        let bundle = URL(fileURLWithPath: binPath).appendingPathComponent("PluginExample_ExampleAssets.resources")
        let badge = bundle.appendingPathComponent("badge-done@2x.png")
        try #require(FileManager.default.fileExists(atPath: badge.path), "\(try? FileManager.default.contentsOfDirectory(atPath: bundle.path))")
        try FileManager.default.removeItem(at: badge)
        let missing = try CLI.run(executable: check, [])
        #expect(missing.status == 1 && missing.stderr.contains("badge-done@2x: badge-done@2x.png is not in"), "\(missing.stderr)")

        let rebuild = try Self.swift(["build", "--product", "PluginExampleCheck"])
        #expect(rebuild.status == 0, "\(rebuild.stdout)\n\(rebuild.stderr)")
        #expect(try CLI.run(executable: check, []).status == 0, "the build copies the badge into the bundle again")
    }

    /// `swift package render-assets --out DIR` writes exactly the files `--list-outputs` promised.
    @Test func renderAssetsCommandWritesWhatWasListed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try Self.swift(["package", "--allow-writing-to-package-directory", "--allow-writing-to-directory", directory.url.path,
                                  "render-assets", "--target", "ExampleAssets", "--out", directory.url.path, "--no-cache"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let manifest = Self.example.appendingPathComponent("Sources/ExampleAssets/Badges.rasterkit.yaml").path
        let out = directory.path("Badges")
        let listed = try CLI.run([manifest, "--out", out, "--list-outputs"], tool: "rasterkit-assets")
        let promised = listed.stdout.split(separator: "\n").map(String.init)
        #expect(promised == ["badge-done.png", "badge-done@2x.png", "badge-new.png", "badge-new@2x.png"])
        #expect(ListOutputsCommandTests.files(in: out) == promised)

        let unknown = try Self.swift(["package", "--allow-writing-to-package-directory", "render-assets", "--target", "NoSuchTarget"])
        #expect(unknown.status != 0, "\(unknown.stdout)")
        let noManifest = try Self.swift(["package", "--allow-writing-to-package-directory", "render-assets",
                                         "--target", "PluginExampleCheck"])
        #expect(noManifest.status != 0 && (noManifest.stdout + noManifest.stderr).contains("no *.rasterkit.yaml manifest"),
                "\(noManifest.stdout)\n\(noManifest.stderr)")
    }
}
