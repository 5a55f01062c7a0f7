extension ImageDiff {
    /// How ``ImageDiff/compare(_:_:options:makeDiffImage:)`` judges pixels and draws the diff image.
    ///
    /// The defaults are pixelmatch's: `threshold` 0.1, anti-aliasing detected and excused, the
    /// expected image faded to 10 % grey behind yellow anti-aliased and red different pixels.
    ///
    /// ```swift
    /// let strict = ImageDiff.Options(threshold: 0, includeAA: true)
    /// ```
    public struct Options: Hashable, Sendable {
        /// Per-pixel colour tolerance, 0...1: the largest YIQ distance still called "the same",
        /// as a fraction of the largest possible distance. Smaller is stricter.
        public var threshold: Double
        /// Counts anti-aliased pixels as differences instead of detecting and excusing them.
        public var includeAA: Bool
        /// Which pixels are excused as anti-aliasing: pixelmatch's test by brightness (the
        /// default, for pixelmatch's counts) or that and a colour blended from the neighbours'.
        public var antiAliasing: AntiAliasingRule
        /// Opacity, 0...1, of the expected image drawn in grey behind the differences.
        public var alpha: Double
        /// Colour of pixels excused as anti-aliasing in the diff image.
        public var aaColor: RGBA8
        /// Colour of different pixels in the diff image.
        public var diffColor: RGBA8
        /// Colour of different pixels that are darker in the actual image; nil uses `diffColor`.
        public var diffColorAlt: RGBA8?
        /// Draws only the differences, on a transparent background.
        public var diffMask: Bool
        /// Blends semi-transparent pixels over pixelmatch v7's per-pixel pseudo-checkerboard
        /// (true, pixelmatch's behaviour) or over white (false).
        public var checkerboard: Bool

        /// Options with pixelmatch's defaults for everything not given.
        ///
        /// pixelmatch always draws opaque marker pixels; the marker colours' alpha is written as
        /// given, so keep it at 255 (the default) for pixelmatch-identical diff images.
        public init(threshold: Double = 0.1, includeAA: Bool = false, antiAliasing: AntiAliasingRule = .brightness,
                    alpha: Double = 0.1,
                    aaColor: RGBA8 = RGBA8(red: 255, green: 255, blue: 0, alpha: 255),
                    diffColor: RGBA8 = RGBA8(red: 255, green: 0, blue: 0, alpha: 255),
                    diffColorAlt: RGBA8? = nil, diffMask: Bool = false, checkerboard: Bool = true) {
            self.threshold = threshold
            self.includeAA = includeAA
            self.antiAliasing = antiAliasing
            self.alpha = alpha
            self.aaColor = aaColor
            self.diffColor = diffColor
            self.diffColorAlt = diffColorAlt
            self.diffMask = diffMask
            self.checkerboard = checkerboard
        }

        /// Throws ``ImageDiffError`` unless `threshold` and `alpha` are within 0...1.
        public func validate() throws(ImageDiffError) {
            // A NaN threshold would make every comparison false and silently pass everything.
            guard threshold.isFinite, (0...1).contains(threshold) else { throw .invalidThreshold(threshold) }
            guard alpha.isFinite, (0...1).contains(alpha) else { throw .invalidAlpha(alpha) }
        }
    }
}
