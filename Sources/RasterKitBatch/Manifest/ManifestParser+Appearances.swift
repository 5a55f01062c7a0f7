import RasterKit
internal import Yams

/// Appearances as a manifest writes them: `dark:` and `highContrast:` maps of variable
/// overrides in the manifest, a component or a state, and a component's `appearances:` list.
extension ManifestParser {
    /// The `dark:` and `highContrast:` maps among `fields`.
    func overrides(_ fields: Fields) -> [Appearance: [String: Node]] {
        var overrides: [Appearance: [String: Node]] = [:]
        for appearance in Appearance.variants {
            if let values = fields.read(appearance.rawValue, { variables($0, $1) }) { overrides[appearance] = values }
        }
        return overrides
    }

    /// `[dark, highContrast]`, or one appearance; `light` is always exported and may be listed.
    func appearances(_ node: Node, _ what: String) -> [Appearance]? {
        let list = node.sequence.map(Array.init) ?? [node]
        let values = list.compactMap { reader.choice($0, what, Appearance.self) }
        return values.count == list.count ? values.filter { $0 != .light }.uniqued() : nil
    }

    /// A state's mapping: its variables, with `dark:` and `highContrast:` taken out as overrides.
    /// A mapping under a key that looks like an appearance but is not one (`Dark`,
    /// `high-contrast`, `light`) is reported rather than taken for a variable.
    func state(_ name: String, _ node: Node) -> StateSpec {
        let what = "variables of state \"\(name)\""
        guard let mapping = node.mapping else { return StateSpec(name: name, variables: variables(node, what) ?? [:]) }
        var spec = StateSpec(name: name, variables: [:])
        var kept: [(Node, Node)] = []
        for (key, value) in mapping {
            let keyName = key.scalar?.string ?? ""
            if let appearance = Appearance(rawValue: keyName), appearance != .light {
                spec.overrides[appearance] = variables(value, "\(appearance) of state \"\(name)\"") ?? [:]
            } else if value.mapping != nil, keyName == Appearance.light.rawValue {
                reader.problem("light is the default appearance: write its values as the state's own variables, "
                               + "not in a light: map", at: key)
            } else if value.mapping != nil, let meant = Appearance.misspelt(keyName) {
                reader.problem("unknown appearance \"\(keyName)\" in state \"\(name)\"; did you mean \"\(meant)\"? "
                               + "Appearances are \(Fields.list(Appearance.variants.map(\.rawValue)))", at: key)
            } else {
                kept.append((key, value))
            }
        }
        spec.variables = variables(.mapping(Node.Mapping(kept, mapping.tag, mapping.style, mapping.mark)), what) ?? [:]
        return spec
    }
}
