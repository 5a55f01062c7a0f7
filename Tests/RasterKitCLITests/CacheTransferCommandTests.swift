import Foundation
import RasterKit
import RasterKitTestSupport
import Testing

/// `rasterkit cache export|import` and `RASTERKIT_CACHE`, end to end (issue 16): a store moved
/// to another path serves a render into a fresh folder without drawing.
@Suite struct CacheTransferCommandTests {
    static let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="9" fill="#2F6FEB"/></svg>"##

    @Test func exportImportThenAFreshRunDrawsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(Self.svg.utf8).write(to: URL(fileURLWithPath: directory.path("icon.svg")))
        // The store named by the environment, as a CI job would set it.
        let first = try CLI.run(["svg", directory.path("icon.svg"), "--size", "24", "--scale", "1", "--scale", "2",
                                 "--out", directory.path("a"), "--json"],
                                environment: ["RASTERKIT_CACHE": directory.path("a.sqlite")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try first.json()["drawn"] as? Int == 2)

        let export = try CLI.run(["cache", "export", directory.path("renders.export"), "--cache", directory.path("a.sqlite"), "--json"])
        #expect(export.status == 0, "\(export.stderr)")
        let imported = try CLI.run(["cache", "import", directory.path("renders.export"), "--json"],
                                   environment: ["RASTERKIT_CACHE": directory.path("b.sqlite")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try #require(try imported.json()["imported"] as? [String: Any])
        #expect(report["imported"] as? Int == 2 && report["damaged"] as? Int == 0)

        let fresh = try CLI.run(["svg", directory.path("icon.svg"), "--size", "24", "--scale", "1", "--scale", "2",
                                 "--out", directory.path("b"), "--cache", directory.path("b.sqlite"), "--json"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(try fresh.json()["drawn"] as? Int == 0)
        for name in ["icon-24.png", "icon-24@2x.png"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("a/" + name)))
                == (try Data(contentsOf: URL(fileURLWithPath: directory.path("b/" + name)))))
        }
    }

    @Test func aStorePathFromTheEnvironmentThatCannotBeUsedCostsOnlyTheDiskTier() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(Self.svg.utf8).write(to: URL(fileURLWithPath: directory.path("icon.svg")))
        try FileManager.default.createDirectory(atPath: directory.path("a-folder"), withIntermediateDirectories: true)
        try Data("notes, not a store\n".utf8).write(to: URL(fileURLWithPath: directory.path("notes.txt")))
        for (store, mentions) in [(directory.path("a-folder"), "a-folder"), ("", "")] {
            let run = try CLI.run(["svg", directory.path("icon.svg"), "--size", "16", "--out", directory.path("out"), "--json"],
                                  environment: ["RASTERKIT_CACHE": store, "XDG_CACHE_HOME": directory.path("xdg")])
            #expect(run.status == 0, "\(store): \(run.stderr)")
            #expect(mentions.isEmpty || run.stderr.contains(mentions), "\(run.stderr)")
        }
        // Another program's file named by the environment is left alone.
        let refused = try CLI.run(["svg", directory.path("icon.svg"), "--size", "16", "--out", directory.path("out2")],
                                  environment: ["RASTERKIT_CACHE": directory.path("notes.txt")])
        #expect(try String(contentsOfFile: directory.path("notes.txt"), encoding: .utf8) == "notes, not a store\n")
        #expect(refused.status == 0 && refused.stderr.contains("is not a RasterKit store"), "\(refused.stderr)")
    }

    @Test func badFilesAreUsageErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("plain text, not a store at all\n".utf8).write(to: URL(fileURLWithPath: directory.path("notes.txt")))
        let store = directory.path("renders.sqlite")
        _ = try DiskCache(at: URL(fileURLWithPath: store))
        let cases: [[String]] = [
            ["cache", "import", directory.path("missing.sqlite"), "--cache", store],
            ["cache", "import", directory.path("notes.txt"), "--cache", store],
            ["cache", "import", directory.url.path, "--cache", store],
            ["cache", "import", store, "--cache", store],
            ["cache", "import", "", "--cache", store],
            ["cache", "export", directory.path("no-such-folder/export.sqlite"), "--cache", store],
            ["cache", "export", directory.url.path, "--cache", store],
            ["cache", "export", store, "--cache", store],
            ["cache", "export", directory.path("export.sqlite"), "--cache", directory.path("missing.sqlite")],
        ]
        for arguments in cases {
            let run = try CLI.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
            #expect(!run.stderr.isEmpty)
        }
        // The text file was refused and left as it was.
        #expect(try String(contentsOfFile: directory.path("notes.txt"), encoding: .utf8) == "plain text, not a store at all\n")
    }
}

/// `--list-outputs` on `render` and `svg`: the paths a real run writes, nothing rendered.
@Suite struct ListOutputsCommandTests {
    @Test func renderListsWhatItWouldWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let showcase = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/showcase.yaml").path
        for format in ["png", "xcassets", "ninepatch", "webp", "pdf", "svg"] {
            let out = directory.path("out-\(format)")
            let listed = try CLI.run(["render", showcase, "--out", out, "--format", format, "--shard", "1/3", "--list-outputs"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "nothing is written")
            let real = try CLI.run(["render", showcase, "--out", out, "--format", format, "--shard", "1/3", "--no-cache", "--json"])
            #expect(real.status == 0, "\(real.stderr)")
            #expect(listed.stdout.split(separator: "\n").map(String.init) == Self.files(in: out), "\(format)")
        }
    }

    @Test func webpQualityIsCheckedBeforeAnythingRenders() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let showcase = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/showcase.yaml").path
        for arguments in [["--format", "webp", "--quality", "0"], ["--format", "webp", "--quality", "101"],
                          ["--format", "webp", "--quality", "high"], ["--format", "png", "--quality", "50"]] {
            let run = try CLI.run(["render", showcase, "--out", directory.path("out")] + arguments)
            #expect(run.status == 2 && run.stderr.contains("quality"), "\(arguments): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("out")))
        let listed = try CLI.run(["render", showcase, "--out", directory.path("out"), "--format", "webp", "--quality", "80",
                                  "--list-outputs", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let outputs = try #require(try listed.json()["outputs"] as? [[String: Any]])
        // Components in WebP at quality 80; the manifest's svgs: entries are PNGs, as always.
        let webp = outputs.filter { ($0["path"] as? String)?.hasSuffix(".webp") == true }
        #expect(webp.count > 100 && webp.allSatisfy { ($0["encoding"] as? String)?.hasSuffix("-q80") == true })
        #expect(outputs.allSatisfy { ($0["path"] as? String)?.hasSuffix(".webp") == true || ($0["path"] as? String)?.hasPrefix("icons") == true })
    }

    @Test func svgListsPathsAndKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(CacheTransferCommandTests.svg.utf8).write(to: URL(fileURLWithPath: directory.path("icon.svg")))
        let run = try CLI.run(["svg", directory.path("icon.svg"), "--size", "24", "--scale", "1", "--scale", "2",
                               "--out", directory.path("out"), "--list-outputs", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = try #require(try run.json()["outputs"] as? [[String: Any]])
        #expect(outputs.compactMap { $0["path"] as? String } == ["icon-24.png", "icon-24@2x.png"])
        #expect(outputs.allSatisfy { ($0["key"] as? String)?.count == 32 && $0["encoding"] as? String == "png1" })
    }

    /// Every file under `folder` but the batch's own records, relative and sorted.
    static func files(in folder: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
            if !isDirectory.boolValue, !path.hasPrefix(".rasterkit"), !path.contains("/.rasterkit") { files.append(path) }
        }
        return files.sorted()
    }
}
