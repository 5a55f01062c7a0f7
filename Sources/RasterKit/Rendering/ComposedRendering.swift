/// A component whose render is made from other components' renders rather than drawn on a
/// canvas: ``Processed`` and ``Fallback``. ``RenderGeometry`` asks it for its image directly, so
/// the image may have a size of its own and the renders it is made from go through the cache.
protocol ComposedRendering: Rasterizable {
    /// The render at `drawSize` points (the minimum frame for a nine-slice render) and `scale`.
    func composeImage(drawSize: Size, scale: Double, environment: DrawEnvironment) throws -> RasterImage
}

extension DrawEnvironment {
    /// `component` rendered one level deeper than this render: through the rasterizer's cache
    /// when there is one (coalesced with other requests for its key), drawn directly otherwise.
    func renderComponent<Component: Rasterizable>(_ component: Component, size: Size, scale: Double) throws -> RasterImage {
        try checkContinuing()
        guard depth < Rasterizer.nestingLimit else {
            throw RenderError.nestingTooDeep(typeName: TypeIdentity.stableName(of: Component.self), depth: Rasterizer.nestingLimit)
        }
        let nested = nested()
        let image: RasterImage
        if let renderer = nestedRenderer {
            image = try renderer.renderNested(component, size: size, scale: scale, environment: nested)
        } else {
            image = try RenderGeometry(for: component, size: size, scale: scale).draw(component, scale: scale, environment: nested)
        }
        children.record(ComponentVersion(typeName: ComponentKeyPlan.shared(Component.self).takeUnretainedValue().typeName,
                                         renderVersion: Component.renderVersion))
        return image
    }
}
