import Foundation
import RasterKitDiff
import RasterKitTestSupport
import Testing

/// `rasterkit goldens accept`: a reviewed failure's actual image becomes its golden, only inside
/// the goldens folder, and only for failures that have one image to accept.
@Suite struct GoldensAcceptCommandTests {
    typealias T = TestImages

    /// A project folder with `Goldens/` and the artifacts of failed golden assertions.
    struct Project {
        let root: URL
        var goldens: URL { root.appendingPathComponent("Goldens") }
        var artifacts: URL { root.appendingPathComponent(".build/rasterkit-artifacts") }

        init(_ name: String = #function) throws {
            root = TestScratch.path("accept-" + name.filter(\.isLetter))
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Goldens"), withIntermediateDirectories: true)
        }

        /// Leaves a failure as an assertion would: `result.json` and `actual.png` (white on black at `dot`).
        func fail(_ identifier: String, golden: String? = nil, kind: String? = "mismatch", dot: (Int, Int) = (2, 2)) throws {
            let folder = artifacts.appendingPathComponent(identifier.replacingOccurrences(of: "/", with: "."))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try T.black(whiteAt: [dot]).pngData().write(to: folder.appendingPathComponent("actual.png"))
            var summary: [String: Any] = [
                "identifier": identifier, "message": "Golden \(identifier) differs", "recordMode": "never",
                "golden": golden ?? goldens.appendingPathComponent(identifier + ".png").path, "goldensRoot": goldens.path,
            ]
            if let kind { summary["kind"] = kind }
            try JSONSerialization.data(withJSONObject: summary).write(to: folder.appendingPathComponent("result.json"))
        }

        func accept(_ arguments: String...) throws -> CLI.Run {
            try CLI.run(["goldens", "accept"] + arguments + ["--artifacts", artifacts.path, "--goldens", goldens.path], in: root)
        }

        func golden(_ identifier: String) -> URL { goldens.appendingPathComponent(identifier + ".png") }
    }

    @Test func acceptsByGlobOnlyWhatMatchesAndClearsItsArtifacts() throws {
        let project = try Project()
        try project.fail("BadgeTests/unread@2x", dot: (3, 4))
        try project.fail("BadgeTests/read@2x")
        try project.fail("ChipTests/long@1x")
        let run = try project.accept("BadgeTests/un*")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("accepted BadgeTests/unread@2x → "))
        let accepted = try RGBABitmap(pngData: Data(contentsOf: project.golden("BadgeTests/unread@2x")))
        #expect(accepted == T.black(whiteAt: [(3, 4)]))
        #expect(FileManager.default.fileExists(atPath: project.goldens.appendingPathComponent("BadgeTests/environment.json").path))
        #expect(!FileManager.default.fileExists(atPath: project.golden("BadgeTests/read@2x").path))
        let left = try GoldenReport(artifactsDirectory: project.artifacts).failures.map(\.identifier).sorted()
        #expect(left == ["BadgeTests/read@2x", "ChipTests/long@1x"])
        // Without globs, every failure; an exact name works as its own pattern.
        #expect(try project.accept("ChipTests/long@1x").status == 0)
        #expect(try project.accept().status == 0)
        #expect(FileManager.default.fileExists(atPath: project.golden("BadgeTests/read@2x").path))
        #expect(try GoldenReport(artifactsDirectory: project.artifacts).failures.isEmpty)
    }

    @Test func aDryRunWritesNothingAndNoMatchIsAFailure() throws {
        let project = try Project()
        try project.fail("BadgeTests/unread@2x")
        let dry = try project.accept("--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("would accept BadgeTests/unread@2x"))
        #expect(!FileManager.default.fileExists(atPath: project.golden("BadgeTests/unread@2x").path))
        let none = try project.accept("Nothing/*")
        #expect(none.status == 1 && none.stderr.contains("no failure") && none.stderr.contains("BadgeTests/unread@2x"))
    }

    @Test func nothingIsWrittenOutsideTheGoldensFolder() throws {
        let project = try Project()
        let outside = project.root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: project.goldens.appendingPathComponent("Linked"), withDestinationURL: outside)
        try project.fail("Escape/absolute@1x", golden: outside.appendingPathComponent("evil.png").path)
        try project.fail("Escape/dots@1x", golden: project.goldens.path + "/../dots.png")
        try project.fail("Escape/link@1x", golden: project.goldens.appendingPathComponent("Linked/evil.png").path)
        try project.fail("Escape/notPNG@1x", golden: project.goldens.appendingPathComponent("script.sh").path)
        try project.fail("Escape/relative@1x", golden: "Goldens/relative.png")
        let run = try project.accept("Escape/*")
        #expect(run.status == 1)
        for name in ["absolute", "dots", "link", "notPNG", "relative"] {
            #expect(run.stderr.contains("Escape/\(name)@1x: its golden"), "\(name): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: project.root.appendingPathComponent("dots.png").path))
        #expect(!FileManager.default.fileExists(atPath: project.goldens.appendingPathComponent("script.sh").path))
        #expect(try GoldenReport(artifactsDirectory: project.artifacts).failures.count == 5, "refused failures stay listed")
    }

    @Test func onlyFailuresWithOneImageToAcceptAreAccepted() throws {
        let project = try Project()
        try project.fail("Flaky/clock@1x", kind: "nondeterministic")
        try project.fail("Old/format@1x", kind: nil)
        try project.fail("New/missing@1x", kind: "missing")
        let run = try project.accept()
        #expect(run.status == 1)
        #expect(run.stderr.contains("Flaky/clock@1x: it rendered differently each time"))
        #expect(run.stderr.contains("Old/format@1x: its artifacts do not say what failed"))
        #expect(run.stdout.contains("accepted New/missing@1x"))
        #expect(FileManager.default.fileExists(atPath: project.golden("New/missing@1x").path))
        #expect(!FileManager.default.fileExists(atPath: project.golden("Flaky/clock@1x").path))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let project = try Project()
        try project.fail("BadgeTests/unread@2x")
        let noGoldens = try CLI.run(["goldens", "accept", "--artifacts", project.artifacts.path, "--goldens",
                                     project.root.appendingPathComponent("missing").path])
        #expect(noGoldens.status == 2 && noGoldens.stderr.contains("--goldens"))
        let noArtifacts = try CLI.run(["goldens", "accept", "--artifacts", project.root.appendingPathComponent("none").path,
                                       "--goldens", project.goldens.path])
        #expect(noArtifacts.status == 2 && noArtifacts.stderr.contains("no failure is recorded"))
        #expect(try project.accept("").status == 2)
        #expect(try CLI.run(["goldens", "accept", "--artifacts", ""]).status == 2)
    }
}
