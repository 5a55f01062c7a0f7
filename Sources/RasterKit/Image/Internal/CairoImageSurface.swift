internal import CCairo

/// A cairo ARGB32 image surface over RasterKit-owned pixels. cairo never owns the memory, so
/// a finished render becomes a ``RasterImage`` without a copy.
final class CairoImageSurface {
    let surface: OpaquePointer
    let storage: PixelStorage
    let pixelWidth: Int
    let pixelHeight: Int
    /// The surface's share of its rasterizer's memory budget, given back when the surface is
    /// freed — for a render's own surface, when the render ends, even if its image lives on.
    private let reservation: MemoryReservation?

    private init(storage: PixelStorage, pixelWidth: Int, pixelHeight: Int, reservation: MemoryReservation? = nil) throws {
        try CairoLibrary.load()
        self.storage = storage
        self.reservation = reservation
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        // ARGB32 rows are 4-byte aligned, so cairo's stride is exactly width × 4.
        surface = cairo_image_surface_create_for_data(storage.bytes.assumingMemoryBound(to: UInt8.self),
                                                      CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight),
                                                      Int32(pixelWidth * 4))
        do {
            try CairoStatus.check(cairo_surface_status(surface),
                                  "creating a \(pixelWidth)×\(pixelHeight) image surface")
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
    }

    /// A transparent surface to draw into, checked against the render's limits — its size, and
    /// the memory budget — before anything is allocated. `isRenderTarget` is true for a render's
    /// own surface, which may wait for memory (see ``MemoryBudget``).
    convenience init(pixelWidth: Int, pixelHeight: Int, for environment: DrawEnvironment, isRenderTarget: Bool = false) throws {
        try environment.limits.pixels.check(pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        let bytes = pixelWidth * pixelHeight * 4
        let reservation = try environment.memory.reserve(bytes, waits: isRenderTarget)
        try self.init(storage: PixelStorage(byteCount: bytes), pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                      reservation: reservation)
    }

    /// A surface reading an existing image; used only as a source, never drawn into.
    convenience init(reading image: RasterImage) throws {
        try self.init(storage: image.storage, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight)
    }

    deinit {
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
    }

    /// The pixels drawn so far as an image. The surface must not be drawn into afterwards.
    func image(scale: Double, capInsets: EdgeInsets? = nil) -> RasterImage {
        cairo_surface_flush(surface)
        return RasterImage(storage: storage, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale,
                           capInsets: capInsets)
    }

    /// Draws `size` points at `scale` into a new surface of the given pixel size with a Canvas.
    static func render(pixelWidth: Int, pixelHeight: Int, size: Size, scale: Double,
                       environment: DrawEnvironment, draw: (Canvas) throws -> Void) throws -> RasterImage {
        let target = try CairoImageSurface(pixelWidth: pixelWidth, pixelHeight: pixelHeight, for: environment,
                                           isRenderTarget: true)
        return try MemoryBudget.rendering {
            let context = cairo_create(target.surface)
            defer { cairo_destroy(context) }
            try CairoStatus.check(cairo_status(context), "creating a drawing context")
            // Points to pixels; a fractional remainder of the last pixel is drawn at the edge.
            cairo_scale(context, Double(pixelWidth) / size.width, Double(pixelHeight) / size.height)
            let canvas = Canvas(context: context!, size: size, scale: scale, environment: environment)
            try canvas.run(draw)
            return target.image(scale: scale)
        }
    }
}
