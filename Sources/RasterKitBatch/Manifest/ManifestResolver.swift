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
        var appearance: Appearance
    }

    private let document: ManifestDocument
    private let reader: ManifestReader
    private let specs: [String: ComponentSpec]
    private var resolved: [Key: [Layer]] = [:]
    /// The components being resolved, outermost first.
    private var stack: [String] = []
    /// The components whose fallbacks are being resolved, outermost first.
    private var fallbackStack: [String] = []

    init(document: ManifestDocument, reader: ManifestReader) {
        self.document = document
        var reader = reader
        reader.limits = document.limits
        reader.fontsDigest = document.fontsDigest
        self.reader = reader
        specs = Dictionary(document.components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every component with all its states resolved, in each of its appearances.
    func components() -> [Manifest.Component] {
        let declaresAppearances = document.declaresAppearances
        return document.components.map { spec in
            let states = spec.states.map { state in resolvedState(spec, state, .light) }
            var component = Manifest.Component(name: spec.name, states: states,
                                               sizes: spec.sizes.map { Manifest.ComponentSize($0) },
                                               scales: spec.scales, outputs: spec.outputs, isTemplate: spec.isTemplate,
                                               location: spec.location, scalesLocation: spec.scalesLocation)
            component.preservesVectors = spec.preservesVectors
            component.golden = spec.golden
            component.parameters = spec.parameters
            component.names = spec.names
            guard declaresAppearances else { return component }
            for appearance in Appearance.variants {
                let variant = spec.states.map { state in resolvedState(spec, state, appearance) }
                guard exports(appearance, of: spec, light: states, variant: variant) else { continue }
                component.appearances.append(appearance)
                component.appearanceStates[appearance] = variant
            }
            return component
        }
    }

    /// Whether `spec` is exported in `appearance`: when it lists `appearances:`, exactly those;
    /// otherwise when it or a state gives overrides for it, or its states look different in it
    /// (through the manifest's overrides or a component it uses).
    private func exports(_ appearance: Appearance, of spec: ComponentSpec, light: [Manifest.State],
                         variant: [Manifest.State]) -> Bool {
        if let listed = spec.appearances { return listed.contains(appearance) }
        return spec.overrides[appearance] != nil || spec.states.contains { $0.overrides[appearance] != nil } || variant != light
    }

    /// The variables `state` of `spec` sees in `appearance`, innermost first: for each of the
    /// state, the component and the manifest, its overrides for the appearance, then its own
    /// values. A variable an appearance does not override keeps its light value.
    private func levels(_ spec: ComponentSpec, _ state: StateSpec, _ appearance: Appearance,
                        given: [String: Node] = [:]) -> [[String: Node]] {
        guard appearance != .light else { return [given, state.variables, spec.variables, document.variables] }
        return [given, state.overrides[appearance] ?? [:], state.variables, spec.overrides[appearance] ?? [:], spec.variables,
                document.overrides[appearance] ?? [:], document.variables]
    }

    /// `component`'s state `state` in `appearance`, with `given` parameter values (already
    /// checked against their declarations) over its variables; nil when there is no such state.
    func resolvedState(component: String, state: String, appearance: Appearance, given: [String: Node]) -> Manifest.State? {
        guard let spec = specs[component], let stateSpec = spec.states.first(where: { $0.name == state }) else { return nil }
        return resolvedState(spec, stateSpec, appearance, given: given)
    }

    /// A state's layers, its `post:` steps read with its variables, and its fallback, in `appearance`.
    private func resolvedState(_ spec: ComponentSpec, _ state: StateSpec, _ appearance: Appearance,
                               given: [String: Node] = [:]) -> Manifest.State {
        var resolved = Manifest.State(name: state.name,
                                      layers: layers(of: spec, state: state, passed: given, appearance: appearance))
        if let postNode = spec.post {
            let scope = VariableScope(levels: levels(spec, state, appearance, given: given),
                                      owner: "state \"\(state.name)\" of component \"\(spec.name)\"", reader: reader)
            resolved.post = reader.postSteps(scope.substitute(postNode), "post of component \"\(spec.name)\"") ?? []
        }
        if let reference = spec.fallback {
            resolved.fallback = fallback(reference, of: spec, state: state, appearance: appearance)
        }
        if spec.sizes.contains(where: { $0.measuredWidth != nil || $0.measuredHeight != nil }) {
            resolved.measuredSizes = measuredSizes(spec, state: state.name, layers: resolved.layers)
        }
        return resolved
    }

    /// The component's sizes with their `auto` lengths measured from a state's layers; a size
    /// that cannot be measured is reported where it is given.
    private func measuredSizes(_ spec: ComponentSpec, state: String, layers: [Layer]) -> [Manifest.ComponentSize] {
        spec.sizes.compactMap { sizeSpec in
            do {
                return try LayerMeasuring.measured(Manifest.ComponentSize(sizeSpec), of: layers, limits: reader.limits)
            } catch {
                reader.problems.add("cannot measure the size of state \"\(state)\" of component \"\(spec.name)\": \(error)",
                                    at: sizeSpec.location)
                return nil
            }
        }
    }

    /// The component `fallback:` names, in the state of the same name (its first when it has
    /// none), with its own steps and fallback.
    private func fallback(_ reference: ComponentSpec.FallbackReference, of spec: ComponentSpec,
                          state: StateSpec, appearance: Appearance) -> ManifestFallback? {
        guard let target = specs[reference.name] else {
            reader.problem("unknown component \"\(reference.name)\" in fallback of component \"\(spec.name)\""
                           + Suggestion.hint(for: reference.name, in: specs.keys)
                           + "; expected one of \(Fields.list(document.components.map(\.name)))", at: reference.node)
            return nil
        }
        let chain = fallbackStack + [spec.name]
        if let start = chain.firstIndex(of: target.name) {
            let cycle = (chain[start...] + [target.name]).joined(separator: " → ")
            reader.problem("cyclic fallback: \(cycle); a component cannot fall back on itself", at: reference.node)
            return nil
        }
        guard chain.count < Rasterizer.nestingLimit else {
            reader.problem("fallbacks chain more than \(Rasterizer.nestingLimit) components", at: reference.node)
            return nil
        }
        fallbackStack.append(spec.name)
        defer { fallbackStack.removeLast() }
        let targetState = target.states.first { $0.name == state.name } ?? target.states[0]
        return ManifestFallback(component: target.name, state: resolvedState(target, targetState, appearance))
    }

    private func layers(of spec: ComponentSpec, state: StateSpec, passed: [String: Node],
                        appearance: Appearance) -> [Layer] {
        let key = Key(component: spec.name, state: state.name, passed: passed, appearance: appearance)
        if let layers = resolved[key] { return layers }
        guard let layersNode = spec.layers else { return [] }
        stack.append(spec.name)
        defer { stack.removeLast() }
        let scope = VariableScope(levels: [passed] + levels(spec, state, appearance),
                                  owner: "state \"\(state.name)\" of component \"\(spec.name)\"", reader: reader)
        let parser = LayerParser(reader: reader) { [unowned self] use in child(use, appearance: appearance) }
        let layers = parser.layers(scope.substitute(layersNode), "layers of component \"\(spec.name)\"")
        resolved[key] = layers
        return layers
    }

    /// The component a `use` layer names, in the state it asks for (its first by default), in
    /// the appearance of the component that uses it.
    private func child(_ use: LayerParser.Use, appearance: Appearance) -> (component: DeclarativeComponent, naturalSize: Size?)? {
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
        let layers = layers(of: spec, state: state, passed: use.variables, appearance: appearance)
        let component = DeclarativeComponent(layers: layers, capInsets: spec.capsForUse, name: "\(spec.name)/\(state.name)")
        // A component that sizes itself (an `auto` size) brings its measured size into a stack;
        // measured with its first such size, as it would be rendered on its own.
        guard let sizeSpec = spec.sizes.first(where: { $0.measuredWidth != nil || $0.measuredHeight != nil }) else {
            return (component, nil)
        }
        do {
            let measured = try LayerMeasuring.measured(Manifest.ComponentSize(sizeSpec), of: layers, limits: reader.limits)
            return (component, measured.size)
        } catch {
            reader.problem("cannot measure component \"\(spec.name)\" (state \"\(state.name)\") for its use here: \(error)",
                           at: use.componentNode)
            return nil
        }
    }
}
