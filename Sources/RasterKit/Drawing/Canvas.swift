internal import CCairo

/// The drawing surface a component draws on, in points, with the origin at the top left and
/// y growing downward. A canvas belongs to one draw call on one thread; it is only valid
/// inside the closure or `draw(in:size:)` that received it.
///
/// ```swift
/// func draw(in canvas: Canvas, size: Size) throws {
///     let bounds = Rect(size: size)
///     canvas.fill(Path(roundedRect: bounds, cornerRadius: 8), with: .color(try Color(hex: "#2F6FEB")))
///     canvas.draw(text: "Continue", in: bounds,
///                 style: TextStyle(font: "DejaVu Sans Bold 15", color: .white, alignment: .center,
///                                  verticalAlignment: .center))
/// }
/// ```
public final class Canvas {
    /// The cairo context drawn into; swapped while a shadowed layer draws into its own surface.
    var context: OpaquePointer
    /// The size of the drawing area, in points.
    public let size: Size
    /// Pixels per point of the surface underneath.
    public let scale: Double
    let environment: DrawEnvironment
    /// The device transform the canvas started with; `transform` is reported relative to it.
    var baseTransform: Transform
    /// The first error met while drawing, thrown when the draw finishes.
    private(set) var deferredError: (any Error)?
    private var isOpen = true
    /// Whether text measured here is kept for the process (``TextMeasurements``): true on a
    /// canvas that only measures (``Canvas/measuring(limits:_:)``). A canvas that draws lays out
    /// the text it shows anyway, and keeps those layouts for the draw; its measurements, made
    /// under its own transform, would only push out those a measuring canvas looks up again.
    var keepsMeasurements = false
    /// The layouts of this draw. Stored, not lazy: a lazy property is read out and written
    /// back around a mutation, so its dictionaries were copied for every layout made.
    var text = TextEngine()

    init(context: OpaquePointer, size: Size, scale: Double, environment: DrawEnvironment) {
        self.context = context
        self.size = size
        self.scale = scale
        self.environment = environment
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        baseTransform = Transform(matrix)
    }

    /// Runs a draw on this canvas, then closes it and throws the first error met.
    func run(_ draw: (Canvas) throws -> Void) throws {
        defer { isOpen = false }
        try draw(self)
        if let deferredError { throw deferredError }
        try CairoStatus.check(cairo_status(context), "drawing")
    }

    /// Traps when a canvas is used after its draw finished: a programming error, since the
    /// surface under it is gone.
    @inline(__always)
    func ensureOpen() {
        precondition(isOpen, "a Canvas was used after the draw it was given to had returned")
    }

    /// Remembers the first error; later drawing goes on so one failure gives one clear report.
    func record(_ error: any Error) {
        if deferredError == nil { deferredError = error }
    }

    /// Records cairo's sticky error status, naming the operation that caused it.
    func checkStatus(_ operation: @autoclosure () -> String) {
        let status = cairo_status(context)
        if status != CAIRO_STATUS_SUCCESS {
            do { try CairoStatus.check(status, operation()) } catch { record(error) }
        }
    }

    // MARK: State and transforms

    /// Runs `body` and then restores the transform, clip, blend mode and other state.
    public func withState<Result>(_ body: () throws -> Result) rethrows -> Result {
        ensureOpen()
        cairo_save(context)
        defer { cairo_restore(context) }
        return try body()
    }

    /// Moves the origin by `x` right and `y` down, in the current coordinates.
    public func translateBy(x: Double, y: Double) {
        ensureOpen()
        cairo_translate(context, x, y)
    }

    /// Scales what is drawn next by `x` horizontally and `y` vertically, about the current origin.
    public func scaleBy(x: Double, y: Double) {
        ensureOpen()
        cairo_scale(context, x, y)
        checkStatus("scaling by \(x), \(y)")
    }

    /// Rotates by `angle` radians; positive angles turn clockwise on screen.
    public func rotate(by angle: Double) {
        ensureOpen()
        cairo_rotate(context, angle)
    }

    /// Applies `transform` before the current transform.
    public func concatenate(_ transform: Transform) {
        ensureOpen()
        var matrix = transform.cairoMatrix
        cairo_transform(context, &matrix)
        checkStatus("applying \(transform)")
    }

    /// The current transform from this canvas's points to the points it started with.
    public var transform: Transform {
        ensureOpen()
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        return Transform(matrix).concatenating(baseTransform.inverted() ?? .identity)
    }

    /// The current transform from points to device pixels.
    var deviceTransform: Transform {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        return Transform(matrix)
    }

    /// How blending combines what is drawn next with what is on the canvas (restored by
    /// `withState`).
    public var blendMode: BlendMode {
        get {
            ensureOpen()
            let current = cairo_get_operator(context)
            return BlendMode.allCases.first { $0.cairoOperator == current } ?? .normal
        }
        set {
            ensureOpen()
            cairo_set_operator(context, newValue.cairoOperator)
        }
    }

    // MARK: Clipping

    /// Limits later drawing to the inside of `path` (until `withState` restores).
    public func clip(to path: Path, rule: FillRule = .nonZero) {
        ensureOpen()
        addPath(path)
        cairo_set_fill_rule(context, rule.cairoFillRule)
        cairo_clip(context)
        checkStatus("clipping")
    }

    /// Limits later drawing to `rect` (until `withState` restores).
    public func clip(to rect: Rect) { clip(to: Path(rect: rect)) }

    // MARK: Filling and stroking

    /// Fills the inside of `path`.
    public func fill(_ path: Path, with paint: Paint, rule: FillRule = .nonZero) {
        ensureOpen()
        addPath(path)
        cairo_set_fill_rule(context, rule.cairoFillRule)
        withSource(paint) { cairo_fill(context) }
        checkStatus("filling a path")
    }

    /// Draws the outline of `path`.
    public func stroke(_ path: Path, with paint: Paint, style: StrokeStyle = StrokeStyle()) {
        ensureOpen()
        addPath(path)
        cairo_set_line_width(context, max(0, style.width))
        cairo_set_line_cap(context, style.cap.cairoLineCap)
        cairo_set_line_join(context, style.join.cairoLineJoin)
        cairo_set_miter_limit(context, style.miterLimit)
        let dashes = style.dash.filter { $0.isFinite && $0 >= 0 }
        if dashes.isEmpty || dashes.allSatisfy({ $0 == 0 }) {
            cairo_set_dash(context, nil, 0, 0)
        } else {
            dashes.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), style.dashPhase) }
        }
        withSource(paint) { cairo_stroke(context) }
        checkStatus("stroking a path")
    }

    /// Fills the whole clip area (the whole canvas when nothing is clipped).
    public func fillAll(with paint: Paint) {
        ensureOpen()
        withSource(paint) { cairo_paint(context) }
        checkStatus("painting")
    }

    /// Sets `paint` as cairo's source for `operation`, then releases it so no image or pattern
    /// outlives the call.
    func withSource(_ paint: Paint, _ operation: () -> Void) {
        switch paint {
        case .color(let color):
            cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
            operation()
        case .linearGradient(let gradient):
            let pattern = CairoPatterns.make(gradient)
            cairo_set_source(context, pattern)
            cairo_pattern_destroy(pattern)
            operation()
        case .radialGradient(let gradient):
            let pattern = CairoPatterns.make(gradient)
            cairo_set_source(context, pattern)
            cairo_pattern_destroy(pattern)
            operation()
        case .image(let imagePattern):
            withImageSource(imagePattern, operation)
        }
        cairo_set_source_rgba(context, 0, 0, 0, 1)
    }

    private func withImageSource(_ imagePattern: ImagePattern, _ operation: () -> Void) {
        withPattern(of: imagePattern.image, in: imagePattern.rect, filter: imagePattern.interpolation.cairoFilter,
                    extend: imagePattern.tiles ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_NONE) { pattern in
            cairo_set_source(context, pattern)
            operation()
            cairo_set_source_rgba(context, 0, 0, 0, 1)
        }
    }

    /// Runs `body` with a cairo pattern showing `image` stretched over `rect` (in the current
    /// coordinates). The pattern reads the image's own pixels, so it is valid only inside `body`.
    func withPattern(of image: RasterImage, in rect: Rect, filter: cairo_filter_t, extend: cairo_extend_t,
                     _ body: (OpaquePointer) -> Void) {
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else {
            return record(RenderError.invalidSize(rect.size))
        }
        do {
            let source = try CairoImageSurface(reading: image)
            let pattern = cairo_pattern_create_for_surface(source.surface)!
            defer { cairo_pattern_destroy(pattern) }
            // Pattern space is the image's pixels: map the rect onto them.
            var matrix = Transform(translationX: -rect.minX, y: -rect.minY)
                .concatenating(Transform(scaleX: Double(image.pixelWidth) / rect.width,
                                         y: Double(image.pixelHeight) / rect.height)).cairoMatrix
            cairo_pattern_set_matrix(pattern, &matrix)
            cairo_pattern_set_filter(pattern, filter)
            cairo_pattern_set_extend(pattern, extend)
            body(pattern)
            withExtendedLifetime(source) {}
        } catch {
            record(error)
        }
    }

    /// Replaces the current cairo path with `path`.
    func addPath(_ path: Path) { addPath(path, to: context) }

    /// Replaces the current path of another cairo context (a mask or layer) with `path`.
    func addPath(_ path: Path, to context: OpaquePointer) {
        cairo_new_path(context)
        var current: Point?
        for element in path.elements {
            switch element {
            case .move(let point):
                cairo_move_to(context, point.x, point.y)
                current = point
            case .line(let point):
                cairo_line_to(context, point.x, point.y)
                current = point
            case let .quadCurve(point, control):
                // A quadratic is the cubic with controls two thirds of the way to its control point.
                let start = current ?? control
                if current == nil { cairo_move_to(context, control.x, control.y) }
                let c1 = Point(x: start.x + 2 / 3 * (control.x - start.x), y: start.y + 2 / 3 * (control.y - start.y))
                let c2 = Point(x: point.x + 2 / 3 * (control.x - point.x), y: point.y + 2 / 3 * (control.y - point.y))
                cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, point.x, point.y)
                current = point
            case let .curve(point, control1, control2):
                if current == nil { cairo_move_to(context, control1.x, control1.y) }
                cairo_curve_to(context, control1.x, control1.y, control2.x, control2.y, point.x, point.y)
                current = point
            case let .arc(center, radius, start, end, clockwise):
                let radius = max(0, radius)
                if clockwise {
                    cairo_arc(context, center.x, center.y, radius, start, end)
                } else {
                    cairo_arc_negative(context, center.x, center.y, radius, start, end)
                }
                current = ArcGeometry.point(center: center, radius: radius,
                                            angle: ArcGeometry.resolvedEnd(start, end, clockwise))
            case .closeSubpath:
                cairo_close_path(context)
                var x = 0.0, y = 0.0
                cairo_get_current_point(context, &x, &y)
                current = Point(x: x, y: y)
            }
        }
    }
}
