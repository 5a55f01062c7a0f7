import RasterKit
internal import Yams

/// Turns each component state into its resolved layer tree: variables filled in (passed by a
/// `use`, then the state's, the component's, the manifest's), and each `use` replaced by the
/// child it names, resolved the same way. A `use` that leads back to a component being
/// resolved is reported with the whole cycle.
final class ManifestResolver {
    private struct Key: Hashable {
        var component: String
        var state: String
        var passed: [String: Node]
    }

    private let document: ManifestDocument
    private let reader: ManifestReader
    private let specs: [String: ComponentSpec]
    private var resolved: [Key: [Layer]] = [:]
    /// The components being resolved, outermost first.
    private var stack: [String] = []

    init(document: ManifestDocument, reader: ManifestReader) {
        self.document = document
        var reader = reader
        reader.limits = document.limits
        self.reader = reader
        specs = Dictionary(document.components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every component with all its states resolved.
    func components() -> [Manifest.Component] {
        document.components.map { spec in
            let states = spec.states.map { state in
                Manifest.State(name: state.name, layers: layers(of: spec, state: state, passed: [:]))
            }
            return Manifest.Component(name: spec.name, states: states,
                                      sizes: spec.sizes.map { Manifest.ComponentSize($0) },
                                      scales: spec.scales, outputs: spec.outputs, location: spec.location,
                                      scalesLocation: spec.scalesLocation)
        }
    }

    private func layers(of spec: ComponentSpec, state: StateSpec, passed: [String: Node]) -> [Layer] {
        let key = Key(component: spec.name, state: state.name, passed: passed)
        if let layers = resolved[key] { return layers }
        guard let layersNode = spec.layers else { return [] }
        stack.append(spec.name)
        defer { stack.removeLast() }
        let scope = VariableScope(levels: [passed, state.variables, spec.variables, document.variables],
                                  owner: "state \"\(state.name)\" of component \"\(spec.name)\"", reader: reader)
        let parser = LayerParser(reader: reader) { [unowned self] use in child(use) }
        let layers = parser.layers(scope.substitute(layersNode), "layers of component \"\(spec.name)\"")
        resolved[key] = layers
        return layers
    }

    /// The component a `use` layer names, in the state it asks for (its first by default).
    private func child(_ use: LayerParser.Use) -> DeclarativeComponent? {
        guard let spec = specs[use.component] else {
            reader.problem("unknown component \"\(use.component)\" in use" + Suggestion.hint(for: use.component, in: specs.keys)
                           + "; expected one of \(Fields.list(document.components.map(\.name)))", at: use.componentNode)
            return nil
        }
        if let start = stack.firstIndex(of: spec.name) {
            let cycle = (stack[start...] + [spec.name]).joined(separator: " → ")
            reader.problem("cyclic use: \(cycle); a component cannot contain itself", at: use.componentNode)
            return nil
        }
        guard stack.count < Rasterizer.nestingLimit else {
            reader.problem("components nest more than \(Rasterizer.nestingLimit) levels deep", at: use.componentNode)
            return nil
        }
        var state = spec.states[0]
        if let name = use.state {
            guard let named = spec.states.first(where: { $0.name == name }) else {
                let names = spec.states.map(\.name)
                reader.problem("unknown state \"\(name)\" of component \"\(spec.name)\"" + Suggestion.hint(for: name, in: names)
                               + "; expected one of \(Fields.list(names))", at: use.stateNode)
                return nil
            }
            state = named
        }
        return DeclarativeComponent(layers: layers(of: spec, state: state, passed: use.variables),
                                    capInsets: spec.capsForUse, name: "\(spec.name)/\(state.name)")
    }
}
