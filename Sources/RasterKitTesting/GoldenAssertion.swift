import Foundation

/// Renders `component` at `size` and `scale` and compares it with its reviewed golden PNG,
/// `Goldens/<TestFile>/<test>[.<name>]@<scale>x.png` under the package root. A nine-slice
/// component is compared as it looks at `size`: stretched.
///
/// A difference beyond `tolerance` (by default none, at pixelmatch's threshold 0.1) records a
/// failure in the running framework — Swift Testing or XCTest — that says how many pixels
/// differ, which tolerance applied and why, where `expected.png`, `actual.png` and `diff.png`
/// were written, and how to re-record. `record`, or else `RASTERKIT_RECORD`, chooses when goldens
/// are written (see `RecordMode`); a recording assertion always fails, so a `record:` left in a
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
/// - Throws: `GoldenError` when the assertion cannot run (no package root, an invalid
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
        let (mode, modeSource) = try requestedMode.map { ($0, "record: .\($0.rawValue) in the test") } ?? RecordMode.current(environment)
        let testName = String(function.prefix { $0 != "(" })
        guard place.claim() else {
            return TestFailureReporter.fail(
                "Golden \(place.identifier) was already asserted in this run: give each assertion in one test its own `named:`.",
                at: location)
        }
        GoldenRunLog.record(golden: place.goldenURL, runsDirectory: place.runsDirectory)
        let check = GoldenCheck(identifier: place.identifier,
                                golden: GoldenFile(url: place.goldenURL, goldensDirectory: place.goldensDirectory),
                                artifactsDirectory: place.artifactsDirectory, mode: mode, modeSource: modeSource,
                                tolerance: ResolvedTolerance(argument: argument, environment: environment), ignored: ignored,
                                subject: "test",
                                recordCommand: { "RASTERKIT_RECORD=\($0.rawValue) swift test --filter \(testName)" })
        switch try check.run(image, rerender: rerender) {
        case .passed: return
        case let .failed(message, attachments): TestFailureReporter.fail(message, attachments: attachments, at: location)
        case .noted(let message): TestFailureReporter.note(message, artifacts: place.artifactsDirectory)
        }
    }
}
