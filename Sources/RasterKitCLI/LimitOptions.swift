import ArgumentParser
import Foundation
import RasterKit
import RasterKitBatch

/// `--max-memory`, `--time-limit`, `--max-side`, `--max-pixels`, `--max-file-size`: the parts of
/// ``ResourceLimits`` a command that renders lets its user set, shared by `render` and `svg`.
///
/// Precedence: RasterKit's defaults, lowered by a manifest's own `limits:`, and then each flag
/// given replaces its limit outright — the person running the command has the last word. Pixel
/// and file-size flags can only lower the defaults (larger surfaces and files than those are
/// not something a batch should be talked into); memory and time can be set either way.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-memory"),
            help: ArgumentHelp("Pixel memory all renders may hold at once, in MiB (default: half of the memory "
                               + "available). A render that cannot fit fails alone.", valueName: "MB"))
    var maxMemory: Int?

    @Option(name: .customLong("time-limit"),
            help: ArgumentHelp("Seconds one output may draw before it fails alone (default: no limit).",
                               valueName: "seconds"))
    var timeLimit: Double?

    @Option(name: .customLong("max-side"),
            help: ArgumentHelp("The longest side of any surface, in pixels (at most and by default "
                               + "\(ResourceLimits.default.pixels.maximumSide)); a larger output fails alone.",
                               valueName: "pixels"))
    var maxSide: Int?

    @Option(name: .customLong("max-pixels"),
            help: ArgumentHelp("The most pixels of any surface, width × height (at most and by default "
                               + "\(ResourceLimits.default.pixels.maximumPixelCount)); a larger output fails alone.",
                               valueName: "pixels"))
    var maxPixels: Int?

    @Option(name: .customLong("max-file-size"),
            help: ArgumentHelp("The largest file read (SVGs, manifests and the files they name), in MiB (at most "
                               + "and by default \(ResourceLimits.default.maximumInputBytes >> 20)).", valueName: "MB"))
    var maxFileSize: Int?

    /// 1 TiB: more than any machine this runs on, so a larger figure is a typo.
    static let largestMemoryMegabytes = 1 << 20
    /// A day: a longer per-output limit is no limit, and `--time-limit` unset says that plainly.
    static let longestTimeLimit = 86_400.0

    func validate() throws {
        let defaults = ResourceLimits.default
        try Self.check(maxMemory, "--max-memory", 1...Self.largestMemoryMegabytes)
        if let timeLimit, !(timeLimit.isFinite && timeLimit > 0 && timeLimit <= Self.longestTimeLimit) {
            throw ValidationError("--time-limit must be a number of seconds greater than 0 and at most "
                                  + "\(Int(Self.longestTimeLimit)), not \(timeLimit)")
        }
        try Self.check(maxSide, "--max-side", 1...defaults.pixels.maximumSide)
        try Self.check(maxPixels, "--max-pixels", 1...defaults.pixels.maximumPixelCount)
        try Self.check(maxFileSize, "--max-file-size", 1...(defaults.maximumInputBytes >> 20))
    }

    private static func check(_ value: Int?, _ option: String, _ range: ClosedRange<Int>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
    }

    /// `base` with each flag given in place of its limit.
    func applied(to base: ResourceLimits) -> ResourceLimits {
        var limits = base
        if let maxMemory { limits.memoryBudget = maxMemory << 20 }
        if let timeLimit { limits.timeLimit = timeLimit }
        if let maxSide { limits.pixels.maximumSide = maxSide }
        if let maxPixels { limits.pixels.maximumPixelCount = maxPixels }
        if let maxFileSize { limits.maximumInputBytes = maxFileSize << 20 }
        return limits
    }

    /// What a manifest is loaded under: the defaults with `--max-file-size`, which bounds the
    /// files it names as they are read. Pixel limits stay the defaults here, so an output over a
    /// lowered `--max-side` fails alone when it renders instead of failing the whole manifest.
    var manifestLoadingLimits: ResourceLimits {
        var limits = ResourceLimits.default
        if let maxFileSize { limits.maximumInputBytes = maxFileSize << 20 }
        return limits
    }
}
