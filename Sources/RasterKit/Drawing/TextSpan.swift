/// A run of one text with a look of its own: a word in bold, a price struck through, a link
/// underlined in another colour. A span changes only what it sets; everything else comes from
/// the ``TextStyle`` the whole text is drawn with, and line breaking runs across spans.
///
/// ```swift
/// canvas.draw([TextSpan("Save "), TextSpan("$20", weight: .bold, color: .red),
///              TextSpan(" $25", strikethrough: true)],
///             in: bounds, style: TextStyle(font: "DejaVu Sans 13", alignment: .center))
/// ```
public struct TextSpan: Hashable, Sendable {
    /// The span's characters.
    public var text: String
    /// A Pango font description whose fields replace the style's for this span: `"Serif"`,
    /// `"Italic"`, `"Bold 15"`. Fields it leaves out keep the style's.
    public var font: String?
    /// The weight of the span's glyphs.
    public var weight: FontWeight?
    /// The span's colour; the style's when nil.
    public var color: Color?
    /// Whether a line is drawn under the span.
    public var underline: Bool
    /// Whether a line is drawn through the span.
    public var strikethrough: Bool

    /// `text`, looking as the style says except where a parameter is given.
    public init(_ text: String, font: String? = nil, weight: FontWeight? = nil, color: Color? = nil,
                underline: Bool = false, strikethrough: Bool = false) {
        self.text = text
        self.font = font
        self.weight = weight
        self.color = color
        self.underline = underline
        self.strikethrough = strikethrough
    }

    /// Whether the span looks exactly as the style says.
    var isPlain: Bool { font == nil && weight == nil && color == nil && !underline && !strikethrough }
}

/// How heavy glyphs are, on OpenType's scale from 100 (thin) to 1000 (ultra heavy); fonts
/// without that exact weight use their nearest.
public struct FontWeight: RawRepresentable, Hashable, Sendable, Comparable {
    /// The weight, 100…1000.
    public let rawValue: Int

    /// A weight from 100 to 1000; nil outside that range.
    public init?(rawValue: Int) {
        guard FontWeight.range.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ value: Int) { rawValue = value }

    /// The weights a font can have.
    public static let range = 100...1000
    /// 100.
    public static let thin = FontWeight(100)
    /// 300.
    public static let light = FontWeight(300)
    /// 400.
    public static let regular = FontWeight(400)
    /// 500.
    public static let medium = FontWeight(500)
    /// 600.
    public static let semibold = FontWeight(600)
    /// 700.
    public static let bold = FontWeight(700)
    /// 900.
    public static let heavy = FontWeight(900)

    /// Lighter weights first.
    public static func < (lhs: FontWeight, rhs: FontWeight) -> Bool { lhs.rawValue < rhs.rawValue }
}
