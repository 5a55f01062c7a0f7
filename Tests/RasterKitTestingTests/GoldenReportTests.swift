import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKitDiff
@testable import RasterKitTesting

@Suite struct GoldenReportTests {
    /// Leaves artifacts for two failing goldens: one with few differing pixels, one with many.
    private func makeArtifacts() throws -> URL {
        let root = TestScratch.path("rasterkit-report")
        let goldens = root.appendingPathComponent("Goldens"), artifacts = root.appendingPathComponent("artifacts")
        for (test, changed) in [("few", 1.0), ("many", 8.0)] {
            let golden = try RasterImage(size: Size(10)) { $0.fillAll(with: .color(.white)) }
            let actual = try RasterImage(size: Size(10)) { canvas in
                canvas.fillAll(with: .color(.white))
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: changed, height: changed)), with: .color(.red))
            }
            let url = goldens.appendingPathComponent("GoldenReportTests/\(test)@1x.png")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try golden.pngData().write(to: url)
            withKnownIssue {
                try GoldenRendering.assert(actual, name: nil, tolerance: nil, goldensDirectory: goldens,
                                           location: .init(fileID: #fileID, filePath: #filePath, line: 1, column: 1),
                                           function: "\(test)()", environment: ["RASTERKIT_ARTIFACTS": artifacts.path])
            }
        }
        // A folder that is not an artifact folder is skipped, not fatal.
        try FileManager.default.createDirectory(at: artifacts.appendingPathComponent("stray"), withIntermediateDirectories: true)
        return artifacts
    }

    @Test func failuresAreSortedByRatioWithEmbeddedImages() throws {
        let report = try GoldenReport(artifactsDirectory: makeArtifacts())
        #expect(report.failures.map(\.identifier) == ["GoldenReportTests/many@1x", "GoldenReportTests/few@1x"])
        #expect(report.skipped.map(\.folder) == ["stray"])
        let html = report.html()
        #expect(html.contains("2 golden failures"))
        let many = try #require(html.range(of: "GoldenReportTests/many@1x")), few = try #require(html.range(of: "GoldenReportTests/few@1x"))
        #expect(many.lowerBound < few.lowerBound)
        #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 2 * 5)  // 3 figures + 2 in the comparison
        #expect(html.contains("type=\"range\"") && html.contains("Onion skin"))
        #expect(!html.contains("http://") && !html.contains("https://"))  // self-contained
    }

    @Test func aMissingDirectoryIsAnError() {
        #expect(throws: GoldenError.self) { try GoldenReport(artifactsDirectory: URL(fileURLWithPath: "/no/such/folder")) }
    }

    @Test func theCommandWritesThePage() throws {
        let artifacts = try makeArtifacts()
        let page = artifacts.deletingLastPathComponent().appendingPathComponent("report.html")
        let ok = try CLI.run(["report", artifacts.path, "--out", page.path])
        #expect(ok.status == 0 && ok.stdout.contains("2 failures"))
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<!DOCTYPE html>"))
        #expect(try CLI.run(["report", "/no/such/folder", "--out", page.path]).status == 2)
        #expect(try CLI.run(["report"]).status == 2)
    }

    /// Issue 24, finding 6: the report follows no symbolic link and embeds only real PNGs; what
    /// it leaves out, it says why.
    @Test func symbolicLinksAndFilesThatAreNotPNGsAreLeftOutWithTheReason() throws {
        let artifacts = try makeArtifacts()
        defer { try? FileManager.default.removeItem(at: artifacts.deletingLastPathComponent()) }
        let manager = FileManager.default
        let secret = artifacts.deletingLastPathComponent().appendingPathComponent("passwd")
        let secretText = "root:x:0:0:root:/root:/bin/bash\n"
        try Data(secretText.utf8).write(to: secret)
        let folder = try #require(try manager.contentsOfDirectory(atPath: artifacts.path).first { $0.contains("few") })
        let fewFolder = artifacts.appendingPathComponent(folder)
        try manager.removeItem(at: fewFolder.appendingPathComponent("actual.png"))
        try manager.createSymbolicLink(at: fewFolder.appendingPathComponent("actual.png"), withDestinationURL: secret)
        try manager.removeItem(at: fewFolder.appendingPathComponent("diff.png"))
        try manager.copyItem(at: secret, to: fewFolder.appendingPathComponent("diff.png"))
        // A folder that is a link to another artifact folder is not read at all.
        try manager.createSymbolicLink(at: artifacts.appendingPathComponent("linked"), withDestinationURL: fewFolder)

        let report = try GoldenReport(artifactsDirectory: artifacts)
        #expect(report.failures.count == 2)
        let failure = try #require(report.failures.first { $0.identifier.contains("few") })
        #expect(failure.actual == nil && failure.diff == nil && failure.expected != nil)
        #expect(failure.leftOut["actual.png"] == "it is a symbolic link")
        #expect(failure.leftOut["diff.png"]?.contains("not a usable PNG") == true)
        let html = report.html()
        let encoded = Data(secretText.utf8).base64EncodedString()
        #expect(!html.contains(encoded) && !html.contains("root:x:0:0"))
        #expect(html.contains("left out: it is a symbolic link"))
        #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 5 + 1)
    }
}
