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
/// Before a golden is written, the component is rendered twice more with fresh caches; if the
/// renders differ from each other (a clock, a counter, random values in `draw`), nothing is
/// recorded and the assertion fails saying so. Recording also writes `environment.json` beside
/// the golden: the versions of cairo, pixman, Pango, HarfBuzz, FreeType, fontconfig, librsvg
/// and libpng and the font files used. A later failure on a machine whose versions differ says
/// so first.
///
/// `ignoring` masks rectangles (in points, from the image's top left) out of the comparison:
/// their pixels never count as different, and the diff image shows them hatched in blue.
///
/// ```swift
/// @Test func primaryButton() throws {
///     try assertGolden(of: Button(title: "Continue", style: .primary), size: Size(width: 160, height: 44), scale: 2)
/// }
/// ```
///
/// - Throws: ``GoldenError`` when the assertion cannot run (no package root, an invalid
///   `RASTERKIT_RECORD`, an invalid mask, files that cannot be read or written), and rendering errors.
public func assertGolden<Component: Rasterizable>(
    of component: Component, size: Size, scale: Double = 2, named name: String? = nil, tolerance: Tolerance? = nil,
    ignoring masks: [Rect] = [], rasterizer: Rasterizer? = nil, goldensDirectory: URL? = nil, record: RecordMode? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
    line: UInt = #line, column: UInt = #column
) throws {
    let rasterizer = rasterizer ?? GoldenRendering.rasterizer
    let image = try GoldenRendering.render(component, size: size, scale: scale, with: rasterizer)
    let limits = rasterizer.limits
    try GoldenRendering.assert(image, name: name, tolerance: tolerance, masks: masks, goldensDirectory: goldensDirectory,
                               record: record, location: .init(fileID: fileID, filePath: filePath, line: line, column: column),
                               function: function,
                               rerender: {
                                   let fresh = Rasterizer(cache: RasterCache(respondsToMemoryPressure: false), limits: limits)
                                   return try GoldenRendering.render(component, size: size, scale: scale, with: fresh)
                               })
}

/// Compares any image with its golden PNG; see `assertGolden(of:size:scale:named:tolerance:ignoring:)`.
///
/// There is no component to render again, so a golden recorded here is not checked for
/// determinism.
public func assertGolden(
    image: RasterImage, named name: String? = nil, tolerance: Tolerance? = nil, ignoring masks: [Rect] = [],
    goldensDirectory: URL? = nil, record: RecordMode? = nil, fileID: String = #fileID, filePath: StaticString = #filePath,
    function: String = #function, line: UInt = #line, column: UInt = #column
) throws {
    try GoldenRendering.assert(image, name: name, tolerance: tolerance, masks: masks, goldensDirectory: goldensDirectory,
                               record: record, location: .init(fileID: fileID, filePath: filePath, line: line, column: column),
                               function: function)
}

/// The comparison and recording behind both assertions.
enum GoldenRendering {
    /// Renders components for golden assertions that do not pass a rasterizer.
    static let rasterizer = Rasterizer()

    /// A component as it looks at `size`: stretched when it is a nine-slice drawn smaller.
    static func render<Component: Rasterizable>(_ component: Component, size: Size, scale: Double,
                                                with rasterizer: Rasterizer) throws -> RasterImage {
        var image = try rasterizer.image(for: component, size: size, scale: scale)
        if image.capInsets != nil, image.size != size { image = try image.stretched(to: size) }
        return image
    }

    /// - Parameter rerender: renders the image again with fresh caches, to check before
    ///   recording that it renders the same every time; nil skips the check.
    static func assert(_ image: RasterImage, name: String?, tolerance argument: Tolerance?, masks: [Rect] = [],
                       goldensDirectory: URL?, record requestedMode: RecordMode? = nil,
                       location: TestFailureReporter.Location, function: String,
                       environment: [String: String] = ProcessInfo.processInfo.environment,
                       rerender: (() throws -> RasterImage)? = nil) throws {
        let place = try GoldenLocation(filePath: location.path, function: function, name: name, scale: image.scale,
                                       goldensDirectory: goldensDirectory, environment: environment)
        let ignored: IgnoredRegions
        do {
            ignored = try IgnoredRegions(masks, scale: image.scale, imageSize: image.size)
        } catch {
            throw GoldenError.invalidMask("\(error)")
        }
        let environmentFile = GoldenEnvironmentFile(goldenURL: place.goldenURL)
        let (mode, modeSource) = try requestedMode.map { ($0, "record: .\($0.rawValue) in the test") } ?? RecordMode.current(environment)
        let tolerance = ResolvedTolerance(argument: argument, environment: environment)
        let testName = String(function.prefix { $0 != "(" })
        let rerecord = "To accept the new rendering, run: RASTERKIT_RECORD=failed swift test --filter \(testName)"
        guard place.claim() else {
            return TestFailureReporter.fail(
                "Golden \(place.identifier) was already asserted in this run: give each assertion in one test its own `named:`.",
                at: location)
        }
        // This golden's artifacts from an earlier run go before it is compared (only its own:
        // other goldens' failures stand until they run again), so a pass leaves none behind.
        try? FileManager.default.removeItem(at: place.artifactsDirectory)
        GoldenRunLog.record(golden: place.goldenURL, runsDirectory: place.runsDirectory)
        let actual = RGBABitmap(image)
        // Encoded only to record a golden or to leave artifacts: a passing assertion never needs it.
        let actualPNG = { [UInt8](try image.pngData()) }
        let goldenPath = place.goldenURL.path

        guard FileManager.default.fileExists(atPath: goldenPath) else {
            if mode == .never || mode == .compare {
                let message = "Missing golden \(goldenPath). It was not recorded because the record mode is \(mode.rawValue) (\(modeSource)). "
                    + "Record it on a developer machine with RASTERKIT_RECORD=missing swift test --filter \(testName), look at it, and commit it."
                let attachments = try writeArtifacts(place, kind: .missing, message: message, mode: mode, expected: nil,
                                                     actualPNG: try actualPNG(), actual: actual, result: nil, ignored: nil)
                if mode == .compare { return TestFailureReporter.note(message, artifacts: place.artifactsDirectory) }
                return TestFailureReporter.fail(message + "\nActual: \(place.artifactsDirectory.path)/actual.png",
                                                attachments: attachments, at: location)
            }
            guard try rendersTheSame(image, rerender: rerender, place: place, mode: mode, location: location) else { return }
            try record(try actualPNG(), at: place.goldenURL, environment: environmentFile)
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
            guard try rendersTheSame(image, rerender: rerender, place: place, mode: mode, location: location) else { return }
            try record(try actualPNG(), at: place.goldenURL, environment: environmentFile)
            return TestFailureReporter.fail("Re-recorded unreadable golden \(goldenPath) (\(error)). Look at it and commit it.",
                                            at: location)
        }

        let sameSize = expected.width == actual.width && expected.height == actual.height
        let compared = sameSize ? ignored.applying(expected, to: actual) : actual
        let result = sameSize ? try ImageDiff.compare(expected, compared, options: tolerance.tolerance.options()) : nil
        let unchanged = result?.isIdentical ?? false
        let passes = result.map { tolerance.tolerance.accepts($0) } ?? false
        if unchanged || (passes && mode != .all) { return }

        if mode == .all || mode == .failed {
            guard try rendersTheSame(image, rerender: rerender, place: place, mode: mode, location: location) else { return }
            try record(try actualPNG(), at: place.goldenURL, environment: environmentFile)
            let what = result.map { "\($0.differentPixels) pixels had changed" } ?? "the size had changed"
            return TestFailureReporter.fail(
                "Re-recorded golden \(goldenPath): \(what) (record mode \(mode.rawValue): \(modeSource)). Look at it and commit it.",
                at: location)
        }

        // A changed environment is the first thing a reviewer needs: it decides between
        // re-recording and debugging.
        var message = environmentFile.mismatchNote(current: RenderEnvironment.current()) ?? ""
        if let result {
            let percent = String(format: "%.4f", result.ratio * 100)
            message += "Golden \(place.identifier) differs: \(result.differentPixels) of \(result.totalPixels) pixels "
                + "(\(percent)%) are different.\n"
            if let location = result.locationSummary { message += location.prefix(1).uppercased() + location.dropFirst() + ".\n" }
            message += "Tolerance: \(tolerance.summary)."
            if !ignored.isEmpty {
                message += "\nIgnored (hatched blue in diff.png): \(ignored.descriptions.joined(separator: ", "))."
            }
        } else {
            message += "Golden \(place.identifier) has a different size: expected \(expected.width)×\(expected.height) pixels, "
                + "actual \(actual.width)×\(actual.height)."
        }
        let attachments = try writeArtifacts(place, kind: result == nil ? .sizeMismatch : .mismatch, message: message, mode: mode,
                                             expected: expected, actualPNG: try actualPNG(), actual: actual, result: result,
                                             ignored: ignored)
        let directory = place.artifactsDirectory.path
        message += "\nGolden:   \(goldenPath)\nExpected: \(directory)/expected.png\nActual:   \(directory)/actual.png"
        if result != nil { message += "\nDiff:     \(directory)/diff.png" }
        if mode == .compare { return TestFailureReporter.note(message, artifacts: place.artifactsDirectory) }
        message += "\n\(rerecord)"
        TestFailureReporter.fail(message, attachments: attachments, at: location)
    }

    private static func record(_ png: [UInt8], at url: URL, environment: GoldenEnvironmentFile) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(png).write(to: url, options: .atomic)
        } catch {
            throw GoldenError.cannotWrite(path: url.path, reason: "\(error)")
        }
        do {
            try environment.record(RenderEnvironment.current())
        } catch {
            throw GoldenError.cannotWrite(path: environment.url.path, reason: "\(error)")
        }
    }

    /// Before a golden is written: renders twice more with fresh caches and compares the three
    /// renders byte for byte. When they differ, fails the assertion with the two renders that
    /// differ as artifacts, and returns false: a golden that cannot pass twice is not recorded.
    private static func rendersTheSame(_ image: RasterImage, rerender: (() throws -> RasterImage)?, place: GoldenLocation,
                                       mode: RecordMode, location: TestFailureReporter.Location) throws -> Bool {
        guard let rerender else { return true }
        let renders = [RGBABitmap(image), RGBABitmap(try rerender()), RGBABitmap(try rerender())]
        guard let index = renders.indices.dropFirst().first(where: { renders[$0] != renders[$0 - 1] }) else { return true }
        let (first, second) = (renders[index - 1], renders[index])
        let sameSize = first.width == second.width && first.height == second.height
        let result = sameSize ? try ImageDiff.compare(first, second, options: .init(threshold: 0, includeAA: true)) : nil
        let what = result.map { "\($0.differentPixels) of \($0.totalPixels) pixels differ" }
            ?? "their sizes differ (\(first.width)×\(first.height) and \(second.width)×\(second.height) pixels)"
        var message: String
        if index == 1, renders[1] == renders[2] {
            // Both fresh renders agree: the rasterizer served a render of older drawing code.
            message = "Not recorded: \(place.identifier) as the test's rasterizer returned it differs from two identical "
                + "renders with fresh caches (\(what)): its cache holds a render of older drawing code; bump the "
                + "component's renderVersion."
        } else {
            message = "Not recorded: \(place.identifier) renders differently each time. Rendered again with fresh caches, "
                + "\(what). A golden must render the same every time: look for a clock, a counter, random values or "
                + "unordered collections in draw(in:size:), or mask the part that changes with ignoring:."
        }
        let attachments = try writeArtifacts(place, kind: .nondeterministic, message: message, mode: mode, expected: first,
                                             actualPNG: [UInt8](try second.pngData()), actual: second, result: result,
                                             ignored: nil)
        let directory = place.artifactsDirectory.path
        message += "\nOne render: \(directory)/expected.png\nAnother:    \(directory)/actual.png"
        if result != nil { message += "\nDiff:       \(directory)/diff.png" }
        TestFailureReporter.fail(message, attachments: attachments, at: location)
        return false
    }

    private static func writeArtifacts(_ place: GoldenLocation, kind: FailureSummary.Kind, message: String, mode: RecordMode,
                                       expected: RGBABitmap?,
                                       actualPNG: [UInt8], actual: RGBABitmap, result: ImageDiff.Result?,
                                       ignored: IgnoredRegions?) throws -> [(name: String, bytes: [UInt8])] {
        let summary = FailureArtifacts.Summary(
            identifier: place.identifier, golden: place.goldenURL.path, message: message,
            differentPixels: result?.differentPixels, totalPixels: result?.totalPixels, ratio: result?.ratio,
            expectedSize: expected.map { "\($0.width)×\($0.height)" }, actualSize: "\(actual.width)×\(actual.height)",
            recordMode: mode.rawValue, ignoredRegions: ignored.map(\.descriptions) ?? [],
            differenceBounds: result?.differenceBounds, largestDifference: result?.largestDifference, kind: kind,
            goldensRoot: place.goldensDirectory.path)
        let expectedPNG = try expected.map { [UInt8](try $0.pngData()) }
        let diffPNG = try result?.diffImage.map { [UInt8](try (ignored?.drawn(on: $0) ?? $0).pngData()) }
        return try FailureArtifacts(directory: place.artifactsDirectory)
            .write(summary: summary, expected: expectedPNG, actual: actualPNG, diff: diffPNG)
    }
}
