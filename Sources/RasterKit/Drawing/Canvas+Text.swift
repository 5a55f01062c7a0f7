internal import CCairo
internal import CPangoLoader

extension Canvas {
    /// Draws `text` inside `rect`: wrapped to its width (or, when `style.wrapping` is `.none`,
    /// cut with an ellipsis), aligned horizontally and vertically as `style` says, scaled down
    /// first when `style.fit` allows, and clipped to `rect`.
    public func draw(text: String, in rect: Rect, style: TextStyle) {
        draw([TextSpan(text)], in: rect, style: style)
    }

    /// Draws spans of text, each styled as it says over `style`, inside `rect` as
    /// ``draw(text:in:style:)`` draws one text.
    public func draw(_ spans: [TextSpan], in rect: Rect, style: TextStyle) {
        draw(TextRun(spans, style: style), in: rect)
    }

    /// Draws a run of text as ``draw(_:in:style:)`` does.
    func draw(_ run: TextRun, in rect: Rect) {
        ensureOpen()
        let style = run.style
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
            return record(RenderError.invalidSize(rect.size))
        }
        do {
            let fitted = try fittedLayout(run, width: rect.width, height: rect.height)
            let extents = fitted.layout.logicalExtents
            let scale = fitted.scale
            var x = rect.minX
            if !fitted.wraps {
                let free = rect.width - extents.width * scale
                switch TextEngine.physicalAlignment(style.alignment, isRightToLeft: fitted.layout.isRightToLeft) {
                case .center: x += free / 2
                case .right: x += free
                default: break
                }
                x -= extents.x * scale
            }
            var y = rect.minY - extents.y * scale
            switch style.verticalAlignment {
            case .top: break
            case .center: y += (rect.height - extents.height * scale) / 2
            case .bottom: y += rect.height - extents.height * scale
            }
            cairo_save(context)
            cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
            cairo_clip(context)
            show(fitted.layout, at: Point(x: x, y: y), scale: scale, color: style.color)
            cairo_restore(context)
        } catch {
            record(error)
        }
    }

    /// Draws `text` on one line per paragraph, with its top left at `point`.
    public func draw(text: String, at point: Point, style: TextStyle) {
        draw([TextSpan(text)], at: point, style: style)
    }

    /// Draws spans of text on one line per paragraph, with their top left at `point`.
    public func draw(_ spans: [TextSpan], at point: Point, style: TextStyle) {
        ensureOpen()
        do {
            let layout = try laidOut(TextRun(spans, style: style), width: nil)
            show(layout, at: point, scale: 1, color: style.color)
        } catch {
            record(error)
        }
    }

    /// Measures `text` as `draw(text:in:style:)` would lay it out in a rectangle `width` points
    /// wide, or on unwrapped lines when `width` is nil.
    public func measure(text: String, style: TextStyle, width: Double? = nil) -> TextMetrics {
        measure([TextSpan(text)], style: style, width: width)
    }

    /// Measures spans of text as ``draw(_:in:style:)`` would lay them out in a rectangle `width`
    /// points wide and `height` points tall (either nil for no bound). A text that may shrink
    /// (``TextStyle/fit``) is measured at the scale it would be drawn at.
    public func measure(_ spans: [TextSpan], style: TextStyle, width: Double? = nil, height: Double? = nil) -> TextMetrics {
        measure(TextRun(spans, style: style), width: width, height: height)
    }

    /// Measures a run of text as ``measure(_:style:width:height:)`` does; on a measuring canvas,
    /// once per process for each text, box, transform and set of fonts (``TextMeasurements``).
    func measure(_ run: TextRun, width: Double?, height: Double?) -> TextMetrics {
        ensureOpen()
        let height = run.sizeIgnoresHeight ? nil : height
        var key: TextMeasurements.Key?
        if keepsMeasurements {
            var matrix = cairo_matrix_t()
            cairo_get_matrix(context, &matrix)
            let asked = TextMeasurements.Key(run: run, width: width, height: height, xx: matrix.xx, yx: matrix.yx,
                                             xy: matrix.xy, yy: matrix.yy, fonts: FontLibrary.generation, scale: scale,
                                             maximumSide: environment.limits.pixels.maximumSide)
            if let known = TextMeasurements.metrics(for: asked) { return known }
            key = asked
        }
        do {
            let fitted = try fittedLayout(run, width: width, height: height)
            var metrics = fitted.layout.metrics
            metrics.size = Size(width: metrics.size.width * fitted.scale, height: metrics.size.height * fitted.scale)
            metrics.firstBaseline *= fitted.scale
            metrics.scale = fitted.scale
            if let key { TextMeasurements.keep(metrics, for: key) }
            return metrics
        } catch {
            record(error)
            return TextMetrics(size: .zero, lineCount: 0, isTruncated: false, firstBaseline: 0)
        }
    }

    /// A layout of `spans` in a box of `width` × `height` points (nil: unbounded), scaled down by
    /// the largest factor that fits it when the style may shrink. Text whose lines fit the width
    /// unwrapped is laid out without one (the layout its ideal size was measured with), and is
    /// aligned in the box here. A layout is made under the scale it is shown at, so glyphs are
    /// shaped for the size they are drawn at.
    private func fittedLayout(_ run: TextRun, width: Double?, height: Double?) throws
        -> (layout: TextEngine.Layout, scale: Double, wraps: Bool) {
        func layout(at scale: Double) throws -> (layout: TextEngine.Layout, scale: Double, wraps: Bool) {
            let unwrapped = try withScale(scale) { try laidOut(run, width: nil) }
            guard let width, !fitsUnwrapped(unwrapped.logicalExtents.width * scale, width: width) else {
                return (unwrapped, scale, false)
            }
            return (try withScale(scale) { try laidOut(run, width: width / scale) }, scale, true)
        }
        let full = try layout(at: 1)
        guard case .shrink(let requested) = run.style.fit, !fits(full, width: width, height: height) else { return full }
        let minimumScale = TextLimits.minimumScale(requested)
        let smallest = try layout(at: minimumScale)
        guard fits(smallest, width: width, height: height) else { return smallest }
        // Bisection to 1/64 of the range: the largest scale tried that fits.
        var (low, high, best) = (minimumScale, 1.0, smallest)
        for _ in 0..<6 {
            let middle = (low + high) / 2
            let candidate = try layout(at: middle)
            if fits(candidate, width: width, height: height) { (low, best) = (middle, candidate) } else { high = middle }
        }
        return best
    }

    /// A quarter of a pixel: slack for rounding in Pango's units when text is fitted to a box.
    private var fitSlack: Double { 0.25 / max(scale, 1) }

    /// Whether text `unwrappedWidth` points wide laid out without a width is laid out so in
    /// `width` too (`fittedLayout`), and so measures there as it does without one.
    func fitsUnwrapped(_ unwrappedWidth: Double, width: Double) -> Bool {
        unwrappedWidth <= width + fitSlack
    }

    /// Whether a layout shown at its scale fits the box whole: nothing ellipsized, and its lines
    /// within the box.
    private func fits(_ fitted: (layout: TextEngine.Layout, scale: Double, wraps: Bool), width: Double?, height: Double?) -> Bool {
        let extents = fitted.layout.logicalExtents
        return !fitted.layout.isEllipsized
            && (width.map { extents.width * fitted.scale <= $0 + fitSlack } ?? true)
            && (height.map { extents.height * fitted.scale <= $0 + fitSlack } ?? true)
    }

    /// Runs `body` with the canvas scaled by `scale` about the origin.
    private func withScale<Result>(_ scale: Double, _ body: () throws -> Result) rethrows -> Result {
        guard scale != 1 else { return try body() }
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_scale(context, scale, scale)
        return try body()
    }

    /// `spans` laid out by Pango once they are within ``TextLimits`` and the render may go on (a
    /// layout is the one step a deadline cannot interrupt, so it is checked before each new one;
    /// a layout kept from earlier in the draw passed both).
    private func laidOut(_ run: TextRun, width: Double?) throws -> TextEngine.Layout {
        try text.layout(run, width: width, for: context) {
            try environment.checkContinuing()
            try TextLimits.check(run.spans, style: run.style, scale: scale, limits: environment.limits)
        }
    }

    private func show(_ layout: TextEngine.Layout, at point: Point, scale: Double, color: Color) {
        cairo_save(context)
        cairo_translate(context, point.x, point.y)
        if scale != 1 { cairo_scale(context, scale, scale) }
        cairo_move_to(context, 0, 0)
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
        rk_pango_cairo_show_layout(context, layout.layout)
        cairo_restore(context)
        checkStatus("drawing text")
    }
}
