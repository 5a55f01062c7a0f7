import Foundation

/// Renders `component` at `size` and `scale` and compares it with its reviewed golden PNG,
/// `Goldens/<TestFile>/<test>[.<name>]@<scale>x.png` under the package root. A nine-slice
/// component is compared as it looks at `size`: stretched.
///
/// A difference beyond `tolerance` (by default none, at pixelmatch's threshold 0.1) records a
/// failure in the running framework — Swift Testing or XCTest — that says how many pixels
/// differ, which tolerance applied and why, where `expected.png`, `actual.png` and `diff.png`
/// were written, and how to re-record. `record`, or else `RASTERKIT_RECORD`, chooses when goldens
/// are written (see ``RecordMode``); a recording assertion always fails, so a `record:` left in a
/// test cannot pass CI. Give each assertion in one test its own `name`.
///
/// ```swift
/// @Test func primaryButton() throws {
///     try assertGolden(of: Button(title: "Continue", style: .primary), size: Size(width: 160, height: 44), scale: 2)
/// }
/// ```
///
/// - Throws: ``GoldenError`` when the assertion cannot run (no package root, an invalid
///   `RASTERKIT_RECORD`, files that cannot be read or written), and rendering errors.
public func assertGolden<Component: Rasterizable>(
    of component: Component, size: Size, scale: Double = 2, named name: String? = nil, tolerance: Tolerance? = nil,
    rasterizer: Rasterizer? = nil, goldensDirectory: URL? = nil, record: RecordMode? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
    line: UInt = #line, column: UInt = #column
) throws {
    var image = try (rasterizer ?? GoldenRendering.rasterizer).image(for: component, size: size, scale: scale)
    if image.capInsets != nil, image.size != size { image = try image.stretched(to: size) }
    try GoldenRendering.assert(image, name: name, tolerance: tolerance, goldensDirectory: goldensDirectory, record: record,
                               location: .init(fileID: fileID, filePath: filePath, line: line, column: column),
                               function: function)
}

/// Compares any image with its golden PNG; see `assertGolden(of:size:scale:named:tolerance:)`.
public func assertGolden(
    image: RasterImage, named name: String? = nil, tolerance: Tolerance? = nil, goldensDirectory: URL? = nil,
    record: RecordMode? = nil, fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
    line: UInt = #line, column: UInt = #column
) throws {
    try GoldenRendering.assert(image, name: name, tolerance: tolerance, goldensDirectory: goldensDirectory, record: record,
                               location: .init(fileID: fileID, filePath: filePath, line: line, column: column),
                               function: function)
}

/// The comparison and recording behind both assertions.
enum GoldenRendering {
    /// Renders components for golden assertions that do not pass a rasterizer.
    static let rasterizer = Rasterizer()

    static func assert(_ image: RasterImage, name: String?, tolerance argument: Tolerance?, goldensDirectory: URL?,
                       record requestedMode: RecordMode? = nil, location: TestFailureReporter.Location, function: String,
                       environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let place = try GoldenLocation(filePath: location.path, function: function, name: name, scale: image.scale,
                                       goldensDirectory: goldensDirectory, environment: environment)
        let (mode, modeSource) = try requestedMode.map { ($0, "record: .\($0.rawValue) in the test") } ?? RecordMode.current(environment)
        let tolerance = ResolvedTolerance(argument: argument, environment: environment)
        let testName = String(function.prefix { $0 != "(" })
        let rerecord = "To accept the new rendering, run: RASTERKIT_RECORD=failed swift test --filter \(testName)"
        guard place.claim() else {
            return TestFailureReporter.fail(
                "Golden \(place.identifier) was already asserted in this run: give each assertion in one test its own `named:`.",
                at: location)
        }
        let actual = RGBABitmap(image)
        // Encoded only to record a golden or to leave artifacts: a passing assertion never needs it.
        let actualPNG = { [UInt8](try image.pngData()) }
        let goldenPath = place.goldenURL.path

        guard FileManager.default.fileExists(atPath: goldenPath) else {
            if mode == .never {
                let message = "Missing golden \(goldenPath). It was not recorded because the record mode is never (\(modeSource)). "
                    + "Record it on a developer machine with RASTERKIT_RECORD=missing swift test --filter \(testName), look at it, and commit it."
                let attachments = try writeArtifacts(place, message: message, mode: mode, expected: nil, actualPNG: try actualPNG(),
                                                     actual: actual, result: nil)
                return TestFailureReporter.fail(message + "\nActual: \(place.artifactsDirectory.path)/actual.png",
                                                attachments: attachments, at: location)
            }
            try record(try actualPNG(), at: place.goldenURL)
            return TestFailureReporter.fail(
                "Recorded a new golden at \(goldenPath) (record mode \(mode.rawValue): \(modeSource)). "
                    + "Look at it, commit it, and run the test again.", at: location)
        }

        let expected: RGBABitmap
        do {
            expected = try RGBABitmap(pngData: Data(contentsOf: place.goldenURL))
        } catch {
            guard mode == .all || mode == .failed else {
                throw GoldenError.unreadableGolden(path: goldenPath, reason: "\(error)")
            }
            try record(try actualPNG(), at: place.goldenURL)
            return TestFailureReporter.fail("Re-recorded unreadable golden \(goldenPath) (\(error)). Look at it and commit it.",
                                            at: location)
        }

        let sameSize = expected.width == actual.width && expected.height == actual.height
        let result = sameSize ? try ImageDiff.compare(expected, actual, options: tolerance.tolerance.options()) : nil
        let unchanged = result?.isIdentical ?? false
        let passes = result.map { tolerance.tolerance.accepts($0) } ?? false
        if unchanged || (passes && mode != .all) { return }

        if mode == .all || mode == .failed {
            try record(try actualPNG(), at: place.goldenURL)
            let what = result.map { "\($0.differentPixels) pixels had changed" } ?? "the size had changed"
            return TestFailureReporter.fail(
                "Re-recorded golden \(goldenPath): \(what) (record mode \(mode.rawValue): \(modeSource)). Look at it and commit it.",
                at: location)
        }

        var message: String
        if let result {
            let percent = String(format: "%.4f", result.ratio * 100)
            message = "Golden \(place.identifier) differs: \(result.differentPixels) of \(result.totalPixels) pixels "
                + "(\(percent)%) are different.\nTolerance: \(tolerance.summary)."
        } else {
            message = "Golden \(place.identifier) has a different size: expected \(expected.width)×\(expected.height) pixels, "
                + "actual \(actual.width)×\(actual.height)."
        }
        let attachments = try writeArtifacts(place, message: message, mode: mode, expected: expected, actualPNG: try actualPNG(),
                                             actual: actual, result: result)
        let directory = place.artifactsDirectory.path
        message += "\nGolden:   \(goldenPath)\nExpected: \(directory)/expected.png\nActual:   \(directory)/actual.png"
        if result != nil { message += "\nDiff:     \(directory)/diff.png" }
        message += "\n\(rerecord)"
        TestFailureReporter.fail(message, attachments: attachments, at: location)
    }

    private static func record(_ png: [UInt8], at url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(png).write(to: url, options: .atomic)
        } catch {
            throw GoldenError.cannotWrite(path: url.path, reason: "\(error)")
        }
    }

    private static func writeArtifacts(_ place: GoldenLocation, message: String, mode: RecordMode, expected: RGBABitmap?,
                                       actualPNG: [UInt8], actual: RGBABitmap, result: ImageDiff.Result?) throws
        -> [(name: String, bytes: [UInt8])] {
        let summary = FailureArtifacts.Summary(
            identifier: place.identifier, golden: place.goldenURL.path, message: message,
            differentPixels: result?.differentPixels, totalPixels: result?.totalPixels, ratio: result?.ratio,
            expectedSize: expected.map { "\($0.width)×\($0.height)" }, actualSize: "\(actual.width)×\(actual.height)",
            recordMode: mode.rawValue)
        let expectedPNG = try expected.map { [UInt8](try $0.pngData()) }
        let diffPNG = try result?.diffImage.map { [UInt8](try $0.pngData()) }
        return try FailureArtifacts(directory: place.artifactsDirectory)
            .write(summary: summary, expected: expectedPNG, actual: actualPNG, diff: diffPNG)
    }
}
