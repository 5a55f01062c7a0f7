/// The bounds every text a canvas lays out is held to, checked before Pango sees it: a metric
/// outside them would overflow Pango's fixed-point units (a line spacing of 2.2e6 points
/// trapped the process) or make its work grow without end (one character of 40,000 combining
/// marks took seconds, since Pango never breaks inside a character).
package enum TextLimits {
    /// The most points a line spacing may add or remove, and the largest font size: the longest
    /// side a surface may have, in points at scale 1.
    static func maximumPoints(_ limits: ResourceLimits) -> Double { Double(limits.pixels.maximumSide) }

    /// The largest line-height multiple.
    package static let maximumLineHeightMultiple = 100.0

    /// The most Unicode scalars one character (grapheme cluster) may hold: a letter with its
    /// combining marks, an emoji sequence. Unicode's "stream-safe" text format allows 30
    /// combining marks in a row (UAX #15); the longest emoji sequences hold about a dozen.
    static let maximumScalarsPerCharacter = 32

    /// The smallest factor text may shrink by is above 0 and at most 1 (``TextStyle/Fit``).
    static func minimumScale(_ requested: Double) -> Double { requested.isFinite ? min(max(requested, 1e-3), 1) : 1 }

    /// Throws ``RenderError/limitExceeded(what:value:limit:)`` for a style or spans of text
    /// outside the bounds, at `scale` pixels per point under `limits`.
    static func check(_ spans: [TextSpan], style: TextStyle, scale: Double, limits: ResourceLimits) throws {
        let points = maximumPoints(limits)
        if case .shrink(let minimum) = style.fit, !(minimum.isFinite && minimum > 0 && minimum <= 1) {
            throw RenderError.limitExceeded(what: "minimum text scale", value: "\(minimum)", limit: "above 0 and at most 1")
        }
        for span in spans {
            if let font = span.font, let size = fontSize(in: font), !(size.isFinite && size * max(scale, 1) <= points) {
                throw RenderError.limitExceeded(what: "font size", value: "\(size)", limit: "\(Int(points)) pixels")
            }
        }
        // Joined, since spans may split one character's marks between them.
        try check(spans.count == 1 ? spans[0].text : spans.map(\.text).joined())
        guard style.lineSpacing.isFinite, abs(style.lineSpacing) * max(scale, 1) <= points else {
            throw RenderError.limitExceeded(what: "line spacing", value: "\(style.lineSpacing)", limit: "±\(Int(points)) pixels")
        }
        guard style.lineHeightMultiple.isFinite, style.lineHeightMultiple <= maximumLineHeightMultiple else {
            throw RenderError.limitExceeded(what: "line height", value: "\(style.lineHeightMultiple)",
                                            limit: "\(maximumLineHeightMultiple.compactDescription) lines")
        }
        if let size = fontSize(in: style.font), !(size.isFinite && size * max(scale, 1) <= points) {
            throw RenderError.limitExceeded(what: "font size", value: "\(size)", limit: "\(Int(points)) pixels")
        }
    }

    /// Throws when one character of `text` holds more scalars than Pango can lay out quickly.
    private static func check(_ text: String) throws {
        // Every ASCII character is one scalar (a CR LF pair, two), so only other text is walked
        // character by character, which is the costly part of checking a label.
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return }
        for character in text where character.unicodeScalars.count > maximumScalarsPerCharacter {
            throw RenderError.limitExceeded(what: "Unicode scalars in one character (a letter and its combining marks)",
                                            value: "\(character.unicodeScalars.count)", limit: "\(maximumScalarsPerCharacter)")
        }
    }

    /// The size a Pango font description states (`DejaVu Sans Bold 15`, `Sans 12px`), or nil.
    static func fontSize(in font: String) -> Double? {
        // Variations (`@wght=300`) come after the size; the size is the last word before them.
        let utf8 = font.utf8
        let isSeparator = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") }
        let beforeVariations = utf8.firstIndex(of: UInt8(ascii: "@")) ?? utf8.endIndex
        guard let last = utf8[..<beforeVariations].lastIndex(where: { !isSeparator($0) }) else { return nil }
        let start = utf8[..<last].lastIndex(where: isSeparator).map(utf8.index(after:)) ?? utf8.startIndex
        guard var word = String(utf8[start...last]) else { return nil }
        if word.hasSuffix("px") { word.removeLast(2) }
        return Double(word)
    }
}
