/// The limits and memory budget of the render a chain of processors runs in, so that the
/// surfaces stages allocate are checked against the same ``ResourceLimits`` as the render's own.
/// Bound for the duration of a chain; outside a render (a processor called directly) the
/// defaults apply.
struct ProcessingContext: Sendable {
    var limits: ResourceLimits
    var memory: MemoryBudget?

    @TaskLocal static var current = ProcessingContext(limits: .default, memory: nil)

    /// A drawing environment for a stage's own surface.
    var environment: DrawEnvironment { DrawEnvironment(limits: limits, memory: memory) }
}

extension RasterProcessors {
    /// The ``ResourceLimits`` of the render the calling processor runs in (the defaults outside a
    /// render). A processor that draws a new image passes them on:
    /// `RasterImage(size: size, scale: image.scale, limits: RasterProcessors.currentLimits) { … }`.
    public static var currentLimits: ResourceLimits { ProcessingContext.current.limits }
}

/// The images built-in stages make, checked against the current render's limits before any
/// pixel is allocated.
enum ProcessorImages {
    /// A new image of `pixelWidth` × `pixelHeight` at `scale`, drawn with a Canvas in points
    /// (`size` of them; by default the pixels divided by the scale).
    static func draw(pixelWidth: Int, pixelHeight: Int, scale: Double, size: Size? = nil,
                     _ body: (Canvas) throws -> Void) throws -> RasterImage {
        let size = size ?? Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
        return try CairoImageSurface.render(pixelWidth: pixelWidth, pixelHeight: pixelHeight, size: size, scale: scale,
                                            environment: ProcessingContext.current.environment, draw: body)
    }

    /// Uninitialised pixels for a stage that writes every one of them itself.
    static func storage(pixelWidth: Int, pixelHeight: Int, zeroed: Bool = false) throws -> PixelStorage {
        try ProcessingContext.current.limits.pixels.check(pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        let bytes = pixelWidth * pixelHeight * 4
        return zeroed ? PixelStorage(byteCount: bytes) : PixelStorage(uninitializedByteCount: bytes)
    }

    /// Whole pixels for `points` at `scale`, refusing what no surface could hold.
    static func pixels(_ points: Double, scale: Double) throws -> Int {
        let side = Double(ProcessingContext.current.limits.pixels.maximumSide)
        guard points.isFinite, points >= 0, points * scale <= side + 1 else {
            throw RenderError.surfaceTooLarge(pixelWidth: Int(min(max(points * scale, 0), 1e15)), pixelHeight: 0,
                                              limits: ProcessingContext.current.limits.pixels)
        }
        return PixelGeometry.pixels(points, scale: scale)
    }
}
