/// How text is set: font, colour, alignment, direction, wrapping, line limits and fitting.
///
/// ```swift
/// let title = TextStyle(font: "DejaVu Sans Bold 15", color: .white, alignment: .center)
/// ```
public struct TextStyle: Hashable, Sendable {
    /// How lines sit between the left and right edges of the text's rectangle.
    public enum Alignment: String, Hashable, Sendable, Codable, CaseIterable {
        /// At the edge the text starts from: left for left-to-right text, right for right-to-left.
        case natural
        case left, center, right, justified
    }
    /// Which way lines run. Bidirectional text (Hebrew with a Latin name in it) is ordered by
    /// the Unicode bidirectional algorithm within this base direction.
    public enum Direction: String, Hashable, Sendable, Codable, CaseIterable {
        /// The direction of the text's first strongly directional character (Latin letters are
        /// left-to-right, Arabic and Hebrew right-to-left); left-to-right when it has none.
        case auto
        /// Left to right.
        case ltr
        /// Right to left.
        case rtl
    }
    /// What happens to text too large for its rectangle.
    public enum Fit: Hashable, Sendable {
        /// Nothing: text wraps, is cut at `maxLines` with an ellipsis, and is clipped to the rectangle.
        case none
        /// The text is scaled down, to no less than `minimumScale` of its size (0 < minimumScale
        /// ≤ 1), until it fits the rectangle without being cut; text that does not fit at that
        /// scale is then cut and clipped as with `none`.
        case shrink(minimumScale: Double)
    }
    /// Where the block of lines sits between the top and bottom of the text's rectangle.
    public enum VerticalAlignment: String, Hashable, Sendable, Codable, CaseIterable { case top, center, bottom }
    /// Where lines may break when text is wider than its rectangle.
    public enum Wrapping: String, Hashable, Sendable, Codable, CaseIterable {
        /// Between words.
        case word
        /// Between any two characters.
        case character
        /// Between words, or between characters for a word wider than a line.
        case wordOrCharacter
        /// Never: one line per paragraph, ending in an ellipsis where it is cut.
        case none
    }

    /// A Pango font description: family, style options and size in points, such as
    /// `"DejaVu Sans Bold 15"` or `"Sans Italic 12"`.
    public var font: String
    /// The text's colour.
    public var color: Color
    /// How lines are aligned horizontally.
    public var alignment: Alignment
    /// Which way lines run.
    public var direction: Direction
    /// Whether text too large for its rectangle is scaled down first.
    public var fit: Fit
    /// How the text is placed vertically.
    public var verticalAlignment: VerticalAlignment
    /// Where lines may break.
    public var wrapping: Wrapping
    /// Extra space between lines, in points.
    public var lineSpacing: Double
    /// A factor on the font's natural line height; 1 keeps it.
    public var lineHeightMultiple: Double
    /// Lines shown per paragraph; the last shown line ends in an ellipsis when text is cut.
    public var maxLines: Int?

    /// A text style; the default is black `DejaVu Sans 13`, aligned at its start and top, in the
    /// text's own direction, wrapped between words, with no line limit and no shrinking.
    public init(font: String = "DejaVu Sans 13", color: Color = .black, alignment: Alignment = .natural,
                verticalAlignment: VerticalAlignment = .top, wrapping: Wrapping = .word,
                lineSpacing: Double = 0, lineHeightMultiple: Double = 1, maxLines: Int? = nil,
                direction: Direction = .auto, fit: Fit = .none) {
        self.font = font
        self.color = color
        self.alignment = alignment
        self.direction = direction
        self.fit = fit
        self.verticalAlignment = verticalAlignment
        self.wrapping = wrapping
        self.lineSpacing = lineSpacing
        self.lineHeightMultiple = lineHeightMultiple
        self.maxLines = maxLines
    }
}

/// The measured extent of a piece of laid-out text.
public struct TextMetrics: Hashable, Sendable {
    /// Width and height of the laid-out lines, in points.
    public var size: Size
    /// How many lines the text occupies.
    public var lineCount: Int
    /// Whether text was cut short and ends in an ellipsis.
    public var isTruncated: Bool
    /// Distance from the top of the first line to its baseline, in points.
    public var firstBaseline: Double
    /// The factor the text was scaled by to fit (``TextStyle/Fit/shrink(minimumScale:)``); 1
    /// when it was not. `size` and `firstBaseline` are already scaled.
    public var scale: Double = 1
}
