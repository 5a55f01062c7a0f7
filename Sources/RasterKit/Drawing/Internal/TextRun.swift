/// A text to lay out: its spans and style, hashed once. A text in a layout is looked up in its
/// canvas's layouts each time a stack measures it and once more when it is drawn, and hashing
/// its strings and style each time was most of what laying out added to drawing. Immutable, and
/// a reference: a layout walk, a measurement's key and a layout's request each hold the run, and
/// a copy is then one retain rather than one per string of its spans and style.
final class TextRun: Hashable, Sendable {
    let spans: [TextSpan]
    let style: TextStyle
    private let hash: Int

    init(_ spans: [TextSpan], style: TextStyle) {
        self.spans = spans
        self.style = style
        var hasher = Hasher()
        hasher.combine(spans)
        hasher.combine(style)
        hash = hasher.finalize()
    }

    /// Whether it takes the same size at any height it is offered: text that may not shrink
    /// wraps at its width and is clipped, so only text that may is measured against a height.
    var sizeIgnoresHeight: Bool { style.fit == .none }

    /// The spans' text as one string.
    var text: String { spans.count == 1 ? spans[0].text : spans.map(\.text).joined() }

    static func == (lhs: TextRun, rhs: TextRun) -> Bool {
        lhs === rhs || (lhs.hash == rhs.hash && lhs.spans == rhs.spans && lhs.style == rhs.style)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension TextRun {
    /// The bytes of its texts and fonts: what keeping it costs.
    var byteCount: Int {
        spans.reduce(style.font.utf8.count) { $0 + $1.text.utf8.count + ($1.font?.utf8.count ?? 0) }
    }
}
