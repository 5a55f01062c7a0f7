import RasterKit
import Foundation
internal import Yams

/// Reads typed values out of a manifest's YAML nodes. Every reader returns nil for a value it
/// cannot use and records why, with the node's position, so one pass finds every problem.
struct ManifestReader {
    let problems: ManifestProblems
    let files: ManifestFiles
    /// What the manifest's values may ask for: the caller's limits, lowered by the manifest's
    /// own `limits:`.
    var limits: ResourceLimits = .default
    /// Folders of fonts the caller adds to the manifest's own (`--font-dir`).
    var fontDirectories: [URL] = []
    /// The digest of the fonts the manifest adds to RasterKit's defaults, for the keys of the
    /// layers that draw text; nil when it adds none.
    var fontsDigest: StableDigest?
    /// What variables have expanded to so far, across the whole manifest.
    let expansion = ExpansionTally()

    func problem(_ message: String, at node: Node?) {
        problems.add(message, at: node?.location)
    }

    /// Whether `node` can be read at all: a variable that could not be resolved was reported
    /// where it was used, so it is skipped quietly here.
    func usable(_ node: Node, _ what: String, hint: String = "") -> Bool {
        if node.isUnresolvedVariable { return false }
        if node.isNull {
            problem("\(what) has no value\(hint)", at: node)
            return false
        }
        return true
    }

    // MARK: Scalars

    func number(_ node: Node, _ what: String, minimum: Double? = nil, above: Double? = nil,
                maximum: Double? = nil) -> Double? {
        guard usable(node, what) else { return nil }
        guard let text = node.scalar?.string, let value = Self.decimal(text) else {
            problem("\(what) must be a number, not \(node.kindDescription)", at: node)
            return nil
        }
        if let minimum, value < minimum {
            problem("\(what) must be at least \(minimum.compactDescription), not \(value.compactDescription)", at: node)
            return nil
        }
        if let above, value <= above {
            problem("\(what) must be greater than \(above.compactDescription), not \(value.compactDescription)", at: node)
            return nil
        }
        if let maximum, value > maximum {
            problem("\(what) must be at most \(maximum.compactDescription), not \(value.compactDescription)", at: node)
            return nil
        }
        return value
    }

    /// A finite decimal number (`12`, `-0.5`, `1e3`, `1_000`); not hexadecimal, `inf` or `nan`.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "+-._eE".unicodeScalars.contains($0) })
        else { return nil }
        // Filtered in Swift: Foundation's replacingOccurrences bridges through NSString, which
        // cost a tenth of loading a manifest.
        let digits = text.contains("_") ? String(text.filter { $0 != "_" }) : text
        return Double(digits).flatMap { $0.isFinite ? $0 : nil }
    }

    func integer(_ node: Node, _ what: String, minimum: Int) -> Int? {
        guard let value = number(node, what, minimum: Double(minimum)) else { return nil }
        guard value == value.rounded(), abs(value) < 1e9 else {
            problem("\(what) must be a whole number, not \(value.compactDescription)", at: node)
            return nil
        }
        return Int(value)
    }

    func bool(_ node: Node, _ what: String) -> Bool? {
        guard usable(node, what) else { return nil }
        switch node.scalar?.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            problem("\(what) must be true or false, not \(node.kindDescription)", at: node)
            return nil
        }
    }

    /// Any scalar as text: `label: 3` is the text "3".
    func string(_ node: Node, _ what: String) -> String? {
        guard usable(node, what) else { return nil }
        guard let scalar = node.scalar else {
            problem("\(what) must be text, not \(node.kindDescription)", at: node)
            return nil
        }
        return scalar.string
    }

    /// One of an enumeration's raw values.
    func choice<Value: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _: Value.Type) -> Value?
    where Value.RawValue == String {
        guard let text = string(node, what) else { return nil }
        if let value = Value(rawValue: text) { return value }
        return unknown(text, node, what, names: Value.allCases.map(\.rawValue))
    }

    /// A content mode as ``ContentMode/init(parsing:)`` reads one (`aspectFit` or `aspect-fit`).
    func choice(_ node: Node, _ what: String, _: ContentMode.Type) -> ContentMode? {
        guard let text = string(node, what) else { return nil }
        if let mode = ContentMode(parsing: text) { return mode }
        return unknown(text, node, what, names: ContentMode.allCases.map(\.rawValue))
    }

    private func unknown<Value>(_ text: String, _ node: Node, _ what: String, names: [String]) -> Value? {
        problem("unknown value \"\(text)\" for \(what); expected one of \(names.joined(separator: ", "))"
                + Suggestion.hint(for: text, in: names), at: node)
        return nil
    }

    /// A list of numbers, `count` of them when given.
    func numbers(_ node: Node, _ what: String, counts: [Int], minimum: Double? = nil) -> [Double]? {
        guard usable(node, what) else { return nil }
        guard let sequence = node.sequence, counts.contains(sequence.count) else {
            let expected = counts.map(String.init).joined(separator: " or ")
            let found = node.sequence.map { "a list of \($0.count)" } ?? node.kindDescription
            problem("\(what) must be a list of \(expected) numbers, not \(found)", at: node)
            return nil
        }
        let values = sequence.map { number($0, what, minimum: minimum) }
        return values.contains(where: { $0 == nil }) ? nil : values.compactMap { $0 }
    }
}

extension Node {
    var location: ManifestLocation? { mark.map { ManifestLocation(line: $0.line, column: $0.column) } }

    /// `~`, `null` or nothing at all, unquoted: what `key:` with no value (or `key: #comment`) gives.
    var isNull: Bool {
        guard let scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// A plain reference such as `$accent` that was left as it was because no variable matched.
    var isUnresolvedVariable: Bool {
        guard let text = scalar?.string else { return false }
        return VariableSyntax.referencedName(in: text) != nil
    }

    /// How messages name what was found: `a list`, `the text "abc"`, `the number 5`.
    var kindDescription: String {
        switch self {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull { return "nothing (null)" }
            if scalar.style == .plain, Double(scalar.string) != nil { return "the number \(scalar.string)" }
            let shown = scalar.string.count > 40 ? String(scalar.string.prefix(40)) + "…" : scalar.string
            return "the text \"\(shown)\""
        }
    }
}
