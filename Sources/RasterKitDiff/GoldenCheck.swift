import Foundation
import RasterKit

/// One golden compared with an image, and recorded when the record mode says so: the rules of
/// `assertGolden`, shared with `rasterkit goldens check`, which report the ``Outcome`` their own
/// way (a test failure, a line and an exit status).
///
/// A missing golden is recorded under `missing`, `failed` and `all` and is a failure otherwise;
/// a golden that differs beyond the tolerance is a failure, re-recorded under `failed` and `all`;
/// `compare` records nothing and turns every failure into a note. Whatever is recorded is first
/// rendered twice more (when the caller can) and must come out the same each time, and it writes
/// `environment.json` beside the golden. Every failure leaves its artifacts (`expected.png`,
/// `actual.png`, `diff.png`, `result.json`) in `artifactsDirectory`, which the check empties of
/// an earlier run's first, so a golden that passes now leaves none behind.
package struct GoldenCheck {
    /// How reports name the golden: `BadgeTests/unread@2x`, `badge/unread@2x`.
    package var identifier: String
    /// Where the golden is kept: a file, or a lockfile entry.
    package var golden: any GoldenStorage
    /// This golden's own folder of failure artifacts.
    package var artifactsDirectory: URL
    package var mode: RecordMode
    /// Where `mode` came from, for messages (`CI is set`, `--record failed`).
    package var modeSource: String
    package var tolerance: ResolvedTolerance
    package var ignored: IgnoredRegions
    /// What runs the check, for messages: `test`, `check`.
    package var subject: String
    /// The command that runs this check again under a record mode, for messages.
    package var recordCommand: (RecordMode) -> String

    /// What the check found, for the caller to report.
    package enum Outcome {
        /// The image matches its golden within the tolerance.
        case passed
        /// A failure to report (recording counts: a recorded golden must be reviewed), with the
        /// images to attach.
        case failed(String, attachments: [(name: String, bytes: [UInt8])])
        /// Under `compare`: a difference or a missing golden, noted without failing.
        case noted(String)
    }

    package init(identifier: String, golden: any GoldenStorage, artifactsDirectory: URL, mode: RecordMode,
                 modeSource: String, tolerance: ResolvedTolerance, ignored: IgnoredRegions, subject: String,
                 recordCommand: @escaping (RecordMode) -> String) {
        self.identifier = identifier
        self.golden = golden
        self.artifactsDirectory = artifactsDirectory
        self.mode = mode
        self.modeSource = modeSource
        self.tolerance = tolerance
        self.ignored = ignored
        self.subject = subject
        self.recordCommand = recordCommand
    }

    /// Compares `image` with the golden and records it when the mode says so.
    ///
    /// - Parameter rerender: renders the image again with fresh caches, to check before
    ///   recording that it renders the same every time; nil skips the check.
    /// - Throws: ``GoldenError`` for a golden that cannot be read (outside `failed` and `all`)
    ///   and files that cannot be written.
    package func run(_ image: RasterImage, rerender: (() throws -> RasterImage)?) throws -> Outcome {
        // This golden's artifacts from an earlier run go before it is compared (only its own:
        // other goldens' failures stand until they run again), so a pass leaves none behind.
        try? FileManager.default.removeItem(at: artifactsDirectory)
        let actual = RGBABitmap(image)
        // Encoded only to record a golden or to leave artifacts: a passing check never needs it.
        let actualPNG = { [UInt8](try image.pngData()) }
        let goldenPath = golden.location

        let stored: RGBABitmap?
        do {
            stored = try golden.expected()
        } catch {
            if mode == .all || mode == .failed {
                if let refusal = try differingRender(image, rerender: rerender) { return refusal }
                try record(try actualPNG(), actual)
                return .failed("Re-recorded golden \(goldenPath), which could not be read (\(error)). Look at it and commit it.",
                               attachments: [])
            }
            let message = "Golden \(identifier) could not be read: \(error).\nGolden:   \(goldenPath)"
            let attachments = try writeArtifacts(kind: .unreadable, message: message, expected: nil, actualPNG: try actualPNG(),
                                                 actual: actual, result: nil, ignored: nil)
            let note = message + "\nActual:   \(artifactsDirectory.path)/actual.png"
            if mode == .compare { return .noted(note) }
            return .failed(note + "\nTo accept the new rendering, run: \(recordCommand(.failed))", attachments: attachments)
        }
        guard let expected = stored else {
            if mode == .never || mode == .compare {
                let message = "Missing golden \(goldenPath). It was not recorded because the record mode is \(mode.rawValue) (\(modeSource)). "
                    + "Record it on a developer machine with \(recordCommand(.missing)), look at it, and commit it."
                let attachments = try writeArtifacts(kind: .missing, message: message, expected: nil, actualPNG: try actualPNG(),
                                                     actual: actual, result: nil, ignored: nil)
                if mode == .compare { return .noted(message) }
                return .failed(message + "\nActual: \(artifactsDirectory.path)/actual.png", attachments: attachments)
            }
            if let refusal = try differingRender(image, rerender: rerender) { return refusal }
            try record(try actualPNG(), actual)
            return .failed("Recorded a new golden at \(goldenPath) (record mode \(mode.rawValue): \(modeSource)). "
                + "Look at it, commit it, and run the \(subject) again.",
                attachments: [])
        }

        let sameSize = expected.width == actual.width && expected.height == actual.height
        let compared = sameSize ? ignored.applying(expected, to: actual) : actual
        let result = sameSize ? try ImageDiff.compare(expected, compared, options: tolerance.tolerance.options()) : nil
        let unchanged = result?.isIdentical ?? false
        let passes = result.map { tolerance.tolerance.accepts($0) } ?? false
        if unchanged || (passes && mode != .all) { return .passed }

        if mode == .all || mode == .failed {
            if let refusal = try differingRender(image, rerender: rerender) { return refusal }
            try record(try actualPNG(), actual)
            let what = result.map { "\($0.differentPixels) pixels had changed" } ?? "the size had changed"
            return .failed("Re-recorded golden \(goldenPath): \(what) (record mode \(mode.rawValue): \(modeSource)). "
                + "Look at it and commit it.", attachments: [])
        }

        // A changed environment is the first thing a reviewer needs: it decides between
        // re-recording and debugging.
        var message = golden.environmentNote(current: RenderEnvironment.current()) ?? ""
        if let result {
            let percent = String(format: "%.4f", result.ratio * 100)
            message += "Golden \(identifier) differs: \(result.differentPixels) of \(result.totalPixels) pixels "
                + "(\(percent)%) are different.\n"
            if let location = result.locationSummary { message += location.prefix(1).uppercased() + location.dropFirst() + ".\n" }
            message += "Tolerance: \(tolerance.summary)."
            if !ignored.isEmpty {
                message += "\nIgnored (hatched blue in diff.png): \(ignored.descriptions.joined(separator: ", "))."
            }
        } else {
            message += "Golden \(identifier) has a different size: expected \(expected.width)×\(expected.height) pixels, "
                + "actual \(actual.width)×\(actual.height)."
        }
        let attachments = try writeArtifacts(kind: result == nil ? .sizeMismatch : .mismatch, message: message,
                                             expected: expected, actualPNG: try actualPNG(), actual: actual, result: result,
                                             ignored: ignored)
        let directory = artifactsDirectory.path
        message += "\nGolden:   \(goldenPath)\nExpected: \(directory)/expected.png\nActual:   \(directory)/actual.png"
        if result != nil { message += "\nDiff:     \(directory)/diff.png" }
        if mode == .compare { return .noted(message) }
        message += "\nTo accept the new rendering, run: \(recordCommand(.failed))"
        return .failed(message, attachments: attachments)
    }

    private func record(_ png: [UInt8], _ pixels: RGBABitmap) throws {
        try golden.record(png, pixels: pixels, environment: RenderEnvironment.current())
    }

    /// Before a golden is written: renders twice more with fresh caches and compares the three
    /// renders byte for byte. When they differ, the failure to report, with the two renders that
    /// differ as artifacts: a golden that cannot pass twice is not recorded. nil when they agree.
    private func differingRender(_ image: RasterImage, rerender: (() throws -> RasterImage)?) throws -> Outcome? {
        guard let rerender else { return nil }
        let renders = [RGBABitmap(image), RGBABitmap(try rerender()), RGBABitmap(try rerender())]
        guard let index = renders.indices.dropFirst().first(where: { renders[$0] != renders[$0 - 1] }) else { return nil }
        let (first, second) = (renders[index - 1], renders[index])
        let sameSize = first.width == second.width && first.height == second.height
        let result = sameSize ? try ImageDiff.compare(first, second, options: .init(threshold: 0, includeAA: true)) : nil
        let what = result.map { "\($0.differentPixels) of \($0.totalPixels) pixels differ" }
            ?? "their sizes differ (\(first.width)×\(first.height) and \(second.width)×\(second.height) pixels)"
        var message: String
        if index == 1, renders[1] == renders[2] {
            // Both fresh renders agree: the rasterizer served a render of older drawing code.
            message = "Not recorded: \(identifier) as the \(subject)'s rasterizer returned it differs from two identical "
                + "renders with fresh caches (\(what)): its cache holds a render of older drawing code; bump the "
                + "component's renderVersion."
        } else {
            message = "Not recorded: \(identifier) renders differently each time. Rendered again with fresh caches, "
                + "\(what). A golden must render the same every time: look for a clock, a counter, random values or "
                + "unordered collections in draw(in:size:), or mask the part that changes with ignoring:."
        }
        let attachments = try writeArtifacts(kind: .nondeterministic, message: message, expected: first,
                                             actualPNG: [UInt8](try second.pngData()), actual: second, result: result,
                                             ignored: nil)
        let directory = artifactsDirectory.path
        message += "\nOne render: \(directory)/expected.png\nAnother:    \(directory)/actual.png"
        if result != nil { message += "\nDiff:       \(directory)/diff.png" }
        return .failed(message, attachments: attachments)
    }

    private func writeArtifacts(kind: FailureSummary.Kind, message: String, expected: RGBABitmap?, actualPNG: [UInt8],
                                actual: RGBABitmap, result: ImageDiff.Result?,
                                ignored: IgnoredRegions?) throws -> [(name: String, bytes: [UInt8])] {
        var summary = FailureSummary(
            identifier: identifier, golden: golden.location, message: message,
            differentPixels: result?.differentPixels, totalPixels: result?.totalPixels, ratio: result?.ratio,
            expectedSize: expected.map { "\($0.width)×\($0.height)" }, actualSize: "\(actual.width)×\(actual.height)",
            recordMode: mode.rawValue, ignoredRegions: ignored.map(\.descriptions) ?? [],
            differenceBounds: result?.differenceBounds, largestDifference: result?.largestDifference, kind: kind)
        golden.describe(into: &summary)
        let expectedPNG = try expected.map { [UInt8](try $0.pngData()) }
        let diffPNG = try result?.diffImage.map { [UInt8](try (ignored?.drawn(on: $0) ?? $0).pngData()) }
        return try FailureArtifacts(directory: artifactsDirectory)
            .write(summary: summary, expected: expectedPNG, actual: actualPNG, diff: diffPNG)
    }
}
