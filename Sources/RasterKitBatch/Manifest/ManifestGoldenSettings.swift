import RasterKit
internal import Yams

extension Manifest {
    /// How `rasterkit goldens check` judges a component's goldens: `golden:` in the manifest,
    /// the tolerance `assertGolden` takes and the rectangles its `ignoring:` masks.
    ///
    /// ```yaml
    /// clock:
    ///   sizes: ["120x32"]
    ///   golden: {threshold: 0.05, maxDifferentPixels: 4, ignore: [[80, 8, 36, 16]]}
    /// ```
    public struct GoldenSettings: Hashable, Sendable {
        /// Per-pixel colour threshold, 0...1; nil: the default (0.1).
        public var threshold: Double?
        /// The most pixels that may differ; nil: no limit on the count (none may differ when
        /// neither limit is given).
        public var maxDifferentPixels: Int?
        /// The largest fraction of pixels, 0...1, that may differ; nil: no limit on it.
        public var maxDifferentRatio: Double?
        /// Counts anti-aliased pixels as differences.
        public var includeAA = false
        /// Rectangles in points, from the image's top left, left out of the comparison.
        public var ignore: [Rect] = []

        /// Settings with every value at its default.
        public init() {}
    }
}

extension ManifestParser {
    static let goldenKeys = ["threshold", "maxDifferentPixels", "maxDifferentRatio", "includeAA", "ignore"]

    /// `golden: {threshold:, maxDifferentPixels:, maxDifferentRatio:, includeAA:, ignore: [[x, y, w, h], …]}`.
    func goldenSettings(_ node: Node, _ what: String) -> Manifest.GoldenSettings? {
        guard let fields = Fields(node, owner: what, allowed: Self.goldenKeys, reader: reader) else { return nil }
        var settings = Manifest.GoldenSettings()
        settings.threshold = fields.read("threshold") { reader.number($0, $1, minimum: 0, maximum: 1) }
        settings.maxDifferentPixels = fields.read("maxDifferentPixels") { reader.integer($0, $1, minimum: 0) }
        settings.maxDifferentRatio = fields.read("maxDifferentRatio") { reader.number($0, $1, minimum: 0, maximum: 1) }
        settings.includeAA = fields.read("includeAA") { reader.bool($0, $1) } ?? false
        if let list = fields["ignore"] {
            let what = fields.what("ignore")
            if let items = list.sequence, items.count <= 64 {
                settings.ignore = items.compactMap { item in
                    guard let rect = reader.rect(item, "a rectangle in \(what)") else { return nil }
                    guard rect.width > 0, rect.height > 0 else {
                        reader.problem("a rectangle in \(what) must have a width and height greater than 0", at: item)
                        return nil
                    }
                    return rect
                }
            } else {
                reader.problem("\(what) must be a list of at most 64 rectangles [x, y, width, height], not \(list.kindDescription)",
                               at: list)
            }
        }
        return settings
    }
}
