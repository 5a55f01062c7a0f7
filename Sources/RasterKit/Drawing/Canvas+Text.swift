internal import CCairo
internal import CPangoLoader

extension Canvas {
    /// Draws `text` inside `rect`: wrapped to its width (unless `style.wrapping` is `.none`),
    /// aligned horizontally and vertically as `style` says. Text taller than `rect` is not
    /// clipped; use `style.maxLines` to limit it.
    public func draw(text: String, in rect: Rect, style: TextStyle) {
        ensureOpen()
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
            return record(RenderError.invalidSize(rect.size))
        }
        let wraps = style.wrapping != .none || style.maxLines != nil
        do {
            let layout = try laidOut(text, style: style, width: wraps ? rect.width : nil)
            let extents = layout.logicalExtents
            var x = rect.minX
            if !wraps {
                let free = rect.width - extents.width
                switch style.alignment {
                case .left, .justified: x -= extents.x
                case .center: x += free / 2 - extents.x
                case .right: x += free - extents.x
                }
            }
            var y = rect.minY - extents.y
            switch style.verticalAlignment {
            case .top: break
            case .center: y += (rect.height - extents.height) / 2
            case .bottom: y += rect.height - extents.height
            }
            show(layout, at: Point(x: x, y: y), color: style.color)
        } catch {
            record(error)
        }
    }

    /// Draws `text` on one line per paragraph, with its top left at `point`.
    public func draw(text: String, at point: Point, style: TextStyle) {
        ensureOpen()
        do {
            let layout = try laidOut(text, style: style, width: nil)
            show(layout, at: point, color: style.color)
        } catch {
            record(error)
        }
    }

    /// Measures `text` as `draw(text:in:style:)` would lay it out in a rectangle `width` points
    /// wide, or on unwrapped lines when `width` is nil.
    public func measure(text: String, style: TextStyle, width: Double? = nil) -> TextMetrics {
        ensureOpen()
        do {
            return try laidOut(text, style: style, width: width).metrics
        } catch {
            record(error)
            return TextMetrics(size: .zero, lineCount: 0, isTruncated: false, firstBaseline: 0)
        }
    }

    /// `text` laid out by Pango once it is within ``TextLimits`` and the render may go on (a
    /// layout is the one step a deadline cannot interrupt, so it is checked before each).
    private func laidOut(_ text: String, style: TextStyle, width: Double?) throws -> TextEngine.Layout {
        try environment.checkContinuing()
        try TextLimits.check(text, style: style, scale: scale, limits: environment.limits)
        return try self.text.layout(text, style: style, width: width, for: context)
    }

    private func show(_ layout: TextEngine.Layout, at point: Point, color: Color) {
        cairo_save(context)
        cairo_move_to(context, point.x, point.y)
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
        rk_pango_cairo_show_layout(context, layout.layout)
        cairo_restore(context)
        checkStatus("drawing text")
    }
}
