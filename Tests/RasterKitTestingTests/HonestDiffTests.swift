import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKitTesting

/// Anti-aliasing excused only where the colour is a blend of the neighbours', and failures that
/// say where the difference is.
@Suite struct HonestDiffTests {
    /// `bitmap` with the pixel at (`x`, `y`) replaced by `pixel`.
    static func replacing(_ bitmap: RGBABitmap, x: Int, y: Int, with pixel: RGBA8) -> RGBABitmap {
        var bytes = bitmap.withUnsafeBytes { Array($0) }
        let offset = (y * bitmap.width + x) * 4
        bytes[offset ..< offset + 4] = [pixel.red, pixel.green, pixel.blue, pixel.alpha]
        return RGBABitmap(width: bitmap.width, height: bitmap.height, bytes: bytes)
    }

    static let green = RGBA8(red: 0, green: 255, blue: 0, alpha: 255)

    /// Black text on white, as cairo and Pango draw it: its edges are greys.
    static func text() throws -> RGBABitmap {
        RGBABitmap(try RasterImage(size: Size(width: 60, height: 24)) { canvas in
            canvas.fillAll(with: .color(.white))
            canvas.draw(text: "Wag", in: Rect(x: 2, y: 2, width: 56, height: 20), style: TextStyle(font: "DejaVu Sans 14", color: .black))
        })
    }

    @Test func aTextEdgePixelTurnedGreenIsADifferenceNotAntiAliasing() throws {
        let text = try Self.text()
        // Every grey edge pixel pixelmatch's brightness test would excuse once it is green.
        var excusedByBrightness = 0
        for y in 0..<text.height {
            for x in 0..<text.width {
                let pixel = text[x, y]
                guard pixel.red == pixel.green, pixel.red > 40, pixel.red < 215 else { continue }
                let broken = Self.replacing(text, x: x, y: y, with: Self.green)
                let pixelmatch = try ImageDiff.compare(text, broken, options: .init(antiAliasing: .brightness), makeDiffImage: false)
                guard pixelmatch.differentPixels == 0 else { continue }
                #expect(pixelmatch.antiAliasedPixels == 1)
                excusedByBrightness += 1
                let honest = try ImageDiff.compare(text, broken, options: Tolerance().options(), makeDiffImage: false)
                #expect(honest.differentPixels == 1 && honest.antiAliasedPixels == 0, "(\(x), \(y))")
                #expect(honest.differenceBounds == ImageDiff.PixelRect(x: x, y: y, width: 1, height: 1))
                #expect(honest.largestDifference?.actual == Self.green)
                #expect(honest.largestDifference?.expected == pixel)
                #expect(!Tolerance().accepts(honest))
            }
        }
        // The defect the rule fixes is real on this text: several such pixels exist.
        #expect(excusedByBrightness >= 3)
    }

    @Test func edgesShiftedOrReblendedAreStillExcused() throws {
        // A vertical black/white edge whose anti-aliased column changes grey, and a second image
        // with the whole edge a pixel further right: blends of the neighbours, in both images.
        func edge(at column: Int, grey: UInt8) -> RGBABitmap {
            var bytes: [UInt8] = []
            for _ in 0..<12 {
                for x in 0..<12 {
                    let value: UInt8 = x < column ? 0 : x == column ? grey : 255
                    bytes += [value, value, value, 255]
                }
            }
            return RGBABitmap(width: 12, height: 12, bytes: bytes)
        }
        let reblended = try ImageDiff.compare(edge(at: 5, grey: 60), edge(at: 5, grey: 200), options: Tolerance().options())
        #expect(reblended.differentPixels == 0 && reblended.antiAliasedPixels == 12)
        let shifted = try ImageDiff.compare(edge(at: 5, grey: 128), edge(at: 6, grey: 128), options: Tolerance().options())
        let pixelmatch = try ImageDiff.compare(edge(at: 5, grey: 128), edge(at: 6, grey: 128), options: .init())
        #expect(shifted.differentPixels == pixelmatch.differentPixels && shifted.antiAliasedPixels == pixelmatch.antiAliasedPixels)
    }

    @Test func boundsAndTheLargestChangeAreReportedOnSmallAndBandedImages() throws {
        for (width, height) in [(10, 10), (700, 600)] {   // the second is compared in bands on every core
            let blank = RGBABitmap(width: width, height: height, bytes: [UInt8](repeating: 255, count: width * height * 4))
            var changed = Self.replacing(blank, x: 2, y: 3, with: RGBA8(red: 200, green: 200, blue: 200, alpha: 255))
            changed = Self.replacing(changed, x: width - 3, y: height - 2, with: RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
            changed = Self.replacing(changed, x: width / 2, y: height / 2, with: RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
            let result = try ImageDiff.compare(blank, changed)
            #expect(result.differentPixels == 3)
            #expect(result.differenceBounds == ImageDiff.PixelRect(x: 2, y: 3, width: width - 4, height: height - 4))
            let largest = try #require(result.largestDifference)
            #expect(largest.x == width / 2 && largest.y == height / 2 && abs(largest.distance - 0.966) < 0.001)
            #expect(largest.expected == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
            #expect(result.locationSummary?.contains("x 2–\(width - 3), y 3–\(height - 2)") == true)
            #expect(result.locationSummary?.contains("(\(width / 2), \(height / 2)): #FFFFFFFF → #000000FF, distance 0.97") == true)
        }
        let same = try ImageDiff.compare(try Self.text(), try Self.text())
        #expect(same.differenceBounds == nil && same.largestDifference == nil && same.locationSummary == nil)
    }

    @Test func aFailureSaysWhereInItsMessageResultReportAndJUnit() throws {
        let harness = try Harness()
        let url = harness.golden("located")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: url)
        try withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "located")
        } matching: { issue in
            comment(issue).contains("Different pixels in x 2–3, y 2–2 (2×1 px); largest change at (2, 2): #")
        }
        let json = try Data(contentsOf: harness.artifactsFolder("located").appendingPathComponent("result.json"))
        let summary = try JSONDecoder().decode(FailureSummary.self, from: json)
        #expect(summary.differenceBounds == ImageDiff.PixelRect(x: 2, y: 2, width: 2, height: 1))
        #expect(summary.largestDifference?.x == 2 && summary.largestDifference?.y == 2)
        #expect(summary.largestDifference?.actual == "#000000FF")
        #expect(summary.kind == .mismatch && summary.goldensRoot == harness.goldens.path)
        let report = try GoldenReport(artifactsDirectory: harness.artifacts)
        // The page says, per failure, the command that accepts it.
        #expect(report.failures.first?.acceptCommand == "rasterkit goldens accept 'GoldenAssertionTests/located@1x' --artifacts '"
            + harness.artifacts.path + "' --goldens '" + harness.goldens.path + "'")
        #expect(report.html().contains("To accept the actual image as the golden: <code>rasterkit goldens accept &#39;GoldenAssertionTests/located@1x&#39;"))
        #expect(report.html().contains("different pixels in x 2–3, y 2–2 (2×1 px)"))
        #expect(report.markdown().contains("`different pixels in x 2–3, y 2–2 (2×1 px); largest change at (2, 2)"))
        let junit = report.junitXML()
        #expect(junit.contains("message=\"Golden GoldenAssertionTests/located@1x differs: 2 of 100 pixels (2.0000%) are different. "
            + "(different pixels in x 2–3, y 2–2 (2×1 px); largest change at (2, 2): #"))
    }

    @Test func eachAssertionClearsOnlyItsOwnEarlierArtifacts() throws {
        let harness = try Harness()
        for test in ["fixed", "stillBroken"] {
            let url = harness.golden(test)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try square(.blue).pngData().write(to: url)
            withKnownIssue { try harness.assert(square(.blue, dot: true), test: test) }
        }
        #expect(FileManager.default.fileExists(atPath: harness.artifactsFolder("fixed").path))
        // A later run in which `fixed` passes: the same artifacts folder, the golden copied to a
        // folder of its own (a golden can be asserted once per process).
        let later = harness.root.appendingPathComponent("LaterGoldens")
        let copy = later.appendingPathComponent("GoldenAssertionTests/fixed@1x.png")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: harness.golden("fixed"), to: copy)
        try harness.assert(square(.blue), test: "fixed", goldensDirectory: later)
        #expect(!FileManager.default.fileExists(atPath: harness.artifactsFolder("fixed").path))
        #expect(FileManager.default.fileExists(atPath: harness.artifactsFolder("stillBroken").appendingPathComponent("result.json").path))
        #expect(try GoldenReport(artifactsDirectory: harness.artifacts).failures.map(\.identifier) == ["GoldenAssertionTests/stillBroken@1x"])
    }
}
