import RasterKit

/// The component state a manifest component falls back on (`fallback:`), resolved with its own
/// `post:` and fallback. A class so that a state can hold another state.
final class ManifestFallback: Hashable, Sendable {
    let component: String
    let state: Manifest.State

    init(component: String, state: Manifest.State) {
        self.component = component
        self.state = state
    }

    static func == (lhs: ManifestFallback, rhs: ManifestFallback) -> Bool {
        lhs.component == rhs.component && lhs.state == rhs.state
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(component)
        hasher.combine(state)
    }

    /// The state of component `name` as rendered: its layers (with `capInsets`), with its
    /// fallback around them, run through its steps. A fallback gets the same caps, so both are
    /// stretched alike.
    static func renderable(name: String, state: Manifest.State, capInsets: EdgeInsets?) -> any Rasterizable {
        var result: any Rasterizable = DeclarativeComponent(layers: state.layers, capInsets: capInsets,
                                                            name: "\(name)/\(state.name)")
        if let fallback = state.fallback {
            result = pair(result, renderable(name: fallback.component, state: fallback.state, capInsets: capInsets))
        }
        if !state.post.isEmpty { result = processed(result, state.post.map(\.processor)) }
        return result
    }

    private static func pair<Primary: Rasterizable, Secondary: Rasterizable>(_ primary: Primary,
                                                                             _ secondary: Secondary) -> any Rasterizable {
        primary.fallback(secondary)
    }

    private static func processed<Base: Rasterizable>(_ base: Base, _ processors: [any RasterProcessor]) -> any Rasterizable {
        Processed(base, processors: processors)
    }
}
