import Foundation

/// The tolerance a golden assertion uses, and where each of its values came from: the call's
/// `tolerance:` argument, an environment variable, or the default.
package struct ResolvedTolerance {
    package var tolerance: Tolerance
    package var thresholdSource: String
    package var pixelsSource: String
    package var ratioSource: String

    /// Argument first, then `RASTERKIT_THRESHOLD`, `RASTERKIT_MAX_DIFFERENT_PIXELS`,
    /// `RASTERKIT_MAX_DIFFERENT_RATIO`, then the defaults.
    package init(argument: Tolerance?, environment: [String: String] = ProcessInfo.processInfo.environment,
                 argumentSource: String = "tolerance: argument") {
        if let argument {
            tolerance = argument
            thresholdSource = argumentSource
            pixelsSource = thresholdSource
            ratioSource = thresholdSource
            return
        }
        tolerance = Tolerance()
        thresholdSource = "default"
        pixelsSource = "default"
        ratioSource = "default"
        if let text = environment["RASTERKIT_THRESHOLD"], let value = Double(text), value.isFinite, (0...1).contains(value) {
            tolerance.threshold = value
            thresholdSource = "RASTERKIT_THRESHOLD"
        }
        if let text = environment["RASTERKIT_MAX_DIFFERENT_PIXELS"], let value = Int(text), value >= 0 {
            tolerance.maxDifferentPixels = value
            pixelsSource = "RASTERKIT_MAX_DIFFERENT_PIXELS"
        }
        if let text = environment["RASTERKIT_MAX_DIFFERENT_RATIO"], let value = Double(text), value.isFinite, (0...1).contains(value) {
            tolerance.maxDifferentRatio = value
            ratioSource = "RASTERKIT_MAX_DIFFERENT_RATIO"
        }
    }

    package var summary: String {
        let pixels = tolerance.maxDifferentPixels.map { "at most \($0) pixels" } ?? "no pixel limit"
        let ratio = tolerance.maxDifferentRatio.map { "a ratio of at most \($0)" } ?? "no ratio limit"
        let limits = tolerance.maxDifferentPixels == nil && tolerance.maxDifferentRatio == nil
            ? "no different pixel (\(pixelsSource))"
            : "\(pixels) (\(pixelsSource)) and \(ratio) (\(ratioSource))"
        return "threshold \(tolerance.threshold) (\(thresholdSource)), \(limits)"
            + (tolerance.includeAA ? ", anti-aliased pixels included"
                : ", anti-aliasing excused by \(tolerance.antiAliasing == .color ? "colour and brightness" : "brightness alone")")
    }
}
