import Foundation
import RasterKitTestSupport
import Testing

/// `rasterkit-assets`, the plugins' tool: the flags it shares with `rasterkit render` mean the
/// same, `--list-outputs --json` names the inputs a build must watch, and bad command lines exit 2.
@Suite struct AssetsToolCommandTests {
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect x="2" y="2" width="12" height="12" fill="black"/></svg>
        """

    /// A manifest drawing `art/dot.svg`, with `svgs:` from the folder `icons`, in `directory`.
    static func writeManifest(in directory: TemporaryDirectory) throws -> String {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory.path("art"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory.path("icons"), withIntermediateDirectories: true)
        try Data(svg.utf8).write(to: URL(fileURLWithPath: directory.path("art/dot.svg")))
        try Data(svg.utf8).write(to: URL(fileURLWithPath: directory.path("icons/square.svg")))
        let manifest = """
            name: Tiny
            components:
              chip:
                sizes: ["20x20"]
                scales: [1, 2]
                states:
                  on: {fill: "#2F6FEB"}
                  off: {fill: "#94A3B8"}
                layers:
                  - roundedRect: {radius: 4, fill: "$fill"}
                  - svg: {file: art/dot.svg, frame: [2, 2, 16, 16]}
            svgs:
              - {input: icons, sizes: [16], scales: [1], out: icons}
            """
        let path = directory.path("tiny.rasterkit.yaml")
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func listsOutputsAndInputsThenWritesExactlyThose() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try Self.writeManifest(in: directory)
        let out = directory.path("out"), store = directory.path("renders.sqlite")

        let listed = try CLI.run([manifest, "--out", out, "--list-outputs", "--json"], tool: "rasterkit-assets")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "listing writes nothing")
        let json = try listed.json()
        let outputs = try #require(json["outputs"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(outputs == ["chip-off.png", "chip-off@2x.png", "chip-on.png", "chip-on@2x.png", "icons/square-16.png"])
        let inputs = try #require(json["inputs"] as? [String])
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        #expect(Set(inputs.map(real)) == Set([manifest, directory.path("art/dot.svg"), directory.path("icons"),
                                              directory.path("icons/square.svg")].map(real)), "\(inputs)")

        // `rasterkit render --list-outputs --json` prints the same listing.
        let cli = try CLI.run(["render", manifest, "--out", out, "--list-outputs", "--json"])
        #expect(cli.status == 0 && cli.stdout == listed.stdout, "\(cli.stdout)\n\(listed.stdout)")

        let text = try CLI.run([manifest, "--out=\(out)", "--list-outputs"], tool: "rasterkit-assets")
        #expect(text.stdout.split(separator: "\n").map(String.init) == outputs)

        let rendered = try CLI.run([manifest, "--out", out, "--cache", store, "--json"], tool: "rasterkit-assets")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try rendered.json()["drawn"] as? Int == 5)
        #expect(ListOutputsCommandTests.files(in: out) == outputs)
        #expect(FileManager.default.fileExists(atPath: store), "renders went to --cache")

        // Into a new folder, every render comes from the store.
        let again = try CLI.run([manifest, "--out", directory.path("out2"), "--cache", store, "--json"], tool: "rasterkit-assets")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try again.json()["cached"] as? Int == 5, "\(again.stdout)")
        let noCache = try CLI.run([manifest, "--out", directory.path("out3"), "--no-cache", "--format", "webp"],
                                  tool: "rasterkit-assets")
        #expect(noCache.status == 0, "\(noCache.stderr)")
        #expect(ListOutputsCommandTests.files(in: directory.path("out3")).filter { $0.hasSuffix(".webp") }.count == 4)
    }

    /// `--expect-outputs`, as the build plugin passes it: a run whose outputs are not the ones
    /// declared fails before writing anything, saying which changed and how to plan again.
    @Test func expectedOutputsThatDifferFailTheRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try Self.writeManifest(in: directory)
        let out = directory.path("out"), expected = directory.path("expected.outputs")
        let listed = try CLI.run([manifest, "--out", out, "--list-outputs"], tool: "rasterkit-assets")
        var paths = listed.stdout.split(separator: "\n").map(String.init)
        try Data(paths.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: expected))
        let matching = try CLI.run([manifest, "--out", out, "--no-cache", "--expect-outputs", expected], tool: "rasterkit-assets")
        #expect(matching.status == 0, "\(matching.stderr)")

        paths.removeLast()
        paths.append("chip-gone.png")
        try Data(paths.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: expected))
        let other = directory.path("other")
        let differing = try CLI.run([manifest, "--out", other, "--no-cache", "--expect-outputs", expected], tool: "rasterkit-assets")
        #expect(differing.status == 2)
        #expect(differing.stderr.contains("(new: icons/square-16.png) (gone: chip-gone.png)"), "\(differing.stderr)")
        #expect(differing.stderr.contains("touch Package.swift"), "\(differing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other), "nothing is written")
    }

    @Test func manifestProblemsExit2WithTheirPositions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = directory.path("bad.rasterkit.yaml")
        try Data("components:\n  chip:\n    sizes: [\"20x20\"]\n    layers:\n      - rect: {fil: red}\n".utf8)
            .write(to: URL(fileURLWithPath: manifest))
        for extra in [[], ["--list-outputs", "--json"]] {
            let run = try CLI.run([manifest, "--out", directory.path("out")] + extra, tool: "rasterkit-assets")
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("bad.rasterkit.yaml:5:") && run.stderr.contains("nothing was written"), "\(run.stderr)")
            if extra.contains("--json") { #expect(try run.json()["error"] is String, "\(run.stdout)") }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("out")))
    }

    /// Read by ArgumentParser, as `rasterkit render`'s line is: its messages, the usage, exit 2.
    @Test(arguments: [
        ([], "Missing expected argument '<manifest>'"),
        (["m.yaml"], "Missing expected argument '--out <out>'"),
        (["m.yaml", "--out"], "Missing value for '--out <out>'"),
        (["m.yaml", "--out", ""], "--out needs a path, not an empty string"),
        (["m.yaml", "n.yaml", "--out", "o"], "Unexpected argument 'n.yaml'"),
        (["m.yaml", "--out", "o", "--format", "gif"], "The value 'gif' is invalid for '--format <format>'"),
        (["m.yaml", "--out", "o", "--cache", "s.sqlite", "--no-cache"], "--cache and --no-cache cannot be used together"),
        (["m.yaml", "--out", "o", "--cache", ""], "--cache needs a path, not an empty string"),
        (["m.yaml", "--out", "o", "--jobs", "2"], "Unknown option '--jobs'"),
        (["m.yaml", "--out", "o", "--json=yes"], "The option '--json' does not take any value"),
        (["", "--out", "o"], "the manifest needs a path, not an empty string"),
        (["m.yaml", "--out", "o", "--list-outputs", "--expect-outputs", "e"], "--expect-outputs and --list-outputs cannot be used together"),
        (["m.yaml", "--out", "o", "--remote-cache", "http://127.0.0.1:1"], "Unknown option '--remote-cache'"),
    ])
    func badCommandLinesExit2(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments, tool: "rasterkit-assets")
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("Error: \(message)"), "\(arguments): \(run.stderr)")
        // The usage line; with nothing given, the whole help (its heading in capitals).
        #expect(run.stderr.lowercased().contains("usage: rasterkit-assets <manifest> --out <out>"), "\(run.stderr)")
    }

    @Test func helpPrintsTheUsage() throws {
        let run = try CLI.run(["--help"], tool: "rasterkit-assets")
        #expect(run.status == 0 && run.stdout.contains("USAGE: rasterkit-assets <manifest> --out <out>"), "\(run.stdout)")
        #expect(run.stdout.contains("--expect-outputs") && run.stdout.contains("--no-cache"), "\(run.stdout)")
    }
}
