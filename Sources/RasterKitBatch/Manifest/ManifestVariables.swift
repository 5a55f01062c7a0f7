import RasterKit
internal import Yams

/// How variables are written: a value that is exactly `$name` (or `${name}`) takes the
/// variable's value with its type (a number, a colour, a list, a mapping); `${name}` inside
/// longer text is replaced by the variable's text; `$$` is a literal `$`.
enum VariableSyntax {
    /// The variable a whole value refers to: `accent` for `$accent` or `${accent}`.
    static func referencedName(in text: String) -> String? {
        guard text.hasPrefix("$") else { return nil }
        var body = text.dropFirst()
        if body.hasPrefix("{") && body.hasSuffix("}") { body = body.dropFirst().dropLast() }
        return isName(body) ? String(body) : nil
    }

    /// A letter or `_`, then letters, digits, `_` and `-`.
    static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}

/// The variables one component state sees, innermost first: those a `use` passes, the state's,
/// the component's, the manifest's. Values may refer to other variables; a variable that
/// refers to its own name means the one further out (`accent: "$accent"` in a state keeps the
/// manifest's accent).
final class VariableScope {
    private struct Key: Hashable {
        var level: Int
        var name: String
    }

    private let levels: [[String: Node]]
    /// Whose variables these are, for messages: `state "pressed" of button`.
    private let owner: String
    private let reader: ManifestReader
    private var resolved: [Key: Node] = [:]
    private var visiting: [Key] = []

    init(levels: [[String: Node]], owner: String, reader: ManifestReader) {
        self.levels = levels
        self.owner = owner
        self.reader = reader
    }

    /// `node` with every variable reference replaced; references that cannot be resolved are
    /// reported and left as they were (readers then skip them quietly).
    func substitute(_ node: Node) -> Node { substituted(node, level: 0, selfName: nil) ?? node }

    /// `node` with its references replaced, or nil when it holds none. Most of a manifest holds
    /// no reference: such subtrees are kept as they are, neither rebuilt nor scanned twice.
    private func substituted(_ node: Node, level: Int, selfName: String?) -> Node? {
        switch node {
        case .scalar(let scalar):
            guard scalar.string.utf8.contains(UInt8(ascii: "$")) else { return nil }
            if let name = VariableSyntax.referencedName(in: scalar.string) {
                let value = lookup(name, from: name == selfName ? level + 1 : level, at: node)
                // A whole-value reference shares its string, but every use is drawn: it counts
                // toward the total as an expansion does.
                if let text = value?.scalar?.string, !countExpansion(text.utf8.count, at: node) { return nil }
                return value
            }
            // Text over the limit stays as written, its references unresolved.
            guard let text = interpolate(scalar.string, level: level, selfName: selfName, at: node) else { return nil }
            return .scalar(Node.Scalar(text, .implicit, .doubleQuoted, scalar.mark))
        case .mapping(let mapping):
            var pairs: [(Node, Node)]?
            for (index, pair) in mapping.enumerated() {
                let value = substituted(pair.value, level: level, selfName: selfName)
                if pairs == nil, value != nil { pairs = mapping.prefix(index).map { ($0.key, $0.value) } }
                pairs?.append((pair.key, value ?? pair.value))
            }
            return pairs.map { .mapping(Node.Mapping($0, mapping.tag, mapping.style, mapping.mark)) }
        case .sequence(let sequence):
            var nodes: [Node]?
            for (index, element) in sequence.enumerated() {
                let value = substituted(element, level: level, selfName: selfName)
                if nodes == nil, value != nil { nodes = Array(sequence.prefix(index)) }
                nodes?.append(value ?? element)
            }
            return nodes.map { .sequence(Node.Sequence($0, sequence.tag, sequence.style, sequence.mark)) }
        case .alias:
            return nil
        }
    }

    /// Text with each `${name}` replaced by the variable's text and `$$` by `$`; nil, with a
    /// problem reported, when the result would be longer than the limit (variables that repeat
    /// each other grow exponentially: seven levels of ten copies is 10⁸ characters).
    private func interpolate(_ text: String, level: Int, selfName: String?, at node: Node) -> String? {
        let limit = reader.limits.maximumInterpolatedLength
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            guard output.utf8.count <= limit else { break }
            output += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.hasPrefix("$") {
                output += "$"
                rest = rest.dropFirst()
            } else if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}"),
                      VariableSyntax.isName(rest[rest.index(after: rest.startIndex)..<close]) {
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
                guard let value = lookup(name, from: name == selfName ? level + 1 : level, at: node) else {
                    output += "${\(name)}"
                    continue
                }
                if let scalar = value.scalar {
                    guard output.utf8.count + scalar.string.utf8.count <= limit else {
                        output += scalar.string.prefix(limit + 1 - output.utf8.count)
                        break
                    }
                    output += scalar.string
                } else {
                    reader.problem("variable \"$\(name)\" is \(value.kindDescription), which cannot be put inside text",
                                   at: node)
                }
            } else {
                output += "$"
            }
        }
        guard output.utf8.count + rest.utf8.count <= limit else {
            reader.problem("text made from variables is longer than \(limit) characters (variables that repeat each other?)",
                           at: node)
            return nil
        }
        guard countExpansion(output.utf8.count, at: node) else { return nil }
        return output + rest
    }

    /// Adds `bytes` of expanded text to the manifest's total; false, with the problem reported
    /// once, past it. Each string may be under the limit and still a bomb in sum: a hundred
    /// layers each using one variable of a megabyte.
    private func countExpansion(_ bytes: Int, at node: Node) -> Bool {
        let total = ExpansionTally.totalLimit(for: reader.limits)
        guard reader.expansion.add(bytes, limit: total) else {
            if reader.expansion.reportOnce() {
                reader.problem("variables expand to more than \(total) bytes in all (limits: maxTextLength × \(ExpansionTally.factor))",
                               at: node)
            }
            return false
        }
        return true
    }

    /// The resolved value of `name`, looked up from `level` outward.
    private func lookup(_ name: String, from level: Int, at node: Node) -> Node? {
        guard let found = levels.indices.dropFirst(level).first(where: { levels[$0][name] != nil }),
              let raw = levels[found][name] else {
            let known = Set(levels.flatMap(\.keys))
            reader.problem("unknown variable \"$\(name)\" in \(owner)" + Suggestion.hint(for: name, in: known, prefix: "$"),
                           at: node)
            return nil
        }
        let key = Key(level: found, name: name)
        if let value = resolved[key] { return value }
        if let start = visiting.firstIndex(of: key) {
            let loop = (visiting[start...].map(\.name) + [name]).map { "$" + $0 }.joined(separator: " → ")
            reader.problem("variables refer to each other in a loop: \(loop)", at: raw)
            return nil
        }
        visiting.append(key)
        let value = substituted(raw, level: found, selfName: name) ?? raw
        visiting.removeLast()
        resolved[key] = value
        return value
    }
}

/// The bytes variables have expanded to across one manifest, held to a total.
final class ExpansionTally {
    /// The total allowed: this many of the longest string one expansion may make.
    static let factor = 16
    private var total = 0
    private var reported = false

    static func totalLimit(for limits: ResourceLimits) -> Int {
        limits.maximumInterpolatedLength.multipliedReportingOverflow(by: factor).overflow
            ? .max : limits.maximumInterpolatedLength * factor
    }

    /// Adds `bytes`; false once the total is past `limit`.
    func add(_ bytes: Int, limit: Int) -> Bool {
        total = total.addingReportingOverflow(bytes).overflow ? .max : total + bytes
        return total <= limit
    }

    /// True the first time only, so the problem is reported once.
    func reportOnce() -> Bool {
        defer { reported = true }
        return !reported
    }
}
