import RasterKit
internal import Yams

extension ManifestReader {
    /// `post:`: a list of steps (or one step), each a name or a mapping of one name to its
    /// parameters. Nil, with every problem recorded, when any step is unusable.
    func postSteps(_ node: Node, _ what: String) -> [PostStep]? {
        guard usable(node, what) else { return nil }
        let entries = node.sequence.map(Array.init) ?? [node]
        let steps = entries.map { postStep($0, what) }
        return steps.contains { $0 == nil } ? nil : steps.compactMap { $0 }
    }

    /// One step: `circle`, or `name: parameters`.
    func postStep(_ node: Node, _ what: String) -> PostStep? {
        guard usable(node, "a step of \(what)") else { return nil }
        let name: String, nameNode: Node, value: Node?
        if let text = node.scalar?.string {
            (name, nameNode, value) = (text, node, nil)
        } else if let mapping = node.mapping, mapping.count == 1, let (key, parameters) = mapping.first {
            (name, nameNode, value) = (key.scalar?.string ?? "", key, parameters)
        } else {
            problem("a step of \(what) must be a name (circle) or one name with its parameters (roundedCorners: 8), "
                    + "not \(node.kindDescription)", at: node)
            return nil
        }
        guard PostStep.names.contains(name) else {
            problem("unknown step \"\(name)\" in \(what)" + Suggestion.hint(for: name, in: PostStep.names)
                    + "; expected one of \(Fields.list(PostStep.names))", at: nameNode)
            return nil
        }
        let step = "\(name) in \(what)"
        if name == "circle" {
            if let value, !value.isNull {
                problem("\(step) takes no parameters; write it as `- circle`", at: value)
                return nil
            }
            return .circle
        }
        guard let value else {
            problem("\(step) needs a value, as in `\(name): …`", at: nameNode)
            return nil
        }
        let side = Double(limits.pixels.maximumSide)
        switch name {
        case "roundedCorners":
            return number(value, step, minimum: 0, maximum: side).map(PostStep.roundedCorners)
        case "tint":
            return color(value, step).map(PostStep.tint)
        case "opacity":
            return number(value, step, minimum: 0, maximum: 1).map(PostStep.opacity)
        case "gaussianBlur":
            return blur(value, step)
        case "padding":
            guard let insets = insets(value, step, minimum: 0) else { return nil }
            guard max(insets.top, insets.left, insets.bottom, insets.right) <= side else {
                problem("\(step) must be at most \(Int(side)) points on each edge", at: value)
                return nil
            }
            return .padding(insets)
        case "resize":
            return resize(value, step)
        case "crop":
            guard let rect = rect(value, step) else { return nil }
            guard rect.width > 0, rect.height > 0, rect.width <= side, rect.height <= side,
                  abs(rect.minX) <= side * 4, abs(rect.minY) <= side * 4 else {
                problem("\(step) must be [x, y, width, height] with a width and height greater than 0 and at most "
                        + "\(Int(side)) points", at: value)
                return nil
            }
            return .crop(rect)
        default:  // dropShadow
            return shadow(value, step).map(PostStep.dropShadow)
        }
    }

    /// `4`, or `{radius: 4, edges: extend}`.
    private func blur(_ node: Node, _ what: String) -> PostStep? {
        let maximum = limits.maximumShadowBlur
        guard node.mapping != nil else {
            return number(node, what, minimum: 0, maximum: maximum).map { .gaussianBlur($0, .transparent) }
        }
        guard let fields = Fields(node, owner: what, allowed: ["radius", "edges"], reader: self),
              let radiusNode = fields.require("radius", "the standard deviation in points"),
              let radius = number(radiusNode, fields.what("radius"), minimum: 0, maximum: maximum) else { return nil }
        let edges = fields.read("edges") { choice($0, $1, RasterProcessors.GaussianBlur.Edges.self) }
        if fields["edges"] != nil, edges == nil { return nil }
        return .gaussianBlur(radius, edges ?? .transparent)
    }

    /// `24`, `[32, 24]`, or `{size: 24 or [32, 24], mode: aspectFill}`.
    private func resize(_ node: Node, _ what: String) -> PostStep? {
        var sizeNode = node, mode = ContentMode.aspectFit
        if node.mapping != nil {
            guard let fields = Fields(node, owner: what, allowed: ["size", "mode"], reader: self),
                  let size = fields.require("size", "a number or [width, height] in points") else { return nil }
            sizeNode = size
            if fields["mode"] != nil {
                guard let chosen = fields.read("mode", { choice($0, $1, ContentMode.self) }) else { return nil }
                mode = chosen
            }
        }
        let side = Double(limits.pixels.maximumSide)
        let values: [Double]?
        if sizeNode.sequence != nil {
            values = numbers(sizeNode, what, counts: [2], minimum: 0)
        } else {
            values = number(sizeNode, what, minimum: 0).map { [$0, $0] }
        }
        guard let values else { return nil }
        guard values.allSatisfy({ $0 > 0 && $0 <= side }) else {
            problem("\(what) must be greater than 0 and at most \(Int(side)) points a side", at: sizeNode)
            return nil
        }
        return .resize(Size(width: values[0], height: values[1]), mode)
    }
}
