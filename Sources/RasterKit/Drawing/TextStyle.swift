/// How text is set: font, colour, alignment, wrapping and line limits.
///
/// ```swift
/// let title = TextStyle(font: "DejaVu Sans Bold 15", color: .white, alignment: .center)
/// ```
public struct TextStyle: Hashable, Sendable {
    /// How lines sit between the left and right edges of the text's rectangle.
    public enum Alignment: String, Hashable, Sendable, Codable, CaseIterable { case left, center, right, justified }
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
        /// Never: one line per paragraph.
        case none
    }

    /// A Pango font description: family, style options and size in points, such as
    /// `"DejaVu Sans Bold 15"` or `"Sans Italic 12"`.
    public var font: String
    /// The text's colour.
    public var color: Color
    /// How lines are aligned horizontally.
    public var alignment: Alignment
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

    /// A text style; the default is black `DejaVu Sans 13`, left and top aligned, wrapped between
    /// words, with no line limit.
    public init(font: String = "DejaVu Sans 13", color: Color = .black, alignment: Alignment = .left,
                verticalAlignment: VerticalAlignment = .top, wrapping: Wrapping = .word,
                lineSpacing: Double = 0, lineHeightMultiple: Double = 1, maxLines: Int? = nil) {
        self.font = font
        self.color = color
        self.alignment = alignment
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
}
