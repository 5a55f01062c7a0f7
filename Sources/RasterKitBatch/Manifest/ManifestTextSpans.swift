import RasterKit
internal import Yams

/// Reads a text layer's `spans:`, a list of runs of one text with their own look:
/// `- {text: "$20", weight: bold, color: "#D00"}`. Spans are data, never markup: a variable's
/// value is always text, whatever characters it holds.
struct TextSpanParser {
    let reader: ManifestReader

    static let keys = ["text", "font", "weight", "color", "underline", "strikethrough"]

    /// Named weights, as CSS and OpenType name them.
    static let weights: [String: FontWeight] = [
        "thin": .thin, "light": .light, "regular": .regular, "normal": .regular, "medium": .medium,
        "semibold": .semibold, "bold": .bold, "heavy": .heavy, "black": .heavy,
    ]

    /// The spans, or nil after reporting why they cannot be read.
    func spans(_ node: Node, _ what: String) -> [TextSpan]? {
        guard reader.usable(node, what) else { return nil }
        guard let list = node.sequence, !list.isEmpty else {
            reader.problem("\(what) must be a list of spans ({text, font, weight, color, underline, strikethrough}), "
                           + "not \(node.sequence == nil ? node.kindDescription : "an empty list")", at: node)
            return nil
        }
        let spans = list.map { span($0, "a span in \(what)") }
        return spans.contains(where: { $0 == nil }) ? nil : spans.compactMap { $0 }
    }

    private func span(_ node: Node, _ what: String) -> TextSpan? {
        guard reader.usable(node, what) else { return nil }
        guard node.mapping != nil else {
            reader.problem("\(what) must be a mapping with \"text\", not \(node.kindDescription)", at: node)
            return nil
        }
        guard let fields = Fields(node, owner: what, allowed: Self.keys, reader: reader) else { return nil }
        let font = fields.read("font") { reader.string($0, $1) }
        let weight = fields.read("weight") { fontWeight($0, $1) }
        let color = fields.read("color") { reader.color($0, $1) }
        let underline = fields.read("underline") { reader.bool($0, $1) } ?? false
        let strikethrough = fields.read("strikethrough") { reader.bool($0, $1) } ?? false
        guard let textNode = fields.require("text"), let text = reader.string(textNode, fields.what("text")) else { return nil }
        return TextSpan(text, font: font, weight: weight, color: color, underline: underline, strikethrough: strikethrough)
    }

    /// A weight by name (`bold`) or number (100…1000).
    private func fontWeight(_ node: Node, _ what: String) -> FontWeight? {
        guard let text = reader.string(node, what) else { return nil }
        if let named = Self.weights[text.lowercased()] { return named }
        if let number = Int(text), let weight = FontWeight(rawValue: number) { return weight }
        let names = Self.weights.keys.sorted()
        reader.problem("unknown weight \"\(text)\" for \(what); expected a number from \(FontWeight.range.lowerBound) to "
                       + "\(FontWeight.range.upperBound) or one of \(names.joined(separator: ", "))"
                       + Suggestion.hint(for: text, in: names), at: node)
        return nil
    }
}
