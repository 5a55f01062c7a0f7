internal import CCairo

/// Translations from RasterKit's value types to cairo's enums, and cairo status checks. Every
/// cairo status RasterKit reads goes through `CairoStatus`.
enum CairoStatus {
    /// Throws ``RenderError/cairo(status:context:)`` unless `status` is success.
    static func check(_ status: cairo_status_t, _ context: @autoclosure () -> String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw RenderError.cairo(status: String(cString: cairo_status_to_string(status)), context: context())
    }
}

extension BlendMode {
    var cairoOperator: cairo_operator_t {
        switch self {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .plusLighter: CAIRO_OPERATOR_ADD
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        }
    }
}

extension FillRule {
    var cairoFillRule: cairo_fill_rule_t { self == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING }
}

extension StrokeStyle.LineCap {
    var cairoLineCap: cairo_line_cap_t {
        switch self {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension StrokeStyle.LineJoin {
    var cairoLineJoin: cairo_line_join_t {
        switch self {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}

extension Gradient.Extend {
    var cairoExtend: cairo_extend_t {
        switch self {
        case .pad: CAIRO_EXTEND_PAD
        case .repeat: CAIRO_EXTEND_REPEAT
        case .reflect: CAIRO_EXTEND_REFLECT
        case .none: CAIRO_EXTEND_NONE
        }
    }
}

extension Interpolation {
    var cairoFilter: cairo_filter_t {
        switch self {
        case .nearest: CAIRO_FILTER_NEAREST
        case .bilinear: CAIRO_FILTER_BILINEAR
        case .good: CAIRO_FILTER_GOOD
        case .best: CAIRO_FILTER_BEST
        }
    }
}

extension Transform {
    init(_ matrix: cairo_matrix_t) {
        self.init(a: matrix.xx, b: matrix.yx, c: matrix.xy, d: matrix.yy, tx: matrix.x0, ty: matrix.y0)
    }

    var cairoMatrix: cairo_matrix_t { cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty) }
}

/// Sets a cairo pattern from a gradient and returns it (+1 reference), or nil when cairo could
/// not make one; the caller destroys it.
enum CairoPatterns {
    static func make(_ gradient: LinearGradient) -> OpaquePointer? {
        let pattern = cairo_pattern_create_linear(gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y)
        addStops(gradient.gradient, to: pattern)
        return pattern
    }

    static func make(_ gradient: RadialGradient) -> OpaquePointer? {
        let pattern = cairo_pattern_create_radial(gradient.startCenter.x, gradient.startCenter.y,
                                                  max(0, gradient.startRadius), gradient.endCenter.x,
                                                  gradient.endCenter.y, max(0, gradient.endRadius))
        addStops(gradient.gradient, to: pattern)
        return pattern
    }

    private static func addStops(_ gradient: Gradient, to pattern: OpaquePointer?) {
        for stop in gradient.stops {
            let color = stop.color
            cairo_pattern_add_color_stop_rgba(pattern, min(max(stop.location, 0), 1), color.red, color.green,
                                              color.blue, color.alpha)
        }
        cairo_pattern_set_extend(pattern, gradient.extend.cairoExtend)
    }
}
