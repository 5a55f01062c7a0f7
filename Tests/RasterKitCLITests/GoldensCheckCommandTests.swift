import Foundation
import RasterKitDiff
import RasterKitTestSupport
import Testing

/// `rasterkit goldens check`: a manifest's PNGs against their goldens, under assertGolden's
/// rules, from recording through review and acceptance to a clean check.
@Suite struct GoldensCheckCommandTests {
    /// A project with `kit.yaml` (a chip in two states, and a dot), its goldens and artifacts.
    struct Project {
        let root: URL

        init(_ name: String = #function) throws {
            root = TestScratch.path("goldens-check-" + name.filter(\.isLetter))
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try writeKit(chipColour: "#2F6FEB")
        }

        func writeKit(chipColour: String, label: String = "Go") throws {
            try Data("""
                name: Kit
                components:
                  chip:
                    sizes: ["40x20"]
                    scales: [1, 2]
                    states:
                      normal: {fill: "\(chipColour)"}
                      muted: {fill: "#94A3B8"}
                    layers:
                      - roundedRect: {radius: 10, fill: "$fill"}
                      - text: {text: \(label), color: white, alignment: center, verticalAlignment: center}
                  dot:
                    sizes: ["12x12"]
                    layers: [ellipse: {fill: "#1F9D55"}]
                """.utf8).write(to: root.appendingPathComponent("kit.yaml"))
        }

        /// `rasterkit goldens check kit.yaml` in the project, outside CI unless `ci`.
        func check(_ arguments: String..., ci: Bool = false) throws -> CLI.Run {
            try CLI.run(["goldens", "check", "kit.yaml", "--goldens", "Goldens", "--artifacts", "artifacts"] + arguments, in: root,
                        environment: ["CI": ci ? "true" : "", "RASTERKIT_RECORD": ""])
        }

        func golden(_ name: String) -> URL { root.appendingPathComponent("Goldens/\(name).png") }
        var artifacts: URL { root.appendingPathComponent("artifacts") }
    }

    @Test func recordBreakReviewAcceptAndCheckClean() throws {
        let project = try Project()
        // Recording fails, so the new goldens get looked at; a second run passes.
        let recording = try project.check()
        #expect(recording.status == 1, "\(recording.stderr)")
        #expect(recording.stderr.contains("Recorded a new golden at") && recording.stdout.contains("5 goldens checked"))
        for name in ["chip-normal", "chip-normal@2x", "chip-muted", "chip-muted@2x", "dot-default"] {
            #expect(FileManager.default.fileExists(atPath: project.golden(name).path), "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: project.root.appendingPathComponent("Goldens/environment.json").path))
        let clean = try project.check()
        #expect(clean.status == 0 && clean.stdout.contains("5 passed, 0 failed"), "\(clean.stderr)")

        // One state breaks: only its outputs fail, each saying where, with artifacts and a report.
        try project.writeKit(chipColour: "#D93B3B")
        let broken = try project.check("--report", "report.html", "--junit", "goldens.xml")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("3 passed, 2 failed"))
        #expect(broken.stderr.contains("Golden chip-normal differs: ") && broken.stderr.contains("Different pixels in x 1–38, y 0–19 (38×20 px)"))
        #expect(broken.stderr.contains("--record failed --only chip-normal@2x"))
        let report = try GoldenReport(artifactsDirectory: project.artifacts)
        #expect(report.failures.map(\.identifier).sorted() == ["chip-normal", "chip-normal@2x"])
        #expect(report.failures.allSatisfy { $0.kind == .mismatch && $0.acceptCommand != nil })
        let page = try String(contentsOf: project.root.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("rasterkit goldens accept &#39;chip-normal@2x&#39;"))
        #expect(try String(contentsOf: project.root.appendingPathComponent("goldens.xml"), encoding: .utf8).contains("tests=\"2\""))

        // Accepted by glob; the check is clean again and leaves no artifacts.
        let accepted = try CLI.run(["goldens", "accept", "chip-normal*", "--artifacts", "artifacts", "--goldens", "Goldens"],
                                   in: project.root)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let after = try project.check()
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try GoldenReport(artifactsDirectory: project.artifacts).failures.isEmpty)
    }

    @Test func ciNeverRecordsAndAMissingGoldenFails() throws {
        let project = try Project()
        let run = try project.check(ci: true)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Missing golden") && run.stderr.contains("record mode is never (CI is set)"))
        #expect(!FileManager.default.fileExists(atPath: project.root.appendingPathComponent("Goldens").path))
        let refused = try project.check("--record", "missing", ci: true)
        #expect(refused.status == 2 && refused.stderr.contains("CI never records goldens"))
        // compare: nothing recorded, nothing failed, every difference noted.
        let compared = try project.check("--record", "compare", ci: true)
        #expect(compared.status == 0 && compared.stderr.contains("rasterkit compare: Missing golden"))
    }

    @Test func onlyChecksWhatMatchesAndRecordFailedRewritesOnlyFailures() throws {
        let project = try Project()
        #expect(try project.check("--only", "dot*").stdout.contains("1 golden checked"))
        #expect(!FileManager.default.fileExists(atPath: project.golden("chip-normal").path))
        #expect(try project.check().status == 1)   // records the chips
        let dotBytes = try Data(contentsOf: project.golden("dot-default"))
        try project.writeKit(chipColour: "#1F9D55", label: "No")
        let rerecorded = try project.check("--record", "failed")
        #expect(rerecorded.status == 1 && rerecorded.stderr.contains("Re-recorded golden"))
        #expect(try Data(contentsOf: project.golden("dot-default")) == dotBytes)
        #expect(try project.check().status == 0)
    }

    @Test func aComponentsGoldenSettingsApply() throws {
        let project = try Project()
        func write(dot: String, golden: String) throws {
            try Data("""
                name: Kit
                components:
                  dot:
                    sizes: ["12x12"]
                    golden: \(golden)
                    layers: [rect: {fill: "#1F9D55"}, rect: {frame: [4, 4, 4, 4], fill: "\(dot)"}]
                """.utf8).write(to: project.root.appendingPathComponent("kit.yaml"))
        }
        try write(dot: "#FFFFFF", golden: "{}")
        #expect(try project.check().status == 1)   // records
        // The changed square is masked out: it passes, and a mask past the image is an error.
        try write(dot: "#000000", golden: "{ignore: [[4, 4, 4, 4]]}")
        #expect(try project.check().status == 0)
        try write(dot: "#000000", golden: "{maxDifferentPixels: 16}")
        let allowed = try project.check()
        #expect(allowed.status == 0, "\(allowed.stderr)")
        try write(dot: "#000000", golden: "{maxDifferentPixels: 15}")
        let over = try project.check()
        #expect(over.status == 1 && over.stderr.contains("at most 15 pixels (golden: in the manifest)"), "\(over.stderr)")
        try write(dot: "#000000", golden: "{ignore: [[10, 10, 4, 4]]}")
        let outside = try project.check()
        #expect(outside.status == 1 && outside.stderr.contains("dot-default: "), "\(outside.stderr)")
    }

    @Test func badInputIsAUsageError() throws {
        let project = try Project()
        #expect(try project.check("--only", "nothing*").status == 2)
        #expect(try project.check("--record", "sometimes").status == 2)
        #expect(try project.check("--only", "").status == 2)
        try Data("name: Kit\ncomponents:\n  chip:\n    sizes: [\"-4x20\"]\n    layers: []\n".utf8)
            .write(to: project.root.appendingPathComponent("kit.yaml"))
        let broken = try project.check()
        #expect(broken.status == 2 && broken.stderr.contains("kit.yaml:4:"), "\(broken.stderr)")
        let missing = try CLI.run(["goldens", "check", "none.yaml"], in: project.root)
        #expect(missing.status == 2)
        #expect(try project.check("--report", "artifacts/r.html").status == 2)
    }
}
