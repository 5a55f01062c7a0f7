import ArgumentParser
import Foundation
import RasterKitArguments
import RasterKitDiff

/// `rasterkit diff a.png b.png`: pixelmatch-compatible comparison of two PNGs.
///
/// Exits 0 when the images are within tolerance, 1 when they differ (or differ in size),
/// 2 for usage mistakes and input that cannot be read or decoded.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG images pixel by pixel (pixelmatch v7 algorithm).",
        discussion: """
            Exits 0 when the images are within tolerance, 1 when they differ (or differ in size), \
            2 for usage errors and unreadable input. With neither --max-different-pixels nor \
            --max-different-ratio, any different pixel makes the images different; a limit left \
            out while the other is given does not limit.
            """)

    @Argument(help: "The expected image (PNG).")
    var expected: String

    @Argument(help: "The actual image (PNG).")
    var actual: String

    @Option(help: "Per-pixel colour threshold from 0 to 1; smaller is stricter.")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
    var includeAA = false

    @Option(name: .customLong("anti-aliasing"),
            help: "Which pixels are excused as anti-aliasing: brightness (pixelmatch's test, the default) or color (also a blend of the neighbours' colours, as golden tests use).")
    var antiAliasing: ImageDiff.AntiAliasingRule = .brightness

    @Option(help: "Opacity from 0 to 1 of the faded expected image in the diff image.")
    var alpha: Double = 0.1

    @Option(name: .customLong("aa-color"), help: "Colour of anti-aliased pixels, hex (default FFFF00).",
            transform: HexColor.parse)
    var aaColor: RGBA8?

    @Option(name: .customLong("diff-color"), help: "Colour of different pixels, hex (default FF0000).",
            transform: HexColor.parse)
    var diffColor: RGBA8?

    @Option(name: .customLong("diff-color-alt"), help: "Colour of pixels that are darker in the actual image.",
            transform: HexColor.parse)
    var diffColorAlt: RGBA8?

    @Flag(name: .customLong("diff-mask"), help: "Draw only the differences, on a transparent background.")
    var diffMask = false

    @Flag(inversion: .prefixedNo,
          help: "Blend semi-transparent pixels over pixelmatch's checkerboard, or over white with --no-checkerboard.")
    var checkerboard = true

    @Option(name: .shortAndLong, help: "Write the diff image (PNG) here: in a folder that exists, and not over either input.")
    var output: String?

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    @Option(help: "The most pixels that may differ and still pass.")
    var maxDifferentPixels: Int?

    @Option(help: "The largest fraction of pixels, 0 to 1, that may differ and still pass.")
    var maxDifferentRatio: Double?

    var options: ImageDiff.Options {
        let defaults = ImageDiff.Options()
        return ImageDiff.Options(threshold: threshold, includeAA: includeAA, antiAliasing: antiAliasing, alpha: alpha,
                                 aaColor: aaColor ?? defaults.aaColor, diffColor: diffColor ?? defaults.diffColor,
                                 diffColorAlt: diffColorAlt, diffMask: diffMask, checkerboard: checkerboard)
    }

    /// Both limits hold; a limit left out is 0 when the other is left out too, else unlimited,
    /// so `--max-different-pixels 3` alone allows three pixels.
    var tolerance: Tolerance {
        return Tolerance(threshold: threshold, maxDifferentPixels: maxDifferentPixels, maxDifferentRatio: maxDifferentRatio,
                         includeAA: includeAA)
    }

    func validate() throws {
        try PathChecks.requireNonEmpty(expected, "the expected image")
        try PathChecks.requireNonEmpty(actual, "the actual image")
        if let output {
            try PathChecks.requireNonEmpty(output, "--output")
            // The diff image replaces whatever is at --output: never one of the images compared.
            for input in [expected, actual] where PathChecks.sameFile(output, input) {
                throw ValidationError("--output \(output) is the input image \(input); write the diff image elsewhere")
            }
            try PathChecks.requireExistingFolder(above: output, "--output")
            try PathChecks.requireReplaceable(output, "--output")
        }
        do { try options.validate() } catch { throw ValidationError(error.description) }
        if let maxDifferentPixels, maxDifferentPixels < 0 {
            throw ValidationError("--max-different-pixels must be 0 or more, not \(maxDifferentPixels)")
        }
        if let maxDifferentRatio, !(maxDifferentRatio.isFinite && (0...1).contains(maxDifferentRatio)) {
            throw ValidationError("--max-different-ratio must be a number from 0 to 1, not \(maxDifferentRatio)")
        }
    }

    func run() async throws {
        let first: DiffInput, second: DiffInput
        do throws(DiffInput.Failure) { (first, second) = (try DiffInput.read(expected), try DiffInput.read(actual)) } catch {
            throw report(error.message, status: ExitStatus.usage)
        }
        // Sizes come from the headers: images that differ in size are not decoded at all.
        guard first.size == second.size else {
            let error = ImageDiffError.sizeMismatch(expected: first.size, actual: second.size)
            throw report(error.description, json: DiffReport.Failure(error: error), status: ExitStatus.partialFailure)
        }
        // Decoding dominates a comparison's time, so the two images are decoded at once.
        async let decodedFirst = first.decode()
        async let decodedSecond = second.decode()
        let (loadedFirst, loadedSecond) = await (decodedFirst, decodedSecond)
        let expectedBitmap: RGBABitmap, actualBitmap: RGBABitmap
        do throws(DiffInput.Failure) { (expectedBitmap, actualBitmap) = (try loadedFirst.get(), try loadedSecond.get()) } catch {
            throw report(error.message, status: ExitStatus.usage)
        }
        let result: ImageDiff.Result
        do {
            result = try ImageDiff.compare(expectedBitmap, actualBitmap, options: options, makeDiffImage: output != nil)
        } catch {
            // Options were validated, so only a size mismatch gets here: the images differ.
            throw report(error.description, json: DiffReport.Failure(error: error), status: ExitStatus.partialFailure)
        }
        if let output, let image = result.diffImage {
            do { try AtomicFileWriter.write(image.pngData(), to: output) } catch {
                throw report("cannot write the diff image to '\(output)': \(error)", status: ExitStatus.usage)
            }
        }
        let outcome = DiffReport(result: result, withinTolerance: tolerance.accepts(result), output: output)
        print(json ? JSONLine.encode(outcome) : outcome.summary)
        if !outcome.withinTolerance { throw ExitStatus.partialFailure }
    }

    /// Prints `message` to stderr (and a JSON error object to stdout with `--json`) and returns
    /// `status` for the caller to throw.
    private func report(_ message: String, json failure: DiffReport.Failure? = nil, status: ExitCode) -> ExitCode {
        FileHandle.standardError.write(Data("rasterkit diff: \(message)\n".utf8))
        if json { print(JSONLine.encode(failure ?? DiffReport.Failure(error: message))) }
        return status
    }
}

/// Parses colour options as manifests and the server read colours (``Color/init(parsing:)``):
/// `1C71D8`, `#1C71D8`, the other hex forms, or a CSS colour name.
enum HexColor {
    static func color(_ text: String, option: String) throws -> Color {
        do { return try Color(parsing: text) } catch {
            throw ValidationError("\(option) '\(text)': \(error.reason) (a colour is hex digits such as 1C71D8 or #1C71D8, "
                                  + "or a CSS colour name such as white)")
        }
    }

    /// For the `--…-color` options of `diff`, which colour diff images in 8-bit pixels.
    @Sendable static func parse(_ text: String) throws -> RGBA8 { RGBA8(try color(text, option: "colour")) }
}

/// What `rasterkit diff` reports: the JSON object printed with `--json`, or a one-line summary.
struct DiffReport: Encodable {
    var differentPixels: Int
    var antiAliasedPixels: Int
    var totalPixels: Int
    var ratio: Double
    var identical: Bool
    var withinTolerance: Bool
    var width: Int
    var height: Int
    var output: String?
    var differenceBounds: ImageDiff.PixelRect?
    var largestDifference: String?

    init(result: ImageDiff.Result, withinTolerance: Bool, output: String?) {
        differentPixels = result.differentPixels
        antiAliasedPixels = result.antiAliasedPixels
        totalPixels = result.totalPixels
        ratio = result.ratio
        identical = result.isIdentical
        self.withinTolerance = withinTolerance
        width = result.size.width
        height = result.size.height
        self.output = output
        differenceBounds = result.differenceBounds
        largestDifference = result.largestDifference?.description
    }

    enum CodingKeys: String, CodingKey {
        case differentPixels, antiAliasedPixels, totalPixels, ratio, identical, withinTolerance, width, height, output
        case differenceBounds, largestDifference
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(differentPixels, forKey: .differentPixels)
        try container.encode(antiAliasedPixels, forKey: .antiAliasedPixels)
        try container.encode(totalPixels, forKey: .totalPixels)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(identical, forKey: .identical)
        try container.encode(withinTolerance, forKey: .withinTolerance)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        // Spelled out so a missing output is `null`, not an absent key.
        try container.encode(output, forKey: .output)
        try container.encodeIfPresent(differenceBounds, forKey: .differenceBounds)
        try container.encodeIfPresent(largestDifference, forKey: .largestDifference)
    }

    var summary: String {
        let size = "\(width)×\(height)"
        var lines: [String]
        if identical {
            lines = ["identical: \(size), \(totalPixels) pixels"]
        } else {
            let percent = String(format: "%.4g%%", ratio * 100)
            let verdict = withinTolerance ? "within tolerance" : "different"
            lines = ["\(verdict): \(differentPixels) of \(totalPixels) pixels differ (\(percent)) in \(size)"]
            if let differenceBounds { lines.append("different pixels in \(differenceBounds)") }
            if let largestDifference { lines.append("largest change at \(largestDifference)") }
            if antiAliasedPixels > 0 { lines.append("\(antiAliasedPixels) anti-aliased pixels ignored") }
        }
        if let output { lines.append("diff image: \(output)") }
        return lines.joined(separator: "\n")
    }

    /// The JSON printed when no comparison could be made.
    struct Failure: Encodable {
        var error: String
        var expected: ImageDiff.PixelSize?
        var actual: ImageDiff.PixelSize?
        var identical = false
        var withinTolerance = false

        init(error message: String) { error = message }

        init(error: ImageDiffError) {
            self.error = error.description
            if case let .sizeMismatch(expected, actual) = error {
                self.expected = expected
                self.actual = actual
            }
        }
    }

}

/// `--anti-aliasing` values: `brightness` and `color` (`colour` is read as `color`).
extension ImageDiff.AntiAliasingRule: ExpressibleByArgument {
    /// The rule `argument` names; nil for anything else.
    public init?(argument: String) { self.init(rawValue: argument == "colour" ? "color" : argument) }
}
