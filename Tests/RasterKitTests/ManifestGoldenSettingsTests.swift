import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// `golden:` on a manifest component: the tolerance and masks `rasterkit goldens check` uses.
@Suite struct ManifestGoldenSettingsTests {
    @Test func settingsAreReadAsGiven() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let url = try fixture.write("""
            components:
              clock:
                sizes: ["120x32"]
                golden: {threshold: 0.05, maxDifferentPixels: 4, maxDifferentRatio: 0.01, includeAA: true,
                         ignore: [[80, 8, 36, 16], [0, 0, 1, 1]]}
                layers: [rect: {fill: white}]
              plain:
                sizes: ["8x8"]
                layers: [rect: {fill: white}]
            """, to: "kit.yaml")
        let manifest = try Manifest(contentsOf: url)
        let clock = try #require(manifest.component(named: "clock")?.golden)
        #expect(clock.threshold == 0.05 && clock.maxDifferentPixels == 4 && clock.maxDifferentRatio == 0.01 && clock.includeAA)
        #expect(clock.ignore == [Rect(x: 80, y: 8, width: 36, height: 16), Rect(x: 0, y: 0, width: 1, height: 1)])
        #expect(manifest.component(named: "plain")?.golden == nil)
    }

    @Test func badSettingsAreReportedAtTheirPositions() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              clock:
                sizes: ["120x32"]
                golden: {threshold: 2, maxDifferentPixels: -1, maxDifferentRatio: nan, includeAA: maybe, tolerance: 3,
                         ignore: [[0, 0, 0, 5], [1, 2, 3], "all"]}
                layers: [rect: {fill: white}]
              other:
                sizes: ["8x8"]
                golden: [0.1]
                layers: [rect: {fill: white}]
              many:
                sizes: ["8x8"]
                golden: {ignore: 5}
                layers: [rect: {fill: white}]
            """).map(\.description)
        func has(_ line: Int, _ text: String) -> Bool { problems.contains { $0.contains(":\(line):") && $0.contains(text) } }
        #expect(has(4, "threshold in golden in component \"clock\" must be at most 1"), "\(problems)")
        #expect(has(4, "maxDifferentPixels in golden in component \"clock\" must be"), "\(problems)")
        #expect(has(4, "maxDifferentRatio in golden in component \"clock\" must be a number"), "\(problems)")
        #expect(has(4, "includeAA in golden in component \"clock\" must be true or false"), "\(problems)")
        #expect(has(4, "unknown key \"tolerance\""), "\(problems)")
        #expect(has(5, "must have a width and height greater than 0"), "\(problems)")
        #expect(has(5, "[x, y, width, height]") || has(5, "4 numbers"), "\(problems)")
        #expect(has(9, "golden"), "\(problems)")
        #expect(has(13, "ignore in golden in component \"many\" must be a list of at most 64 rectangles"), "\(problems)")
    }
}
