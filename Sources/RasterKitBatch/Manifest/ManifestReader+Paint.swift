import RasterKit
internal import Yams

extension ManifestReader {
    /// Why a colour may be missing: `fill: #2F6FEB` unquoted is `fill:` followed by a comment.
    private static let quoteColorsHint = "; in YAML '#' starts a comment, so quote colours: \"#2F6FEB\""

    /// A colour as ``Color/init(parsing:)`` reads one: hex digits (with or without `#`) or a CSS
    /// colour name (`white`, `red`, `clear`).
    func color(_ node: Node, _ what: String) -> Color? {
        guard usable(node, what, hint: Self.quoteColorsHint), let text = string(node, what) else { return nil }
        do {
            return try Color(parsing: text)
        } catch {
            problem("bad colour \"\(text)\" for \(what): \(error.reason) (expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA or a CSS colour name)",
                    at: node)
            return nil
        }
    }

    /// A colour, or `{linear: {…}}` / `{radial: {…}}`.
    func paint(_ node: Node, _ what: String) -> LayerPaint? {
        guard usable(node, what, hint: Self.quoteColorsHint) else { return nil }
        if node.scalar != nil { return color(node, what).map(LayerPaint.color) }
        guard let fields = Fields(node, owner: what, allowed: ["linear", "radial"], reader: self) else { return nil }
        guard fields.keys.count == 1 else {
            // With only unknown keys, those were reported already.
            if fields.keys.count > 1 || node.mapping?.count == 0 {
                problem("\(what) must be a colour, or a mapping with one key: linear or radial", at: node)
            }
            return nil
        }
        if let linear = fields["linear"] {
            let keys = ["colors", "stops", "from", "to", "extend"]
            guard let gradientFields = Fields(linear, owner: "linear gradient", allowed: keys, reader: self),
                  let gradient = gradient(gradientFields) else { return nil }
            let start = gradientFields.read("from") { point($0, $1) } ?? Point(x: 0.5, y: 0)
            let end = gradientFields.read("to") { point($0, $1) } ?? Point(x: 0.5, y: 1)
            return .linear(gradient, start: start, end: end)
        }
        guard let radial = fields["radial"] else { return nil }
        let keys = ["colors", "stops", "center", "radius", "extend"]
        guard let gradientFields = Fields(radial, owner: "radial gradient", allowed: keys, reader: self),
              let gradient = gradient(gradientFields) else { return nil }
        let center = gradientFields.read("center") { point($0, $1) } ?? Point(x: 0.5, y: 0.5)
        let radius = gradientFields.read("radius") { number($0, $1, minimum: 0) } ?? 0.5
        return .radial(gradient, center: center, radius: radius)
    }

    /// `colors` (two or more), optional `stops` (0…1, ascending, one per colour) and `extend`.
    private func gradient(_ fields: Fields) -> Gradient? {
        guard let colorsNode = fields.require("colors", "a list of two or more colours") else { return nil }
        let what = fields.what("colors")
        guard usable(colorsNode, what) else { return nil }
        guard let list = colorsNode.sequence, list.count >= 2 else {
            problem("\(what) must be a list of two or more colours, not \(colorsNode.kindDescription)", at: colorsNode)
            return nil
        }
        let colors = list.map { color($0, what) }
        let extend = fields.read("extend") { choice($0, $1, Gradient.Extend.self) } ?? .pad
        guard let stopsNode = fields["stops"] else {
            return colors.contains(nil) ? nil : Gradient(colors: colors.compactMap { $0 }, extend: extend)
        }
        guard let stops = numbers(stopsNode, fields.what("stops"), counts: [list.count], minimum: 0) else { return nil }
        guard stops.allSatisfy({ $0 <= 1 }), zip(stops, stops.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            problem("\(fields.what("stops")) must rise from 0 to 1", at: stopsNode)
            return nil
        }
        guard !colors.contains(nil) else { return nil }
        return Gradient(stops: zip(colors.compactMap { $0 }, stops).map { Gradient.Stop(color: $0, location: $1) },
                        extend: extend)
    }

    /// A colour (one point wide), or `{color, width, cap, join, dash, dashPhase, miterLimit}`.
    func stroke(_ node: Node, _ what: String) -> LayerStroke? {
        guard usable(node, what) else { return nil }
        if node.scalar != nil { return color(node, what).map { LayerStroke(paint: .color($0)) } }
        let keys = ["color", "width", "cap", "join", "dash", "dashPhase", "miterLimit"]
        guard let fields = Fields(node, owner: what, allowed: keys, reader: self),
              let paintNode = fields.require("color", "a colour or gradient"),
              let paint = paint(paintNode, fields.what("color")) else { return nil }
        var style = StrokeStyle()
        if let width = fields.read("width", { number($0, $1, minimum: 0) }) { style.width = width }
        if let cap = fields.read("cap", { choice($0, $1, StrokeStyle.LineCap.self) }) { style.cap = cap }
        if let join = fields.read("join", { choice($0, $1, StrokeStyle.LineJoin.self) }) { style.join = join }
        if let dashNode = fields["dash"] {
            let count = dashNode.sequence?.count ?? 0
            if let dash = numbers(dashNode, fields.what("dash"), counts: [max(count, 1)], minimum: 0) { style.dash = dash }
        }
        if let phase = fields.read("dashPhase", { number($0, $1) }) { style.dashPhase = phase }
        if let limit = fields.read("miterLimit", { number($0, $1, minimum: 1) }) { style.miterLimit = limit }
        return LayerStroke(paint: paint, style: style)
    }

    /// `{color, offset: [x, y], blur}`; by default a soft dark shadow two points down.
    func shadow(_ node: Node, _ what: String) -> Shadow? {
        guard let fields = Fields(node, owner: what, allowed: ["color", "offset", "blur"], reader: self) else { return nil }
        var shadow = Shadow(color: Color(white: 0, alpha: 0.25))
        if let color = fields.read("color", { color($0, $1) }) { shadow.color = color }
        let reach = limits.maximumShadowOffset
        if let offset = fields.read("offset", { point($0, $1) }) {
            if abs(offset.x) <= reach, abs(offset.y) <= reach {
                shadow.offset = offset
            } else {
                problem("\(fields.what("offset")) must lie within ±\(reach.compactDescription) points", at: fields["offset"])
            }
        }
        if let blur = fields.read("blur", { number($0, $1, minimum: 0, maximum: limits.maximumShadowBlur) }) { shadow.blur = blur }
        return shadow
    }
}
