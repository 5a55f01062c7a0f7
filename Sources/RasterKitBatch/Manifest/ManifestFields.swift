import RasterKit
internal import Yams

/// The keys and values of one mapping in a manifest, checked against the keys it may have:
/// an unknown key is reported with the closest known one. YAML merge keys (`<<: *base`) are
/// followed, keys given here winning.
struct Fields {
    /// What the mapping is, as messages name it: `roundedRect`, `component "button"`.
    let owner: String
    let node: Node
    private var values: [String: Node] = [:]
    private let reader: ManifestReader

    init?(_ node: Node, owner: String, allowed: [String], reader: ManifestReader) {
        self.owner = owner
        self.node = node
        self.reader = reader
        guard reader.usable(node, owner) else { return nil }
        guard let mapping = node.mapping else {
            reader.problem("\(owner) must be a mapping of keys to values, not \(node.kindDescription)", at: node)
            return nil
        }
        values.reserveCapacity(mapping.count)
        let hasMergeKeys = mapping.keys.contains { $0.scalar?.string == "<<" }
        for (key, value) in hasMergeKeys ? Fields.merged(mapping) : mapping.map({ ($0.key, $0.value) }) {
            let name = key.scalar?.string ?? ""
            guard allowed.contains(name) else {
                reader.problem("unknown key \"\(name)\" in \(owner)" + Suggestion.hint(for: name, in: allowed)
                               + (allowed.isEmpty ? "" : "; expected \(Fields.list(allowed))"), at: key)
                continue
            }
            values[name] = value
        }
    }

    /// Pairs with merge keys (`<<`) expanded: later and explicit keys win.
    private static func merged(_ mapping: Node.Mapping) -> [(Node, Node)] {
        var pairs: [(Node, Node)] = []
        var seen = Set<String>()
        for (key, value) in mapping where key.scalar?.string != "<<" {
            pairs.append((key, value))
            seen.insert(key.scalar?.string ?? "")
        }
        for (key, value) in mapping where key.scalar?.string == "<<" {
            let sources = value.sequence.map(Array.init) ?? [value]
            for case .mapping(let source) in sources {
                for (inner, innerValue) in merged(source) where seen.insert(inner.scalar?.string ?? "").inserted {
                    pairs.append((inner, innerValue))
                }
            }
        }
        return pairs
    }

    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    subscript(key: String) -> Node? { values[key] }

    /// Keys present, in no particular order.
    var keys: [String] { Array(values.keys) }

    /// `radius in roundedRect`: how messages name a value.
    func what(_ key: String) -> String { "\(key) in \(owner)" }

    /// Reads the value at `key` with `read`, or nil when the key is absent.
    func read<Value>(_ key: String, _ read: (Node, String) -> Value?) -> Value? {
        guard let value = self[key] else { return nil }
        return read(value, what(key))
    }

    /// Reports a missing key that must be given.
    func require(_ key: String, _ expectation: String = "") -> Node? {
        if let value = self[key] { return value }
        reader.problem("\(owner) needs \"\(key)\"\(expectation.isEmpty ? "" : " (\(expectation))")", at: node)
        return nil
    }
}
