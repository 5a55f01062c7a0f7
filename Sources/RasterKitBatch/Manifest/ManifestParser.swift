import RasterKit
import Foundation
internal import Yams

/// Reads a manifest's YAML (or JSON, which YAML reads too, with positions) into a
/// ``ManifestDocument``, recording every problem on the way.
struct ManifestParser {
    let reader: ManifestReader

    static let topKeys = ["version", "name", "variables", "dark", "highContrast", "defaults", "limits", "fonts", "fallbackFonts",
                          "components", "svgs"]
    static let componentKeys = ["layers", "states", "variables", "sizes", "scales", "outputs", "caps", "content", "post",
                                "fallback", "template", "preserveVectors", "opticalInsets", "dark", "highContrast", "appearances",
                                "golden", "parameters", "names"]

    /// The document, or nil when the text is not a usable YAML mapping at all.
    func parse(_ text: String) -> ManifestDocument? {
        let root: Node?
        do {
            // Values are typed by what reads them, not by YAML's guesses, so the basic resolver
            // (no regular expressions per scalar) is enough; `<<` merge keys are followed by Fields.
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            reportSyntax(error)
            return nil
        } catch {
            reader.problems.add("cannot read the manifest: \(error)", at: nil)
            return nil
        }
        guard let root, !root.isNull else {
            reader.problems.add("the manifest is empty; expected a mapping with components: and/or svgs:", at: nil)
            return nil
        }
        // Aliases let a small file describe an enormous tree ("billion laughs"): refuse one
        // before anything walks it.
        guard Self.count(root, upTo: Self.nodeLimit) <= Self.nodeLimit else {
            reader.problem("the manifest expands to more than \(Self.nodeLimit) values (through YAML aliases?)", at: root)
            return nil
        }
        guard root.mapping != nil else {
            reader.problem("the manifest must be a mapping with components: and/or svgs:, not \(root.kindDescription)", at: root)
            return nil
        }
        guard let fields = Fields(root, owner: "the manifest", allowed: Self.topKeys, reader: reader) else { return nil }
        // The manifest's own limits first: everything after is read under them.
        var limited = reader
        if let node = fields["limits"] { limited.limits = limits(node, under: reader.limits) }
        var document = ManifestParser(reader: limited).document(fields)
        document.limits = limited.limits
        return document
    }

    static let nodeLimit = 1_000_000

    /// The values in `node`, counting an alias's values each time it is used; stops past `limit`.
    static func count(_ node: Node, upTo limit: Int) -> Int {
        var count = 0
        var pending = [node]
        while let next = pending.popLast(), count <= limit {
            count += 1
            switch next {
            case .mapping(let mapping): pending += mapping.values
            case .sequence(let sequence): pending += sequence
            case .scalar, .alias: break
            }
        }
        return count
    }

    private func document(_ fields: Fields) -> ManifestDocument {
        var document = ManifestDocument()
        if let version = fields.read("version", { reader.integer($0, $1, minimum: 1) }), version != 1 {
            reader.problem("version \(version) is not supported; this RasterKit reads version 1", at: fields["version"])
        }
        if let name = fields.read("name", { reader.string($0, $1) }) {
            if ManifestNames.isSafe(name) { document.name = name } else {
                reader.problem("name \"\(name)\" \(ManifestNames.rule)", at: fields["name"])
            }
        }
        document.variables = fields.read("variables") { variables($0, $1) } ?? [:]
        document.overrides = overrides(fields)
        // Before components: measured sizes lay text out with them, and text layers key by them.
        document.fontsDigest = ManifestFonts(reader: reader).register(fields)
        var defaultScales: [Double]?
        var defaultOutputs: [ExportFormat]?
        var defaultAppearances: [Appearance]?
        if let defaultsNode = fields["defaults"],
           let defaults = Fields(defaultsNode, owner: "defaults", allowed: ["scales", "outputs", "appearances"],
                                 reader: reader) {
            defaultScales = defaults.read("scales") { scales($0, $1) }
            defaultOutputs = defaults.read("outputs") { outputs($0, $1) }
            defaultAppearances = defaults.read("appearances") { appearances($0, $1) }
        }
        if let componentsNode = fields["components"], reader.usable(componentsNode, "components") {
            if let mapping = componentsNode.mapping {
                for (key, value) in mapping {
                    if var spec = component(key, value, scales: defaultScales, outputs: defaultOutputs) {
                        spec.appearances = spec.appearances ?? defaultAppearances
                        document.components.append(spec)
                    }
                }
            } else {
                reader.problem("components must be a mapping of names to components, not \(componentsNode.kindDescription)",
                               at: componentsNode)
            }
        }
        if let svgsNode = fields["svgs"] {
            document.svgs = svgEntries(svgsNode, defaultScales: defaultScales)
        }
        if fields["components"] == nil && fields["svgs"] == nil {
            reader.problem("the manifest renders nothing: add components: and/or svgs:", at: fields.node)
        }
        return document
    }

    private func reportSyntax(_ error: YamlError) {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            let detail = context.map { " (\($0.text))" } ?? ""
            reader.problems.add("YAML syntax error: \(problem)\(detail)",
                                at: ManifestLocation(line: mark.line, column: mark.column))
        case let .duplicatedKeysInMapping(duplicates, context):
            reader.problems.add("duplicate key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) in a mapping",
                                at: ManifestLocation(line: context.mark.line, column: context.mark.column))
        case let .reader(problem, _, _, _):
            reader.problems.add("cannot read the manifest as UTF-8 text: \(problem)", at: nil)
        default:
            reader.problems.add("YAML error: \(error)", at: nil)
        }
    }

    // MARK: Variables and components

    /// A mapping of variable names to values, as written (resolved per state later).
    func variables(_ node: Node, _ what: String) -> [String: Node]? {
        guard reader.usable(node, what) else { return nil }
        guard let mapping = node.mapping else {
            reader.problem("\(what) must be a mapping of names to values, not \(node.kindDescription)", at: node)
            return nil
        }
        var values: [String: Node] = [:]
        for (key, value) in mapping {
            let name = key.scalar?.string ?? ""
            guard VariableSyntax.isName(Substring(name)) else {
                reader.problem("variable name \"\(name)\" must start with a letter or '_' and hold only letters, "
                               + "digits, '_' and '-'", at: key)
                continue
            }
            values[name] = value
        }
        return values
    }

    private func component(_ key: Node, _ node: Node, scales defaultScales: [Double]?,
                           outputs defaultOutputs: [ExportFormat]?) -> ComponentSpec? {
        let name = key.scalar?.string ?? ""
        guard ManifestNames.isSafe(name) else {
            reader.problem("component name \"\(name)\" \(ManifestNames.rule)", at: key)
            return nil
        }
        let owner = "component \"\(name)\""
        guard let fields = Fields(node, owner: owner, allowed: Self.componentKeys, reader: reader) else { return nil }
        var spec = ComponentSpec(name: name, location: key.location)
        spec.layers = fields.require("layers", "a list of layers")
        spec.variables = fields.read("variables") { variables($0, $1) } ?? [:]
        spec.states = fields.read("states") { states($0, $1) } ?? [StateSpec(name: "default", variables: [:])]
        spec.scales = fields.read("scales") { scales($0, $1) } ?? defaultScales ?? [1]
        spec.scalesLocation = (fields["scales"] ?? fields.node).location
        spec.outputs = fields.read("outputs") { outputs($0, $1) } ?? defaultOutputs ?? [.png]
        spec.isTemplate = fields.read("template") { reader.bool($0, $1) } ?? false
        spec.preservesVectors = fields.read("preserveVectors") { reader.bool($0, $1) } ?? false
        spec.golden = fields.read("golden") { goldenSettings($0, $1) }
        spec.parameters = fields.read("parameters") { parameters($0, $1) } ?? []
        for parameter in spec.parameters {
            // A parameter's default is a variable of the component: a state may set another.
            if spec.variables[parameter.name] != nil {
                reader.problem("variable \"\(parameter.name)\" of \(owner) is also a parameter; give its default in parameters",
                               at: fields["variables"] ?? node)
            }
            spec.variables[parameter.name] = Manifest.Parameter.node(parameter.defaultValue)
        }
        spec.names = fields.read("names") { namesTemplate($0, $1) }
        spec.overrides = overrides(fields)
        spec.appearances = fields.read("appearances") { appearances($0, $1) }
        let caps = fields.read("caps") { reader.insets($0, $1, minimum: 0) }
        let content = fields.read("content") { reader.insets($0, $1, minimum: 0) }
        if let sizesNode = fields["sizes"] {
            spec.sizes = sizes(sizesNode, fields.what("sizes"), caps: caps, content: content, scales: spec.scales)
        }
        if let opticalNode = fields["opticalInsets"],
           let optical = reader.insets(opticalNode, fields.what("opticalInsets"), minimum: 0) {
            spec.sizes = spec.sizes.map { size in
                var size = size
                size.optical = optical
                checkOptical(optical, of: size, at: opticalNode)
                return size
            }
        }
        spec.capsForUse = caps ?? spec.sizes.first?.caps
        // Read per state, once its variables are known.
        spec.post = fields["post"]
        if let fallbackNode = fields["fallback"], let target = reader.string(fallbackNode, fields.what("fallback")) {
            spec.fallback = ComponentSpec.FallbackReference(name: target, node: fallbackNode)
        }
        return spec
    }

    /// `{name: {variable: value, …}, …}`; a state with no variables may be left empty.
    private func states(_ node: Node, _ what: String) -> [StateSpec]? {
        guard reader.usable(node, what) else { return nil }
        guard let mapping = node.mapping, mapping.count > 0 else {
            reader.problem("\(what) must be a mapping of state names to their variables, not \(node.kindDescription)", at: node)
            return nil
        }
        var states: [StateSpec] = []
        for (key, value) in mapping {
            let name = key.scalar?.string ?? ""
            guard ManifestNames.isSafe(name) else {
                reader.problem("state name \"\(name)\" \(ManifestNames.rule)", at: key)
                continue
            }
            states.append(value.isNull ? StateSpec(name: name, variables: [:]) : state(name, value))
        }
        return states.isEmpty ? nil : states
    }

    /// `[png, xcassets]`, or one format.
    func outputs(_ node: Node, _ what: String) -> [ExportFormat]? {
        let list = node.sequence.map(Array.init) ?? [node]
        let formats = list.compactMap { reader.choice($0, what, ExportFormat.self) }
        return formats.count == list.count ? formats.uniqued() : nil
    }
}
