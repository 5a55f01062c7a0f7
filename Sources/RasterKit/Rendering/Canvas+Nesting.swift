import Foundation
internal import CCairo

extension Canvas {
    /// Draws a nested component into `rect`, synchronously, through the rasterizer drawing this
    /// canvas: the child is cached under its own key at the pixel size it occupies, so a child
    /// used by many parents is drawn once. Nine-slice children are stretched to `rect`.
    ///
    /// ```swift
    /// try canvas.draw(Icon(name: "star"), in: Rect(x: 12, y: 10, width: 24, height: 24))
    /// ```
    public func draw<Child: Rasterizable>(_ child: Child, in rect: Rect) throws {
        ensureOpen()
        guard rect.minX.isFinite, rect.minY.isFinite else { throw RenderError.invalidSize(rect.size) }
        try environment.checkContinuing()
        guard environment.depth < Rasterizer.nestingLimit else {
            throw RenderError.nestingTooDeep(typeName: TypeIdentity.stableName(of: Child.self), depth: Rasterizer.nestingLimit)
        }
        if environment.isVector, !(child is any ComposedRendering) { return try drawAsVectors(child, in: rect) }
        let device = deviceTransform
        // The child is drawn at the device's pixels per point, so it is as sharp as its parent.
        let rawScale = max((device.a * device.a + device.b * device.b).squareRoot(),
                           (device.c * device.c + device.d * device.d).squareRoot())
        let childScale = (rawScale * 1e6).rounded() / 1e6
        let nested = environment.nested()
        let image: RasterImage
        if let renderer = environment.nestedRenderer {
            image = try renderer.renderNested(child, size: rect.size, scale: childScale, environment: nested)
        } else {
            let geometry = try RenderGeometry(for: child, size: rect.size, scale: childScale)
            image = try geometry.draw(child, scale: childScale, environment: nested)
        }
        environment.children.record(ComponentVersion(typeName: ComponentKeyPlan.shared(Child.self).takeUnretainedValue().typeName,
                                                     renderVersion: Child.renderVersion))
        if image.capInsets == nil, pastePixelAligned(image, in: rect, device: device) { return }
        draw(image, in: rect)
    }

    /// Draws `child` straight into this canvas's vector document, at the full size of `rect`
    /// (a nine-slice child too: a vector needs no stretching) and clipped to it, so its paths and
    /// text stay vectors.
    private func drawAsVectors<Child: Rasterizable>(_ child: Child, in rect: Rect) throws {
        guard rect.width.isFinite, rect.height.isFinite, rect.width > 0, rect.height > 0 else {
            throw RenderError.invalidSize(rect.size)
        }
        try environment.countVectorDraw()
        try withState {
            translateBy(x: rect.minX, y: rect.minY)
            cairo_rectangle(context, 0, 0, rect.width, rect.height)
            cairo_clip(context)
            let canvas = Canvas(context: context, size: rect.size, scale: scale, environment: environment.nested())
            try canvas.run { try child.draw(in: $0, size: rect.size) }
        }
        environment.children.record(ComponentVersion(typeName: ComponentKeyPlan.shared(Child.self).takeUnretainedValue().typeName,
                                                     renderVersion: Child.renderVersion))
    }

    /// Whether a component should stop drawing: true once every request for the render has been
    /// cancelled, or the render has run past its ``ResourceLimits/timeLimit``. Long draws may
    /// check it and return early; such a render is never cached.
    public var isCancelled: Bool { (try? environment.checkContinuing()) == nil }

    /// Pastes `image` on whole device pixels when the transform only moves and scales at the
    /// image's own scale, so nested children stay exactly as sharp as they were drawn.
    private func pastePixelAligned(_ image: RasterImage, in rect: Rect, device: Transform) -> Bool {
        guard device.isAxisAligned, abs(device.a - image.scale) < 1e-6, abs(device.d - image.scale) < 1e-6 else {
            return false
        }
        let x = (device.a * rect.minX + device.tx).rounded(), y = (device.d * rect.minY + device.ty).rounded()
        guard abs(device.a * rect.width - Double(image.pixelWidth)) < 1,
              abs(device.d * rect.height - Double(image.pixelHeight)) < 1,
              let source = try? CairoImageSurface(reading: image) else { return false }
        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_set_source_surface(context, source.surface, x, y)
        cairo_rectangle(context, x, y, Double(image.pixelWidth), Double(image.pixelHeight))
        cairo_fill(context)
        cairo_restore(context)
        withExtendedLifetime(source) {}
        checkStatus("drawing a nested component")
        return true
    }
}
