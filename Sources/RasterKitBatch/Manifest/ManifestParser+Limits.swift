import RasterKit
internal import Yams

extension ManifestParser {
    static let limitKeys = ["timeLimit", "memoryBudget", "maxSide", "maxPixels", "maxFileSize", "maxShadowBlur",
                            "maxSVGText", "maxTextLength"]

    /// `limits:` — what this manifest's renders may cost, each at most what the caller allows
    /// (a manifest can tighten the limits it runs under, never loosen them):
    ///
    /// ```yaml
    /// limits: {timeLimit: 5, memoryBudget: 512MB, maxSide: 4096, maxShadowBlur: 50}
    /// ```
    func limits(_ node: Node, under base: ResourceLimits) -> ResourceLimits {
        guard let fields = Fields(node, owner: "limits", allowed: Self.limitKeys, reader: reader) else { return base }
        var limits = base
        func lowered(_ key: String, _ current: Double?, read: (Node, String) -> Double?) -> Double? {
            guard let value = fields.read(key, read) else { return current }
            if let current, value > current {
                reader.problem("\(fields.what(key)) \(value.compactDescription) is above the limit this run allows "
                               + "(\(current.compactDescription)); a manifest can only lower its limits", at: fields[key])
                return current
            }
            return value
        }
        func number(_ node: Node, _ what: String) -> Double? { reader.number(node, what, above: 0) }
        limits.timeLimit = lowered("timeLimit", base.timeLimit, read: number)
        // Values were checked to be at most the base's, except a budget where the base has none.
        func whole(_ value: Double?) -> Int { value.map { Int(min($0.rounded(.down), 1e15)) } ?? 0 }
        limits.memoryBudget = lowered("memoryBudget", base.memoryBudget.map(Double.init), read: byteCount).map { whole($0) }
        limits.maximumInputBytes = whole(lowered("maxFileSize", Double(base.maximumInputBytes), read: byteCount))
        limits.pixels.maximumSide = whole(lowered("maxSide", Double(base.pixels.maximumSide), read: number))
        limits.pixels.maximumPixelCount = whole(lowered("maxPixels", Double(base.pixels.maximumPixelCount), read: number))
        limits.maximumShadowBlur = lowered("maxShadowBlur", base.maximumShadowBlur, read: number) ?? 0
        limits.maximumSVGTextCharacters = whole(lowered("maxSVGText", Double(base.maximumSVGTextCharacters), read: number))
        limits.maximumInterpolatedLength = whole(lowered("maxTextLength", Double(base.maximumInterpolatedLength), read: number))
        return limits
    }

    /// A byte count: a number, or a number with `KB`, `MB` or `GB` (powers of 1024).
    private func byteCount(_ node: Node, _ what: String) -> Double? {
        guard reader.usable(node, what), let text = node.scalar?.string else { return nil }
        let units: [(String, Double)] = [("GB", 1_073_741_824), ("MB", 1_048_576), ("KB", 1_024),
                                         ("G", 1_073_741_824), ("M", 1_048_576), ("K", 1_024)]
        for (suffix, factor) in units where text.uppercased().hasSuffix(suffix) {
            guard let value = ManifestReader.decimal(String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)),
                  value > 0 else { break }
            return value * factor
        }
        return reader.number(node, what, above: 0)
    }
}
