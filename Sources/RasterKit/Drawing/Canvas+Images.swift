internal import CCairo
import Foundation

extension Canvas {
    /// Draws `image` scaled into `rect`. An image with cap insets is drawn nine-slice: corners
    /// unscaled, edges and centre stretched.
    public func draw(_ image: RasterImage, in rect: Rect, interpolation: Interpolation = .good) {
        ensureOpen()
        guard rect.width.isFinite, rect.height.isFinite, rect.minX.isFinite, rect.minY.isFinite else {
            return record(RenderError.invalidSize(rect.size))
        }
        guard !rect.isEmpty else { return }
        if let insets = image.capInsets, abs(rect.width - image.size.width) > 1e-9 || abs(rect.height - image.size.height) > 1e-9 {
            return drawNineSlice(image, insets: insets, in: rect, interpolation: interpolation)
        }
        let pattern = ImagePattern(image: image, rect: rect, interpolation: interpolation)
        cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
        withSource(.image(pattern)) { cairo_fill(context) }
        checkStatus("drawing an image")
    }

    /// When the device transform only scales and moves at the image's own scale, the stretch is
    /// done on whole device pixels and pasted unfiltered; otherwise the stretched image is
    /// drawn through the transform.
    private func drawNineSlice(_ image: RasterImage, insets: EdgeInsets, in rect: Rect, interpolation: Interpolation) {
        let device = deviceTransform
        let pixelAligned = device.isAxisAligned && abs(device.a - image.scale) < 1e-9
            && abs(device.d - image.scale) < 1e-9
        do {
            if pixelAligned {
                let x0 = (device.a * rect.minX + device.tx).rounded(), x1 = (device.a * rect.maxX + device.tx).rounded()
                let y0 = (device.d * rect.minY + device.ty).rounded(), y1 = (device.d * rect.maxY + device.ty).rounded()
                guard x1 > x0, y1 > y0 else { return }
                let stretched = try NineSlice.stretch(image, insets: insets, toPixelWidth: Int(x1 - x0),
                                                      height: Int(y1 - y0))
                let source = try CairoImageSurface(reading: stretched)
                cairo_save(context)
                cairo_identity_matrix(context)
                cairo_set_source_surface(context, source.surface, x0, y0)
                cairo_rectangle(context, x0, y0, x1 - x0, y1 - y0)
                cairo_fill(context)
                cairo_restore(context)
                withExtendedLifetime(source) {}
            } else {
                let stretched = try image.stretched(to: rect.size)
                let pattern = ImagePattern(image: stretched, rect: rect, interpolation: interpolation)
                cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
                withSource(.image(pattern)) { cairo_fill(context) }
            }
            checkStatus("drawing a nine-slice image")
        } catch {
            record(error)
        }
    }
}

extension Canvas {
    /// Decodes `data` under this render's limits (pixels, PNG chunks) and runs `body` with the
    /// image, its pixels reserved in the render's memory budget while `body` runs: an image a
    /// manifest names is input like any other, and may be far larger than what it is drawn into.
    package func withDecodedPNG<Result>(_ data: Data, _ body: (RasterImage) throws -> Result) throws -> Result {
        let limits = environment.limits
        let header = try PNGHeader(data)
        try header.check(limits.pixels)
        let (bytes, overflow) = header.width.multipliedReportingOverflow(by: header.height * 4)
        let reservation = try environment.memory.reserve(overflow ? .max : bytes, waits: false)
        defer { withExtendedLifetime(reservation) {} }
        return try body(try RasterImage(pngData: data, resourceLimits: limits))
    }
}
