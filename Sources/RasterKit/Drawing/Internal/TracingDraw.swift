internal import CCairo

/// A draw whose pixels nobody wants: the component is drawn into a one-pixel surface, its
/// nested components inline and uncached, so that an enclosing `withObservationTracking` sees
/// every `@Observable` property the draw reads. ``RasterHost`` runs it for components whose key
/// reads an observable object's storage, which observation cannot see.
enum TracingDraw {
    static func run<Component: Rasterizable>(_ component: Component, size: Size, limits: ResourceLimits) {
        guard (try? CairoLibrary.load()) != nil, size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let context = cairo_create(surface) else { return }
        defer { cairo_destroy(context) }
        // The whole component maps into the one pixel, so filling it costs nothing.
        let scale = 1 / max(size.width, size.height, 1)
        cairo_scale(context, scale, scale)
        let environment = DrawEnvironment(limits: limits, isVector: true)
        let canvas = Canvas(context: context, size: size, scale: scale, environment: environment)
        // What it draws, and whether it fails, does not matter: only what it reads.
        try? canvas.run { try component.draw(in: $0, size: size) }
    }
}
