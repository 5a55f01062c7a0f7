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

    /// Optical insets must leave some of `size` and, for a nine-patch, lie outside its content
    /// area: Android marks both on the same bottom and right border lines.
    func checkOptical(_ optical: EdgeInsets, of size: SizeSpec, at node: Node) {
        guard optical.left + optical.right < size.size.width, optical.top + optical.bottom < size.size.height else {
            return reader.problem("opticalInsets \(optical) leave nothing of \(size.size)", at: node)
        }
        guard let content = size.content ?? size.caps else { return }
        if optical.top > content.top || optical.left > content.left || optical.bottom > content.bottom
            || optical.right > content.right {
            reader.problem("opticalInsets \(optical) reach into the content area (inset \(content)) of \(size.size): a "
                           + "nine-patch marks both on its bottom and right borders, so each optical inset must be at most "
                           + "the content inset on its side", at: node)
        }
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
