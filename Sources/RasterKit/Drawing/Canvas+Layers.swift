internal import CCairo
import Foundation

extension Canvas {
    /// Draws `body` into a separate layer, then composites the layer with `opacity`,
    /// `blendMode` and an optional `mask` — as a group, so overlapping shapes inside do not
    /// show through each other.
    ///
    /// ```swift
    /// canvas.withLayer(opacity: 0.5, mask: .linearGradient(fade)) {
    ///     canvas.fill(Path(ellipseIn: circle), with: .color(.red))
    /// }
    /// ```
    public func withLayer(opacity: Double = 1, blendMode: BlendMode = .normal, mask: Mask? = nil,
                          _ body: () throws -> Void) rethrows {
        ensureOpen()
        cairo_save(context)
        cairo_push_group(context)
        var drawn = false
        defer {
            if !drawn { cairo_pattern_destroy(cairo_pop_group(context)) }
            cairo_restore(context)
        }
        try body()
        drawn = true
        let group = cairo_pop_group(context)
        defer { cairo_pattern_destroy(group) }
        let alpha = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        cairo_set_operator(context, blendMode.cairoOperator)
        if let mask {
            // Opacity and mask together: mask inside an inner group, then fade the result.
            if alpha < 1 {
                cairo_push_group(context)
                cairo_set_operator(context, CAIRO_OPERATOR_OVER)
            }
            cairo_set_source(context, group)
            apply(mask)
            if alpha < 1 {
                cairo_pop_group_to_source(context)
                cairo_paint_with_alpha(context, alpha)
            }
        } else {
            cairo_set_source(context, group)
            cairo_paint_with_alpha(context, alpha)
        }
        checkStatus("compositing a layer")
    }

    private func apply(_ mask: Mask) {
        switch mask {
        case let .image(image, rect):
            withPattern(of: image, in: rect, filter: CAIRO_FILTER_GOOD, extend: CAIRO_EXTEND_NONE) { cairo_mask(context, $0) }
        case .linearGradient(let gradient):
            let pattern = CairoPatterns.make(gradient)
            cairo_mask(context, pattern)
            cairo_pattern_destroy(pattern)
        case .radialGradient(let gradient):
            let pattern = CairoPatterns.make(gradient)
            cairo_mask(context, pattern)
            cairo_pattern_destroy(pattern)
        }
    }

    /// Draws `body` with a drop shadow under everything it draws.
    ///
    /// ```swift
    /// canvas.withShadow(Shadow(color: .black.withAlpha(0.3), offset: Point(x: 0, y: 2), blur: 6)) {
    ///     canvas.fill(card, with: .color(.white))
    /// }
    /// ```
    public func withShadow(_ shadow: Shadow, _ body: () throws -> Void) rethrows {
        ensureOpen()
        guard let device = deviceShadow(shadow) else { return try body() }
        // Content outside the clip can still cast a shadow into it — from the side the offset
        // points away from, by the offset, plus the blur's reach — so capture that margin, and
        // only on that side: a far offset must not double the layer in every direction.
        let padded = clipDeviceBounds().expanded(byX: device.pad, y: device.pad)
        let area = DeviceRect(x: padded.x - (device.offsetX > 0 ? device.reachX : 0),
                              y: padded.y - (device.offsetY > 0 ? device.reachY : 0),
                              width: padded.width + device.reachX, height: padded.height + device.reachY)
        guard area.width > 0, area.height > 0 else { return try body() }
        let layer: CairoImageSurface
        do {
            layer = try CairoImageSurface(pixelWidth: area.width, pixelHeight: area.height, for: environment)
        } catch {
            record(error)
            return try body()
        }
        try drawRedirected(into: layer, origin: area, body)

        let shadowMask: ShadowMask
        do {
            guard let drawn = try ShadowMask.alpha(of: layer, padding: device.pad, environment: environment) else { return }
            shadowMask = drawn
        } catch {
            return record(error)
        }
        shadowMask.blur(sigma: device.sigma)
        cairo_save(context)
        cairo_identity_matrix(context)
        paint(shadow.color, through: shadowMask.surface, x: Double(area.x + shadowMask.originX) + device.offsetX,
              y: Double(area.y + shadowMask.originY) + device.offsetY)
        cairo_set_source_surface(context, layer.surface, Double(area.x), Double(area.y))
        cairo_paint(context)
        cairo_restore(context)
        checkStatus("drawing a shadow")
    }

    /// Paints a shadow inside `path`, as if the shape were a hole cut in a surface casting it.
    public func drawInnerShadow(_ shadow: Shadow, in path: Path) {
        ensureOpen()
        guard let device = deviceShadow(shadow) else { return }
        addPath(path)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_fill_extents(context, &x0, &y0, &x1, &y1)
        guard let shapeBounds = deviceBounds(ofUserRect: (x0, y0, x1, y1))
            .intersection(clipDeviceBounds()) else { return }
        let area = shapeBounds.expanded(byX: device.pad + device.reachX, y: device.pad + device.reachY)
        let mask: ShadowMask
        do {
            mask = try ShadowMask.opaque(width: area.width, height: area.height, environment: environment)
        } catch {
            return record(error)
        }
        // Opaque everywhere except the shape moved by the offset, then blurred: the shadow the
        // shape's edge casts inward.
        let maskContext = cairo_create(mask.surface)
        var matrix = deviceTransform.concatenating(Transform(translationX: Double(-area.x) + device.offsetX,
                                                             y: Double(-area.y) + device.offsetY)).cairoMatrix
        cairo_set_matrix(maskContext, &matrix)
        addPath(path, to: maskContext!)
        cairo_set_operator(maskContext, CAIRO_OPERATOR_CLEAR)
        cairo_fill(maskContext)
        cairo_destroy(maskContext)
        cairo_surface_flush(mask.surface)
        mask.blur(sigma: device.sigma)

        cairo_save(context)
        addPath(path)
        cairo_clip(context)
        cairo_identity_matrix(context)
        paint(shadow.color, through: mask.surface, x: Double(area.x), y: Double(area.y))
        cairo_restore(context)
        checkStatus("drawing an inner shadow")
    }

    /// Paints `color` through the alpha of `mask` (an A8 surface) placed at device `x`, `y`.
    /// Into a vector document the colour is first composed with the mask into one image: cairo's
    /// SVG surface cannot write an image mask (its viewers show the unmasked colour), and an image
    /// is what both PDF and SVG hold exactly.
    private func paint(_ color: Color, through mask: OpaquePointer, x: Double, y: Double) {
        guard environment.isVector else {
            cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
            cairo_mask_surface(context, mask, x, y)
            return
        }
        let width = cairo_image_surface_get_width(mask), height = cairo_image_surface_get_height(mask)
        guard let shade = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return }
        defer { cairo_surface_destroy(shade) }
        let shadeContext = cairo_create(shade)
        cairo_set_source_rgba(shadeContext, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(shadeContext, mask, 0, 0)
        cairo_destroy(shadeContext)
        cairo_surface_flush(shade)
        cairo_set_source_surface(context, shade, x, y)
        cairo_paint(context)
    }

    /// A shadow in device pixels: its blur's sigma, the pixels of room the blur needs, and its
    /// offset. Nil, with the error recorded, for a shadow over the canvas's ``ResourceLimits``
    /// or one that is not finite — before any of it becomes a surface size.
    private func deviceShadow(_ shadow: Shadow) -> (sigma: Double, pad: Int, offsetX: Double, offsetY: Double,
                                                    reachX: Int, reachY: Int)? {
        let limits = environment.limits
        guard shadow.blur.isFinite, shadow.blur >= 0, shadow.blur <= limits.maximumShadowBlur else {
            record(RenderError.limitExceeded(what: "shadow blur", value: "\(shadow.blur)",
                                             limit: "0...\(limits.maximumShadowBlur.compactDescription) points"))
            return nil
        }
        for offset in [shadow.offset.x, shadow.offset.y] where !(offset.isFinite && abs(offset) <= limits.maximumShadowOffset) {
            record(RenderError.limitExceeded(what: "shadow offset", value: "\(offset)",
                                             limit: "±\(limits.maximumShadowOffset.compactDescription) points"))
            return nil
        }
        let sigma = shadow.blur / 2 * scale
        let offsetX = shadow.offset.x * scale, offsetY = shadow.offset.y * scale
        // In pixels a shadow can still be far larger than any surface: refuse it as one.
        let side = Double(limits.pixels.maximumSide)
        guard 3 * sigma <= side, abs(offsetX) <= side, abs(offsetY) <= side else {
            record(RenderError.limitExceeded(what: "shadow reach in pixels", value: "\(max(3 * sigma, abs(offsetX), abs(offsetY)))",
                                             limit: "\(limits.pixels.maximumSide) pixels"))
            return nil
        }
        return (sigma, Int((3 * sigma).rounded(.up)) + 1, offsetX, offsetY,
                Int(abs(offsetX).rounded(.up)), Int(abs(offsetY).rounded(.up)))
    }

    /// Runs `body` with this canvas drawing into `layer`, whose pixel (0, 0) is at device
    /// position `origin`, keeping the current transform.
    func drawRedirected(into layer: CairoImageSurface, origin: DeviceRect, _ body: () throws -> Void) rethrows {
        let layerContext = cairo_create(layer.surface)!
        var matrix = deviceTransform.concatenating(Transform(translationX: Double(-origin.x), y: Double(-origin.y)))
            .cairoMatrix
        cairo_set_matrix(layerContext, &matrix)
        cairo_set_operator(layerContext, cairo_get_operator(context))
        let saved = (context, baseTransform)
        context = layerContext
        baseTransform = baseTransform.concatenating(Transform(translationX: Double(-origin.x), y: Double(-origin.y)))
        defer {
            checkStatus("drawing into a shadowed layer")
            (context, baseTransform) = saved
            cairo_destroy(layerContext)
            cairo_surface_flush(layer.surface)
        }
        try body()
    }

    /// The clip area in whole device pixels.
    func clipDeviceBounds() -> DeviceRect {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(context, &x0, &y0, &x1, &y1)
        return deviceBounds(ofUserRect: (x0, y0, x1, y1))
    }

    /// The whole-pixel device rectangle covering a user-space rectangle under the current transform.
    func deviceBounds(ofUserRect rect: (Double, Double, Double, Double)) -> DeviceRect {
        let transform = deviceTransform
        let corners = [Point(x: rect.0, y: rect.1), Point(x: rect.2, y: rect.1),
                       Point(x: rect.0, y: rect.3), Point(x: rect.2, y: rect.3)].map { transform.apply(to: $0) }
        let limit = 1e7  // far beyond any surface RasterKit allows; keeps Int conversion safe
        func clamp(_ value: Double) -> Double { min(max(value, -limit), limit) }
        let minX = clamp(corners.map(\.x).min()!).rounded(.down), maxX = clamp(corners.map(\.x).max()!).rounded(.up)
        let minY = clamp(corners.map(\.y).min()!).rounded(.down), maxY = clamp(corners.map(\.y).max()!).rounded(.up)
        return DeviceRect(x: Int(minX), y: Int(minY), width: Int(maxX - minX), height: Int(maxY - minY))
    }
}

/// A rectangle of whole device pixels.
struct DeviceRect: Hashable {
    var x: Int, y: Int, width: Int, height: Int

    func expanded(byX dx: Int, y dy: Int) -> DeviceRect {
        DeviceRect(x: x - dx, y: self.y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    func intersection(_ other: DeviceRect) -> DeviceRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return DeviceRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
