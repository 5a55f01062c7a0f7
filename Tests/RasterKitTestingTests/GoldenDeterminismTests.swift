import Foundation
import RasterKitTestSupport
import Synchronization
import Testing
@testable import RasterKitTesting

/// Draws a different shade each time: the kind of component that must never get a golden.
private struct DrawCounter: Rasterizable {
    static let draws = Atomic<Int>(0)
    var label = "counter"
    func draw(in canvas: Canvas, size: Size) throws {
        let count = DrawCounter.draws.add(1, ordering: .relaxed).newValue
        canvas.fillAll(with: .color(Color(red: Double(count % 7) / 7, green: 0.3, blue: 0.6)))
    }
}

private struct Steady: Rasterizable {
    var label = "steady"
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fillAll(with: .color(Color(red: 0.2, green: 0.3, blue: 0.6)))
    }
}

/// Before recording, a component is rendered again with fresh caches; a render that differs
/// from itself is refused.
@Suite struct GoldenDeterminismTests {
    private func folder() -> URL {
        TestScratch.path("rasterkit-determinism")
    }

    @Test func aNondeterministicComponentIsNotRecorded() throws {
        let goldens = folder()
        try withKnownIssue {
            try assertGolden(of: DrawCounter(), size: Size(8), scale: 1, goldensDirectory: goldens, record: .missing)
        } matching: { issue in
            let text = comment(issue)
            return text.hasPrefix("Not recorded: GoldenDeterminismTests/aNondeterministicComponentIsNotRecorded@1x renders differently each time")
                && text.contains("64 of 64 pixels differ") && text.contains("a counter") && text.contains("actual.png")
        }
        let golden = goldens.appendingPathComponent("GoldenDeterminismTests/aNondeterministicComponentIsNotRecorded@1x.png")
        #expect(!FileManager.default.fileExists(atPath: golden.path))
        #expect(!FileManager.default.fileExists(atPath: goldens.appendingPathComponent("GoldenDeterminismTests/environment.json").path))
    }

    @Test func aNondeterministicComponentIsNotReRecordedEither() throws {
        let harness = try Harness()
        let golden = harness.golden("rerecord")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        let reviewed = try square(.green).pngData()
        try reviewed.write(to: golden)
        let rasterizer = Rasterizer()
        let render = { try rasterizer.image(for: DrawCounter(label: UUID().uuidString), size: Size(10), scale: 1) }
        try withKnownIssue {
            try harness.assert(render(), test: "rerecord", record: .all, rerender: render)
        } matching: { comment($0).hasPrefix("Not recorded") }
        #expect(try Data(contentsOf: golden) == reviewed)
    }

    /// Fresh renders agree with each other but not with the rasterizer's: a stale cached render.
    @Test func aStaleCachedRenderIsNotRecorded() throws {
        let harness = try Harness()
        try withKnownIssue {
            try harness.assert(square(.red), test: "stale", record: .missing, rerender: { try square(.blue) })
        } matching: { comment($0).contains("differs from two identical renders with fresh caches (100 of 100 pixels differ)")
            && comment($0).contains("bump the component's renderVersion") }
        #expect(!FileManager.default.fileExists(atPath: harness.golden("stale").path))
    }

    @Test func aDeterministicComponentIsRecorded() throws {
        let goldens = folder()
        try withKnownIssue {
            try assertGolden(of: Steady(), size: Size(8), scale: 1, goldensDirectory: goldens, record: .missing)
        } matching: { comment($0).hasPrefix("Recorded a new golden") }
        let golden = goldens.appendingPathComponent("GoldenDeterminismTests/aDeterministicComponentIsRecorded@1x.png")
        #expect(FileManager.default.fileExists(atPath: golden.path))
        // And a later run passes against it.
        try FileManager.default.copyItem(
            at: golden, to: goldens.appendingPathComponent("GoldenDeterminismTests/aDeterministicComponentIsRecorded.again@1x.png"))
        try assertGolden(of: Steady(), size: Size(8), scale: 1, named: "again", goldensDirectory: goldens, record: .never)
    }
}
