import RasterKit
internal import Yams

extension ManifestReader {
    /// `[x, y]`.
    func point(_ node: Node, _ what: String) -> Point? {
        numbers(node, what, counts: [2]).map { Point(x: $0[0], y: $0[1]) }
    }

    /// `[x, y, width, height]`, with a size that is not negative.
    func rect(_ node: Node, _ what: String) -> Rect? {
        guard let values = numbers(node, what, counts: [4]) else { return nil }
        guard values[2] >= 0, values[3] >= 0 else {
            problem("\(what) must be [x, y, width, height] with a width and height of at least 0", at: node)
            return nil
        }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// `N` on every edge, `[vertical, horizontal]`, `[top, left, bottom, right]`, or a mapping
    /// of `top`, `left`, `bottom` and `right` (missing edges 0).
    func insets(_ node: Node, _ what: String, minimum: Double? = nil) -> EdgeInsets? {
        guard usable(node, what) else { return nil }
        switch node {
        case .scalar:
            return number(node, what, minimum: minimum).map { EdgeInsets(all: $0) }
        case .mapping:
            guard let fields = Fields(node, owner: what, allowed: ["top", "left", "bottom", "right"], reader: self) else {
                return nil
            }
            func edge(_ key: String) -> Double { fields.read(key) { number($0, $1, minimum: minimum) } ?? 0 }
            return EdgeInsets(top: edge("top"), left: edge("left"), bottom: edge("bottom"), right: edge("right"))
        default:
            guard let sequence = node.sequence, [1, 2, 4].contains(sequence.count) else {
                problem("\(what) must be a number, [vertical, horizontal] or [top, left, bottom, right], "
                        + "not \(node.kindDescription)", at: node)
                return nil
            }
            guard let values = numbers(node, what, counts: [1, 2, 4], minimum: minimum) else { return nil }
            switch values.count {
            case 1: return EdgeInsets(all: values[0])
            case 2: return EdgeInsets(horizontal: values[1], vertical: values[0])
            default: return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
            }
        }
    }

    /// `N` on every corner, `[topLeft, topRight, bottomRight, bottomLeft]`, or a mapping of them.
    func radii(_ node: Node, _ what: String) -> CornerRadii? {
        guard usable(node, what) else { return nil }
        switch node {
        case .scalar:
            return number(node, what, minimum: 0).map { CornerRadii(all: $0) }
        case .mapping:
            let corners = ["topLeft", "topRight", "bottomRight", "bottomLeft"]
            guard let fields = Fields(node, owner: what, allowed: corners, reader: self) else { return nil }
            let values = corners.map { corner in fields.read(corner) { number($0, $1, minimum: 0) } ?? 0 }
            return CornerRadii(topLeft: values[0], topRight: values[1], bottomRight: values[2], bottomLeft: values[3])
        default:
            guard let values = numbers(node, what, counts: [4], minimum: 0) else { return nil }
            return CornerRadii(topLeft: values[0], topRight: values[1], bottomRight: values[2], bottomLeft: values[3])
        }
    }

    /// `{translate: [x, y], rotate: degrees, scale: s | [sx, sy], origin: [fx, fy]}`.
    func transform(_ node: Node, _ what: String) -> LayerTransform? {
        let keys = ["translate", "rotate", "scale", "origin"]
        guard let fields = Fields(node, owner: what, allowed: keys, reader: self) else { return nil }
        var transform = LayerTransform()
        if let translation = fields.read("translate", { point($0, $1) }) { transform.translation = translation }
        if let rotation = fields.read("rotate", { number($0, $1) }) { transform.rotation = rotation }
        if let origin = fields.read("origin", { point($0, $1) }) { transform.origin = origin }
        if let scale = fields["scale"] {
            if scale.sequence != nil {
                if let values = numbers(scale, fields.what("scale"), counts: [2]) {
                    transform.scale = Point(x: values[0], y: values[1])
                }
            } else if let factor = number(scale, fields.what("scale")) {
                transform.scale = Point(x: factor, y: factor)
            }
        }
        return transform
    }

    /// The frame, opacity, blend mode and visibility every layer may have.
    func common(_ fields: Fields) -> (common: LayerCommon, visible: Bool) {
        var common = LayerCommon()
        if fields["frame"] != nil, fields["inset"] != nil {
            problem("\(fields.owner) has both \"frame\" and \"inset\"; give one", at: fields["inset"])
        }
        if let frame = fields.read("frame", { rect($0, $1) }) {
            common.frame = .rect(frame)
        } else if let inset = fields.read("inset", { insets($0, $1) }) {
            common.frame = .inset(inset)
        }
        if let opacity = fields.read("opacity", { number($0, $1, minimum: 0, maximum: 1) }) { common.opacity = opacity }
        if let mode = fields.read("blendMode", { choice($0, $1, BlendMode.self) }) { common.blendMode = mode }
        let visible = fields.read("visible", { bool($0, $1) }) ?? true
        return (common, visible)
    }

    static let commonKeys = ["frame", "inset", "opacity", "blendMode", "visible"]
}
