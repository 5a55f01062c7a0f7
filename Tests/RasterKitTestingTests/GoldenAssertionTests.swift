import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKitTesting

/// Runs golden assertions against a private goldens folder with a chosen environment.
struct Harness {
    let root: URL
    let goldens: URL
    let artifacts: URL

    init(_ name: String = #function) throws {
        root = TestScratch.path("golden-" + name.filter(\.isLetter))
        goldens = root.appendingPathComponent("Goldens")
        artifacts = root.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func assert(_ image: RasterImage, test: String, named name: String? = nil, tolerance: Tolerance? = nil,
                masks: [Rect] = [], record: RecordMode? = nil, environment: [String: String] = [:],
                goldensDirectory: URL? = nil, rerender: (() throws -> RasterImage)? = nil) throws {
        var environment = environment
        environment["RASTERKIT_ARTIFACTS"] = artifacts.path
        environment["RASTERKIT_GOLDEN_RUNS"] = root.appendingPathComponent("runs").path
        try GoldenRendering.assert(image, name: name, tolerance: tolerance, masks: masks, goldensDirectory: goldensDirectory ?? goldens,
                                   record: record, location: .init(fileID: #fileID, filePath: #filePath, line: 1, column: 1),
                                   function: test + "()", environment: environment, rerender: rerender)
    }

    func golden(_ test: String, named name: String? = nil, scale: Int = 1) -> URL {
        goldens.appendingPathComponent("GoldenAssertionTests")
            .appendingPathComponent(test + (name.map { "." + $0 } ?? "") + "@\(scale)x.png")
    }

    func artifactsFolder(_ test: String, scale: Int = 1) -> URL {
        artifacts.appendingPathComponent("GoldenAssertionTests.\(test)@\(scale)x")
    }
}

func square(_ color: Color, side: Double = 10, dot: Bool = false) throws -> RasterImage {
    try RasterImage(size: Size(side)) { canvas in
        canvas.fillAll(with: .color(color))
        if dot { canvas.fill(Path(rect: Rect(x: 2, y: 2, width: 2, height: 1)), with: .color(.black)) }
    }
}

func comment(_ issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

@Suite struct GoldenAssertionTests {
    @Test func aMissingGoldenIsRecordedAndTheTestFails() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "missing")
        } matching: { comment($0).contains("Recorded a new golden") && comment($0).contains("missing@1x.png") }
        #expect(FileManager.default.fileExists(atPath: harness.golden("missing").path))
        // A later run compares against it and passes.
        try FileManager.default.copyItem(at: harness.golden("missing"), to: harness.golden("missingAgain"))
        try harness.assert(square(.red), test: "missingAgain")
    }

    @Test func onCIAMissingGoldenFailsWithoutRecording() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "ci", environment: ["CI": "true"])
        } matching: { comment($0).contains("Missing golden") && comment($0).contains("CI is set") }
        #expect(!FileManager.default.fileExists(atPath: harness.golden("ci").path))
        #expect(FileManager.default.fileExists(atPath: harness.artifactsFolder("ci").appendingPathComponent("actual.png").path))
    }

    @Test func neverModeFailsOnAMissingGolden() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "never", environment: ["RASTERKIT_RECORD": "never"])
        } matching: { comment($0).contains("RASTERKIT_RECORD=never") }
        #expect(!FileManager.default.fileExists(atPath: harness.golden("never").path))
    }

    /// The record mode given in code wins over the environment, both ways, and a recording
    /// assertion still fails.
    @Test func aRecordModeInCodeWinsOverTheEnvironment() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "neverInCode", record: .never, environment: ["RASTERKIT_RECORD": "missing"])
        } matching: { comment($0).contains("Missing golden") && comment($0).contains("record: .never in the test") }
        #expect(!FileManager.default.fileExists(atPath: harness.golden("neverInCode").path))
        try withKnownIssue {
            try harness.assert(square(.red), test: "allInCode", record: .all, environment: ["CI": "true"])
        } matching: { comment($0).contains("Recorded a new golden") && comment($0).contains("record: .all in the test") }
        #expect(try RasterImage(pngData: Data(contentsOf: harness.golden("allInCode"))) == square(.red))
        // A reviewed red golden, and a blue rendering with `record: .failed` under RASTERKIT_RECORD=never.
        let reviewed = harness.golden("failedInCode")
        try FileManager.default.createDirectory(at: reviewed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.red).pngData().write(to: reviewed)
        try withKnownIssue {
            try harness.assert(square(.blue), test: "failedInCode", record: .failed, environment: ["RASTERKIT_RECORD": "never"])
        } matching: { comment($0).contains("Re-recorded golden") }
        #expect(try RasterImage(pngData: Data(contentsOf: reviewed)) == square(.blue))
    }

    @Test func ciFalseIsNotCI() throws {
        #expect(try RecordMode.current(["CI": "false"]).mode == .missing)
        #expect(try RecordMode.current(["CI": "1"]).mode == .never)
        #expect(try RecordMode.current(["CI": "true", "RASTERKIT_RECORD": "all"]).mode == .all)
    }

    @Test func anInvalidRecordModeIsAnError() throws {
        let harness = try Harness()
        #expect(throws: GoldenError.self) {
            try harness.assert(square(.red), test: "badMode", environment: ["RASTERKIT_RECORD": "sometimes"])
        }
    }

    @Test func reRecordingNeverRewritesUnchangedPixels() throws {
        let harness = try Harness()
        let url = harness.golden("unchanged")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A golden with the same pixels but different bytes (another compression level).
        let original = try square(.blue).pngData(compression: .best)
        try original.write(to: url)
        try harness.assert(square(.blue), test: "unchanged", environment: ["RASTERKIT_RECORD": "all"])
        #expect(try Data(contentsOf: url) == original)
    }

    @Test func recordAllRewritesChangedPixelsAndFails() throws {
        let harness = try Harness()
        let url = harness.golden("changed")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: url)
        try withKnownIssue {
            try harness.assert(square(.green), test: "changed", environment: ["RASTERKIT_RECORD": "all"])
        } matching: { comment($0).contains("Re-recorded golden") }
        #expect(try RGBABitmap(pngData: Data(contentsOf: url))[0, 0] == RGBA8(.green))
    }

    @Test func recordFailedRewritesOnlyFailures() throws {
        let harness = try Harness()
        let url = harness.golden("failedMode")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let golden = try square(.blue).pngData()
        try golden.write(to: url)
        // Within tolerance: kept as it is.
        try harness.assert(square(.blue, dot: true), test: "failedMode", tolerance: Tolerance(maxDifferentPixels: 2),
                           environment: ["RASTERKIT_RECORD": "failed"])
        #expect(try Data(contentsOf: url) == golden)
        try withKnownIssue {
            try harness.assert(square(.green), test: "failedModeAgain", environment: ["RASTERKIT_RECORD": "failed"])
        } matching: { comment($0).contains("Recorded a new golden") }
    }

    @Test func aMismatchSaysWhatDifferedAndWhereToLook() throws {
        let harness = try Harness()
        let url = harness.golden("mismatch")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: url)
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "mismatch")
        } matching: { issue in
            let text = comment(issue)
            return text.contains("2 of 100 pixels (2.0000%)") && text.contains("threshold 0.1 (default)")
                && text.contains("no different pixel (default)") && text.contains("expected.png") && text.contains("diff.png")
                && text.contains("RASTERKIT_RECORD=failed swift test --filter mismatch")
        }
        let folder = harness.artifactsFolder("mismatch")
        for name in ["expected.png", "actual.png", "diff.png", "result.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        let summary = try JSONDecoder().decode(FailureArtifacts.Summary.self, from: Data(contentsOf: folder.appendingPathComponent("result.json")))
        #expect(summary.differentPixels == 2 && summary.ratio == 0.02)
    }

    @Test func toleranceEdgesAndTheirSources() throws {
        let harness = try Harness()
        let url = harness.golden("edges")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: url)
        for (index, test) in ["edges", "edges2", "edges3"].enumerated() where index > 0 {
            try FileManager.default.copyItem(at: url, to: harness.golden(test))
        }
        // Exactly at the limit passes.
        try harness.assert(square(.blue, dot: true), test: "edges", tolerance: Tolerance(maxDifferentPixels: 2, maxDifferentRatio: 0.02))
        // One pixel over fails, and says the limit came from the argument.
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "edges2", tolerance: Tolerance(maxDifferentPixels: 1))
        } matching: { comment($0).contains("at most 1 pixels (tolerance: argument)") }
        // Limits can come from the environment.
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "edges3",
                               environment: ["RASTERKIT_MAX_DIFFERENT_PIXELS": "1", "RASTERKIT_MAX_DIFFERENT_RATIO": "0.5"])
        } matching: { comment($0).contains("at most 1 pixels (RASTERKIT_MAX_DIFFERENT_PIXELS)")
            && comment($0).contains("0.5 (RASTERKIT_MAX_DIFFERENT_RATIO)") }
    }

    @Test func aSizeMismatchNamesBothSizes() throws {
        let harness = try Harness()
        let url = harness.golden("sizes")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue, side: 10).pngData().write(to: url)
        try withKnownIssue {
            try harness.assert(square(.blue, side: 12), test: "sizes")
        } matching: { comment($0).contains("expected 10×10 pixels, actual 12×12") }
    }

    @Test func semiTransparentImagesCompareExactly() throws {
        let harness = try Harness()
        let glass = try RasterImage(size: Size(16)) { canvas in
            canvas.fillAll(with: .linearGradient(LinearGradient(gradient: Gradient(colors: [Color.red.withAlpha(0.1), Color.blue.withAlpha(0.8)]),
                                                                start: .zero, end: Point(x: 16, y: 16))))
        }
        try withKnownIssue { try harness.assert(glass, test: "glass") } matching: { comment($0).contains("Recorded") }
        try FileManager.default.copyItem(at: harness.golden("glass"), to: harness.golden("glassAgain"))
        try harness.assert(glass, test: "glassAgain", tolerance: .exact)
    }

    @Test func oneGoldenAssertedTwiceInARunFails() throws {
        let harness = try Harness()
        try withKnownIssue { try harness.assert(square(.red), test: "twice") } matching: { comment($0).contains("Recorded") }
        try withKnownIssue {
            try harness.assert(square(.red), test: "twice")
        } matching: { comment($0).contains("already asserted") && comment($0).contains("named:") }
    }

    @Test func namesBecomePartOfTheFileAndMustBeSafe() throws {
        let harness = try Harness()
        try withKnownIssue { try harness.assert(square(.red), test: "named", named: "dark-mode_2") } matching: { _ in true }
        #expect(FileManager.default.fileExists(atPath: harness.golden("named", named: "dark-mode_2").path))
        for bad in ["a/b", "..", "", "sp ace"] {
            #expect(throws: GoldenError.self) { try harness.assert(square(.red), test: "bad", named: bad) }
        }
    }

    @Test func goldensLiveUnderThePackageRoot() throws {
        let location = try GoldenLocation(filePath: #filePath, function: "primaryButton()", name: nil, scale: 2,
                                          goldensDirectory: nil, environment: [:])
        let root = try GoldenLocation.packageRoot(above: #filePath)
        #expect(location.goldenURL.path == root.path + "/Goldens/GoldenAssertionTests/primaryButton@2x.png")
        #expect(location.artifactsDirectory.path.hasPrefix(root.path + "/.build/rasterkit-artifacts/"))
        let custom = try GoldenLocation(filePath: #filePath, function: "x()", name: nil, scale: 1.5, goldensDirectory: nil,
                                        environment: ["RASTERKIT_GOLDENS": "/tmp/elsewhere"])
        #expect(custom.goldenURL.path == "/tmp/elsewhere/GoldenAssertionTests/x@1.5x.png")
    }
}
