#if SnapshotTesting
import Foundation
import SnapshotTesting
import Testing

/// Compares two snapshots with `ImageDiff` and, on a difference, writes the artifacts a person
/// reviews (`expected.png`, `actual.png`, `diff.png`, `result.json`, as golden assertions do)
/// and returns the failure message naming them.
struct SnapshotComparison {
    let tolerance: Tolerance
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// nil when `actual` matches `reference` within the tolerance.
    func failure(reference: PixelSnapshot, actual: PixelSnapshot) -> (String, [DiffAttachment])? {
        let expected: RGBABitmap, rendered: RGBABitmap
        switch (reference.pixels, actual.pixels) {
        case (_, .failure(let problem)): return ("Snapshot not taken: \(problem.text)", [])
        case (.failure(let problem), _): return ("Cannot compare: \(problem.text). Re-record the snapshot.", [])
        case let (.success(first), .success(second)): (expected, rendered) = (first, second)
        }
        // A failure of an earlier run must not outlive a pass: `rasterkit report` would list it.
        let folder = artifactsFolder(reference: reference)
        try? FileManager.default.removeItem(at: folder)
        var message: String
        var result: ImageDiff.Result?
        if expected.width == rendered.width, expected.height == rendered.height {
            do {
                let compared = try ImageDiff.compare(expected, rendered, options: tolerance.options())
                if compared.isIdentical || tolerance.accepts(compared) { return nil }
                result = compared
            } catch {
                return ("Cannot compare: \(error)", [])
            }
            let percent = String(format: "%.4f", result!.ratio * 100)
            message = "Snapshot differs: \(result!.differentPixels) of \(result!.totalPixels) pixels (\(percent)%) are different "
                + "(RasterKit ImageDiff, threshold \(tolerance.threshold)"
                + (tolerance.includeAA ? ", anti-aliased pixels included" : ", anti-aliasing excused")
                + limits + ")."
            if let location = result!.locationSummary { message += "\n" + location.prefix(1).uppercased() + location.dropFirst() + "." }
        } else {
            message = "Snapshot has a different size: expected \(expected.width)×\(expected.height) pixels, "
                + "actual \(rendered.width)×\(rendered.height)."
        }
        let diffPNG = result?.diffImage.flatMap { try? $0.pngData() }
        var attachments: [DiffAttachment] = [.data(reference.pngData, name: "expected.png"), .data(actual.pngData, name: "actual.png")]
        if let diffPNG { attachments.append(.data(diffPNG, name: "diff.png")) }
        do {
            try write(message: message, result: result, expected: expected, actual: actual, diff: diffPNG, to: folder)
            message += "\nExpected: \(folder.path)/expected.png\nActual:   \(folder.path)/actual.png"
            if diffPNG != nil { message += "\nDiff:     \(folder.path)/diff.png" }
        } catch {
            message += "\n(The artifacts could not be written to \(folder.path): \(error).)"
        }
        return (message, attachments)
    }

    private var limits: String {
        switch (tolerance.maxDifferentPixels, tolerance.maxDifferentRatio) {
        case (nil, nil): ", no different pixel allowed"
        case let (pixels?, nil): ", at most \(pixels) pixels"
        case let (nil, ratio?): ", a ratio of at most \(ratio)"
        case let (pixels?, ratio?): ", at most \(pixels) pixels and a ratio of at most \(ratio)"
        }
    }

    /// `<artifacts>/snapshot.<test>.<hash>`: the running Swift Testing test's name when there is
    /// one, and a hash of the reference PNG, so two snapshots of one test get their own folders
    /// and each comparison finds (and clears) the folder its earlier runs left.
    private func artifactsFolder(reference: PixelSnapshot) -> URL {
        let base: URL
        if let custom = environment["RASTERKIT_ARTIFACTS"], !custom.isEmpty {
            base = URL(fileURLWithPath: custom, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
                .appendingPathComponent(".build/rasterkit-artifacts", isDirectory: true)
        }
        let test = (Test.current?.name ?? "test").prefix { $0 != "(" }
            .map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in reference.pngData { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return base.appendingPathComponent("snapshot.\(String(test)).\(String(hash, radix: 16))", isDirectory: true)
    }

    private func write(message: String, result: ImageDiff.Result?, expected: RGBABitmap, actual: PixelSnapshot,
                       diff: Data?, to folder: URL) throws {
        let manager = FileManager.default
        try? manager.removeItem(at: folder)
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try expected.pngData().write(to: folder.appendingPathComponent("expected.png"), options: .atomic)
        try actual.pngData.write(to: folder.appendingPathComponent("actual.png"), options: .atomic)
        if let diff { try diff.write(to: folder.appendingPathComponent("diff.png"), options: .atomic) }
        let actualSize = (try? actual.pixels.get()).map { "\($0.width)×\($0.height)" }
        let summary = FailureSummary(
            identifier: "snapshot/" + folder.lastPathComponent, golden: "(swift-snapshot-testing reference)", message: message,
            differentPixels: result?.differentPixels, totalPixels: result?.totalPixels, ratio: result?.ratio,
            expectedSize: "\(expected.width)×\(expected.height)", actualSize: actualSize, recordMode: "swift-snapshot-testing",
            differenceBounds: result?.differenceBounds, largestDifference: result?.largestDifference,
            kind: result == nil ? .sizeMismatch : .mismatch)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: folder.appendingPathComponent("result.json"), options: .atomic)
    }
}
#endif
