import Foundation
import Testing
@testable import RasterKitDiff
@testable import RasterKitTesting

/// `ignoring:` rectangles: left out of the comparison, hatched in the diff, listed in the report.
@Suite struct GoldenMaskTests {
    private func reviewed(_ harness: Harness, _ test: String) throws {
        let golden = harness.golden(test)
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: golden)
    }

    @Test func aMaskedDifferenceIsIgnored() throws {
        let harness = try Harness()
        try reviewed(harness, "masked")
        // The dot covers pixels (2, 2) and (3, 2).
        try harness.assert(square(.blue, dot: true), test: "masked", masks: [Rect(x: 1, y: 1, width: 4, height: 2)])
    }

    @Test func aDifferenceOutsideTheMaskFailsAndTheMaskIsDrawnInTheDiff() throws {
        let harness = try Harness()
        try reviewed(harness, "partly")
        // The mask covers only (2, 2): (3, 2) still differs.
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "partly", masks: [Rect(x: 0, y: 0, width: 3, height: 10)])
        } matching: { issue in
            comment(issue).contains("1 of 100 pixels") && comment(issue).contains("Ignored (hatched blue in diff.png): 0,0 3×10 px.")
        }
        let folder = harness.artifactsFolder("partly")
        let diff = try RGBABitmap(pngData: Data(contentsOf: folder.appendingPathComponent("diff.png")))
        for y in 0..<10 {
            for x in 0..<3 {
                let pixel = diff[x, y]
                #expect(pixel.blue == 255 && pixel.red != 255 && pixel.alpha == 255, "(\(x), \(y)) \(pixel)")
            }
        }
        #expect(diff[3, 2] == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        // The report lists the ignored regions.
        let report = try GoldenReport(artifactsDirectory: harness.artifacts)
        #expect(report.failures.first?.ignoredRegions == ["0,0 3×10 px"])
        #expect(report.html().contains("Ignored regions (hatched blue in the diff): 0,0 3×10 px"))
    }

    @Test func masksAreInPointsAndCoverEveryPixelTheyTouch() throws {
        let regions = try IgnoredRegions([Rect(x: 0.5, y: 1.25, width: 1, height: 1)], scale: 2, imageSize: Size(10))
        #expect(regions.regions == [.init(x: 1, y: 2, width: 2, height: 3)])
    }

    @Test(arguments: [
        (Rect(x: .nan, y: 0, width: 1, height: 1), "is not a finite number"),
        (Rect(x: 0, y: 0, width: .infinity, height: 1), "is not a finite number"),
        (Rect(x: 0, y: 0, width: 0, height: 1), "is empty"),
        (Rect(x: 0, y: 0, width: 2, height: -1), "is empty"),
        (Rect(x: -1, y: 0, width: 2, height: 2), "extends past the image, which is 10.0×10.0 points"),
        (Rect(x: 5, y: 5, width: 6, height: 1), "extends past the image"),
    ])
    func badMasksAreClearErrors(mask: Rect, expected: String) throws {
        let harness = try Harness()
        try reviewed(harness, "bad")
        do {
            try harness.assert(square(.blue), test: "bad", masks: [Rect(x: 0, y: 0, width: 1, height: 1), mask])
            Issue.record("accepted \(mask)")
        } catch let error as GoldenError {
            let text = "\(error)"
            #expect(text.hasPrefix("invalid ignoring: mask ") && text.contains(expected), "\(text)")
        }
    }
}
