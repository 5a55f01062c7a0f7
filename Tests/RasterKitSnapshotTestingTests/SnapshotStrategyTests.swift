// RasterKitSnapshotTesting's strategies: compiled with the package trait SnapshotTesting on, as the
// Makefile builds (without it the module under test is empty).
#if SnapshotTesting
import Foundation
import RasterKitSnapshotTesting
import SnapshotTesting
import Testing

private func square(_ color: Color, side: Double = 10, dot: Bool = false) throws -> RasterImage {
    try RasterImage(size: Size(side), scale: 1) { canvas in
        canvas.fillAll(with: .color(color))
        if dot { canvas.fill(Path(rect: Rect(x: 2, y: 2, width: 2, height: 1)), with: .color(.black)) }
    }
}

private struct Chip: Rasterizable {
    var tint: Color
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fillAll(with: .color(.white))
        canvas.fill(Path(ellipseIn: Rect(size: size).insetBy(dx: 2, dy: 2)), with: .color(tint))
    }
}

private struct Broken: Rasterizable {
    struct Failure: Error {}
    func draw(in canvas: Canvas, size: Size) throws { throw Failure() }
}

/// A private snapshot folder and artifacts folder per test.
private struct Folders {
    let root: URL
    let snapshots: String
    let artifacts: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rasterkit-snapshot-\(UUID().uuidString.prefix(8))")
        snapshots = root.appendingPathComponent("__Snapshots__").path
        artifacts = root.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        setenv("RASTERKIT_ARTIFACTS", artifacts.path, 1)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func reference(_ test: String, _ name: String) -> String { snapshots + "/\(test).\(name).png" }
}

/// The strategies through swift-snapshot-testing's own `verifySnapshot`, which returns the
/// failure message instead of recording an issue. Serialized: `RASTERKIT_ARTIFACTS` is set per test.
@Suite(.serialized) struct SnapshotStrategyTests {
    @Test func anImageIsRecordedThenPassesThenFailsWithPathsInTheMessage() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let recorded = verifySnapshot(of: try square(.blue), as: .png, named: "blue", record: .missing,
                                      snapshotDirectory: folders.snapshots)
        #expect(recorded?.contains("No reference was found on disk") == true)
        let reference = folders.reference("anImageIsRecordedThenPassesThenFailsWithPathsInTheMessage", "blue")
        #expect(try RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: reference)))[0, 0] == RGBA8(.blue))

        #expect(verifySnapshot(of: try square(.blue), as: .png, named: "blue", record: .never, snapshotDirectory: folders.snapshots) == nil)

        let message = try #require(verifySnapshot(of: try square(.blue, dot: true), as: .png, named: "blue", record: .never,
                                                  snapshotDirectory: folders.snapshots))
        #expect(message.contains("Snapshot differs: 2 of 100 pixels (2.0000%) are different (RasterKit ImageDiff, threshold 0.1"))
        for name in ["expected.png", "actual.png", "diff.png"] {
            let line = try #require(message.split(separator: "\n").first { $0.hasSuffix("/" + name) }, "\(name) in \(message)")
            let path = String(line.split(separator: " ").last!)
            #expect(path.hasPrefix(folders.artifacts.path))
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
        let diffLine = message.split(separator: "\n").first { $0.hasSuffix("/diff.png") }!
        let diff = try RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: String(diffLine.split(separator: " ").last!))))
        #expect(diff[2, 2] == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        // The reference is untouched under record: .never.
        #expect(try RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: reference)))[2, 2] == RGBA8(.blue))
    }

    @Test func toleranceAndRecordModes() throws {
        let folders = try Folders()
        defer { folders.remove() }
        _ = verifySnapshot(of: try square(.blue), as: .png, named: "t", record: .all, snapshotDirectory: folders.snapshots)
        #expect(verifySnapshot(of: try square(.blue, dot: true), as: .png(tolerance: Tolerance(maxDifferentPixels: 2)),
                               named: "t", record: .never, snapshotDirectory: folders.snapshots) == nil)
        let over = verifySnapshot(of: try square(.blue, dot: true), as: .png(tolerance: Tolerance(maxDifferentPixels: 1)),
                                  named: "t", record: .never, snapshotDirectory: folders.snapshots)
        #expect(over?.contains("at most 1 pixels") == true)
        // .failed re-records a failing reference; the next run passes.
        let rerecorded = verifySnapshot(of: try square(.green), as: .png, named: "t", record: .failed,
                                        snapshotDirectory: folders.snapshots)
        #expect(rerecorded?.contains("Snapshot differs") == true)
        #expect(verifySnapshot(of: try square(.green), as: .png, named: "t", record: .never, snapshotDirectory: folders.snapshots) == nil)
        // .never does not record a missing reference.
        let missing = verifySnapshot(of: try square(.green), as: .png, named: "none", record: .never, snapshotDirectory: folders.snapshots)
        #expect(missing != nil)
        #expect(!FileManager.default.fileExists(atPath: folders.reference("toleranceAndRecordModes", "none")))
    }

    @Test func aComponentIsRasterizedRecordedAndCompared() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let strategy = Snapshotting<Chip, PixelSnapshot>.rasterized(size: Size(width: 20, height: 12), scale: 2)
        let recorded = verifySnapshot(of: Chip(tint: .red), as: strategy, named: "chip", record: .missing,
                                      snapshotDirectory: folders.snapshots)
        #expect(recorded?.contains("No reference was found on disk") == true)
        let reference = try RGBABitmap(pngData: Data(contentsOf: URL(
            fileURLWithPath: folders.reference("aComponentIsRasterizedRecordedAndCompared", "chip"))))
        #expect(reference.width == 40 && reference.height == 24)
        #expect(verifySnapshot(of: Chip(tint: .red), as: strategy, named: "chip", record: .never, snapshotDirectory: folders.snapshots) == nil)
        let failed = try #require(verifySnapshot(of: Chip(tint: .blue), as: strategy, named: "chip", record: .never,
                                                 snapshotDirectory: folders.snapshots))
        #expect(failed.contains("Snapshot differs") && failed.contains("/diff.png") && failed.contains(folders.artifacts.path))
        // Another size is a size mismatch, named with both sizes.
        let resized = verifySnapshot(of: Chip(tint: .red), as: .rasterized(size: Size(width: 20, height: 12), scale: 1),
                                     named: "chip", record: .never, snapshotDirectory: folders.snapshots)
        #expect(resized?.contains("expected 40×24 pixels, actual 20×12") == true)
    }

    @Test func aDrawThatThrowsFailsWithTheError() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try FileManager.default.createDirectory(atPath: folders.snapshots, withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: URL(fileURLWithPath: folders.reference("aDrawThatThrowsFailsWithTheError", "broken")))
        let message = verifySnapshot(of: Broken(), as: .rasterized(size: Size(10), scale: 1), named: "broken", record: .never,
                                     snapshotDirectory: folders.snapshots)
        #expect(message?.contains("Snapshot not taken: Broken could not be rendered") == true)
    }

    /// `assertSnapshot` itself, against the reference committed in `__Snapshots__` (made by this
    /// strategy from a 10-point red square at scale 1).
    @Test func assertSnapshotUsesTheStrategyUnderSwiftTesting() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try withSnapshotTesting(record: .never) {
            assertSnapshot(of: try square(.red), as: .png, named: "red")
            try withKnownIssue {
                assertSnapshot(of: try square(.red, dot: true), as: .png, named: "red")
            } matching: { issue in
                let text = "\(issue)"
                return text.contains("Snapshot differs: 2 of 100 pixels") && text.contains("/diff.png")
            }
        }
    }
}
#endif
