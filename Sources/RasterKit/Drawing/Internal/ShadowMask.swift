internal import CCairo

/// An A8 cairo surface holding the alpha of a shadow before and after blurring.
final class ShadowMask {
    let surface: OpaquePointer
    /// Where the mask's pixel (0, 0) lies within the layer it was taken from.
    let originX: Int
    let originY: Int
    private let reservation: MemoryReservation

    /// A transparent mask, checked against the render's limits before it is allocated.
    private init(width: Int, height: Int, originX: Int, originY: Int, environment: DrawEnvironment) throws {
        try environment.limits.pixels.check(pixelWidth: width, pixelHeight: height)
        // A8 rows are padded to 4 bytes.
        reservation = try environment.memory.reserve((width + 3) / 4 * 4 * height, waits: false)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else {
            throw RenderError.cairo(status: "out of memory", context: "making a \(width)×\(height) shadow mask")
        }
        do {
            try CairoStatus.check(cairo_surface_status(surface), "making a \(width)×\(height) shadow mask")
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        self.surface = surface
        self.originX = originX
        self.originY = originY
    }

    /// The alpha of the drawn part of `layer`, with `padding` pixels of room for the blur;
    /// nil when nothing was drawn.
    static func alpha(of layer: CairoImageSurface, padding: Int, environment: DrawEnvironment) throws -> ShadowMask? {
        // Blur only around what was drawn, not the whole (possibly canvas-sized) layer.
        guard let drawn = opaqueBounds(of: layer) else { return nil }
        let x0 = max(0, drawn.x - padding), y0 = max(0, drawn.y - padding)
        let x1 = min(layer.pixelWidth, drawn.x + drawn.width + padding)
        let y1 = min(layer.pixelHeight, drawn.y + drawn.height + padding)
        let mask = try ShadowMask(width: x1 - x0, height: y1 - y0, originX: x0, originY: y0, environment: environment)
        mask.fill { plane, stride in
            let pixels = layer.storage.bytes.assumingMemoryBound(to: UInt32.self)
            for y in y0..<y1 {
                let source = pixels + y * layer.pixelWidth
                let row = plane + (y - y0) * stride
                for x in x0..<x1 { row[x - x0] = UInt8(truncatingIfNeeded: source[x] >> 24) }
            }
        }
        return mask
    }

    /// A fully opaque mask.
    static func opaque(width: Int, height: Int, environment: DrawEnvironment) throws -> ShadowMask {
        let mask = try ShadowMask(width: width, height: height, originX: 0, originY: 0, environment: environment)
        mask.fill { plane, stride in plane.update(repeating: 255, count: stride * height) }
        return mask
    }

    deinit { cairo_surface_destroy(surface) }

    /// Writes the mask's bytes directly; `body` gets the first byte and the row stride.
    private func fill(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        cairo_surface_flush(surface)
        if let plane = cairo_image_surface_get_data(surface) {
            body(plane, Int(cairo_image_surface_get_stride(surface)))
        }
        cairo_surface_mark_dirty(surface)
    }

    func blur(sigma: Double) {
        cairo_surface_flush(surface)
        guard let plane = cairo_image_surface_get_data(surface) else { return }
        GaussianBlur.blur(plane, width: Int(cairo_image_surface_get_width(surface)),
                          height: Int(cairo_image_surface_get_height(surface)),
                          stride: Int(cairo_image_surface_get_stride(surface)), sigma: sigma)
        cairo_surface_mark_dirty(surface)
    }

    /// The smallest rectangle holding every pixel with alpha above zero.
    private static func opaqueBounds(of layer: CairoImageSurface) -> DeviceRect? {
        let pixels = layer.storage.bytes.assumingMemoryBound(to: UInt32.self)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<layer.pixelHeight {
            let row = pixels + y * layer.pixelWidth
            var first = -1
            for x in 0..<layer.pixelWidth where row[x] >> 24 != 0 { first = x; break }
            guard first >= 0 else { continue }
            var last = first
            for x in stride(from: layer.pixelWidth - 1, to: first, by: -1) where row[x] >> 24 != 0 { last = x; break }
            minX = min(minX, first)
            maxX = max(maxX, last)
            minY = min(minY, y)
            maxY = y
        }
        guard maxX >= 0 else { return nil }
        return DeviceRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
