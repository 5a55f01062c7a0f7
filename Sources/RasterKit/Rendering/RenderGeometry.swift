/// Where a component is drawn: the size its canvas gets, and the cap insets its image carries.
package struct RenderGeometry {
    /// The canvas size in points: the minimum frame for nine-slice components drawn that way.
    package let drawSize: Size
    package let capInsets: EdgeInsets?

    /// Validates a request of `size` points at `scale` for `component`.
    package init<Component: Rasterizable>(for component: borrowing Component, size: Size, scale: Double) throws {
        try PixelGeometry.validate(size: size)
        try PixelGeometry.validate(scale: scale)
        capInsets = component.capInsets
        if let caps = capInsets {
            try NineSlice.validate(caps, forTarget: size)
            drawSize = component.usesMinimumFrameForCaps
                ? caps.minimumFrame : size
        } else {
            drawSize = size
        }
    }

    /// Draws `component` into a new image, outside any cache.
    func draw<Component: Rasterizable>(_ component: Component, scale: Double,
                                       environment: DrawEnvironment) throws -> RasterImage {
        if let composed = component as? any ComposedRendering {
            let image = try composed.composeImage(drawSize: drawSize, scale: scale, environment: environment)
            return capInsets == nil ? image : try image.withCapInsets(capInsets)
        }
        let pixels = try PixelGeometry.pixelSize(for: drawSize, scale: scale, limits: environment.limits.pixels)
        let image = try CairoImageSurface.render(pixelWidth: pixels.width, pixelHeight: pixels.height, size: drawSize,
                                                 scale: scale, environment: environment) { canvas in
            try component.draw(in: canvas, size: drawSize)
        }
        guard let capInsets else { return image }
        return RasterImage(storage: image.storage, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight,
                           scale: scale, capInsets: capInsets)
    }
}
