import Foundation
import Testing
@testable import RasterKitTesting

/// `environment.json` beside the goldens, and the failure message when it no longer matches.
@Suite struct GoldenEnvironmentTests {
    private func environmentURL(_ harness: Harness) -> URL {
        harness.golden("any").deletingLastPathComponent().appendingPathComponent("environment.json")
    }

    @Test func recordingWritesTheEnvironmentBesideTheGoldens() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "first")
        } matching: { comment($0).contains("Recorded a new golden") }
        let url = environmentURL(harness)
        let recorded = try JSONDecoder().decode(RenderEnvironment.self, from: Data(contentsOf: url))
        for name in RenderEnvironment.libraryNames {
            let version = try #require(recorded.libraries[name], "\(name)")
            #expect(version.first?.isNumber == true && version.contains("."), "\(name) \(version)")
        }
        #expect(recorded.libraries["cairo"] == RenderEnvironment.current().libraries["cairo"])
        #expect(recorded.fonts.contains { $0.hasPrefix("DejaVuSans.ttf (") && $0.hasSuffix(" bytes)") })
        // Deterministic: recording another golden of the folder leaves the file's bytes as they were.
        let bytes = try Data(contentsOf: url)
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("}\n"))
        try withKnownIssue {
            try harness.assert(square(.blue), test: "second")
        } matching: { comment($0).contains("Recorded a new golden") }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(try RenderEnvironment.current().jsonData() == bytes)
    }

    @Test func aChangedEnvironmentIsSaidFirst() throws {
        let harness = try Harness()
        let golden = harness.golden("changed")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: golden)
        let current = RenderEnvironment.current()
        var recorded = current
        recorded.libraries["cairo"] = "1.0.0"
        recorded.libraries["HarfBuzz"] = "2.0.0"
        recorded.fonts = ["OldSans.ttf (1000 bytes)"] + current.fonts.dropFirst()
        try recorded.jsonData().write(to: environmentURL(harness))
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "changed")
        } matching: { issue in
            let text = comment(issue)
            return text.hasPrefix("The render environment changed since this folder's goldens were recorded: "
                                  + "recorded with cairo 1.0.0, now \(current.libraries["cairo"]!); "
                                  + "recorded with HarfBuzz 2.0.0, now \(current.libraries["HarfBuzz"]!); "
                                  + "recorded with fonts no longer used: OldSans.ttf (1000 bytes); "
                                  + "now with fonts not recorded: \(current.fonts[0])")
                && text.contains("re-record; otherwise debug") && text.contains("2 of 100 pixels")
        }
    }

    @Test func anUnchangedOrMissingEnvironmentAddsNothing() throws {
        let harness = try Harness()
        let golden = harness.golden("same")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: golden)
        try FileManager.default.copyItem(at: golden, to: harness.golden("same2"))
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "same")
        } matching: { comment($0).hasPrefix("Golden GoldenAssertionTests/same@1x differs") }
        try RenderEnvironment.current().jsonData().write(to: environmentURL(harness))
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "same2")
        } matching: { comment($0).hasPrefix("Golden GoldenAssertionTests/same2@1x differs") }
    }

    @Test func differencesNameLibrariesInOrderThenFonts() {
        let old = RenderEnvironment(libraries: ["cairo": "1.16.0", "libpng": "1.6.39", "extra": "1"], fonts: ["A.ttf (1 bytes)"])
        let new = RenderEnvironment(libraries: ["cairo": "1.18.0", "libpng": "1.6.39"], fonts: ["A.ttf (1 bytes)"])
        #expect(old.differences(now: new) == ["recorded with cairo 1.16.0, now 1.18.0", "recorded with extra 1, now (none)"])
        #expect(new.differences(now: new).isEmpty)
    }
}
