import RasterKit
internal import Yams

/// Reads a list of layers (variables already filled in) into resolved ``Layer`` values. Each
/// item is a mapping with one key naming its kind: `- roundedRect: {radius: 8, fill: "#2F6FEB"}`.
struct LayerParser {
    /// A `use` layer's request: the component, its state, and the variables passed to it.
    struct Use {
        var component: String
        var componentNode: Node
        var state: String?
        var stateNode: Node?
        var variables: [String: Node]
    }

    let reader: ManifestReader
    /// Resolves a `use` into the child component and its natural size (see
    /// ``ComponentLayer/naturalSize``), or nil after reporting why it cannot be.
    let resolveUse: (Use) -> (component: DeclarativeComponent, naturalSize: Size?)?

    static let kinds = ["rect", "roundedRect", "ellipse", "path", "text", "image", "svg", "group", "use", "stack", "spacer"]

    private static let shapeKeys = ManifestReader.commonKeys + ["fill", "fillRule", "stroke", "shadow", "innerShadow"]
    private static let allowedKeys: [String: [String]] = [
        "rect": shapeKeys, "ellipse": shapeKeys,
        "roundedRect": shapeKeys + ["radius"],
        "path": shapeKeys + ["data", "viewBox"],
        "text": ManifestReader.commonKeys + ["text", "spans", "font", "color", "alignment", "verticalAlignment", "wrapping",
                                              "maxLines", "lineSpacing", "lineHeight", "shadow", "direction", "fit",
                                              "minimumScale"],
        "image": ManifestReader.commonKeys + ["file", "mode", "interpolation"],
        "svg": ManifestReader.commonKeys + ["file", "mode", "tint"],
        "group": ManifestReader.commonKeys + ["layers", "transform", "mask", "shadow"],
        "use": ManifestReader.commonKeys + ["component", "state", "variables"],
        "stack": ManifestReader.commonKeys + ["axis", "spacing", "padding", "alignment", "direction", "children"],
        "spacer": ["visible", "minLength"],
    ]

    func layers(_ node: Node, _ what: String) -> [Layer] {
        guard reader.usable(node, what) else { return [] }
        guard let list = node.sequence else {
            reader.problem("\(what) must be a list of layers, not \(node.kindDescription)", at: node)
            return []
        }
        return list.compactMap { layer($0, stackDepth: nil) }
    }

    /// `stackDepth`: how many stacks the layer is in, nil when it is placed by hand.
    private func layer(_ node: Node, stackDepth: Int?) -> Layer? {
        guard let mapping = node.mapping, mapping.count == 1, let entry = mapping.first,
              let kind = entry.key.scalar?.string else {
            let found = node.mapping.map { "\($0.count) keys" } ?? node.kindDescription
            reader.problem("a layer is a mapping with one key naming its kind (\(Fields.list(Self.kinds))), not \(found)",
                           at: node)
            return nil
        }
        let (kindNode, body) = (entry.key, entry.value)
        guard let allowed = Self.allowedKeys[kind] else {
            reader.problem("unknown layer kind \"\(kind)\"" + Suggestion.hint(for: kind, in: Self.kinds)
                           + "; expected one of \(Fields.list(Self.kinds))", at: kindNode)
            return nil
        }
        // Outside a stack, sizing keys are reported on their own (`sizing`), not as unknown keys
        // among the kind's.
        let sizingKeys = stackDepth != nil ? Self.sizingKeys
            : Self.sizingKeys.filter { key in body.mapping?.contains { $0.key.scalar?.string == key } == true }
        guard let fields = Fields(body, owner: kind, allowed: allowed + sizingKeys, reader: reader) else { return nil }
        var (common, visible) = reader.common(fields)
        common.sizing = sizing(fields, inStack: stackDepth != nil)
        // In a stack, `inset` draws a layer inside the box the stack gives it (a stroke half a
        // point in); a frame would place it by hand.
        if stackDepth != nil, let placed = fields["frame"] {
            reader.problem("\(kind) is in a stack, which places it; size it with width, height, minWidth, maxWidth, "
                           + "minHeight, maxHeight and grow (inset draws it inside its box)", at: placed)
        }
        let layer: Layer?
        switch kind {
        case "text": layer = text(fields, common)
        case "image": layer = image(fields, common)
        case "svg": layer = svg(fields, common)
        case "group": layer = group(fields, common)
        case "use": layer = use(fields, common)
        case "stack": layer = stack(fields, common, depth: (stackDepth ?? 0) + 1, at: kindNode)
        case "spacer": layer = spacer(fields, common, inStack: stackDepth != nil, at: kindNode)
        default: layer = shape(kind, fields, common)
        }
        return visible ? layer : nil
    }

    // MARK: Stacks

    /// The keys that size a layer in a stack.
    static let sizingKeys = ["width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "grow", "align"]

    /// The sizing keys of a layer: only a stack's children may have them.
    private func sizing(_ fields: Fields, inStack: Bool) -> LayoutSizing {
        let given = Self.sizingKeys.filter { fields[$0] != nil }
        // A spacer grows by one share unless told otherwise, as RasterKit's Spacer does.
        let defaultGrow: Double = fields.owner == "spacer" ? 1 : 0
        guard !given.isEmpty else { return LayoutSizing(grow: defaultGrow) }
        guard inStack else {
            reader.problem("\(given[0]) sizes a layer in a stack, and this \(fields.owner) is not in one; "
                           + "place it with frame or inset", at: fields[given[0]])
            return LayoutSizing()
        }
        let maximum = Double(reader.limits.pixels.maximumSide)
        func length(_ key: String) -> Double? { fields.read(key) { reader.number($0, $1, minimum: 0, maximum: maximum) } }
        var sizing = LayoutSizing(width: length("width"), height: length("height"), minWidth: length("minWidth"),
                                  maxWidth: length("maxWidth"), minHeight: length("minHeight"), maxHeight: length("maxHeight"))
        sizing.grow = fields.read("grow") { reader.number($0, $1, minimum: 0, maximum: 1_000_000) } ?? defaultGrow
        sizing.alignment = fields.read("align") { reader.choice($0, $1, Stack.Alignment.self) }
        for (axis, low, high) in [("width", sizing.minWidth, sizing.maxWidth), ("height", sizing.minHeight, sizing.maxHeight)] {
            if let low, let high, low > high {
                reader.problem("min\(axis.capitalized) \(low.compactDescription) is above max\(axis.capitalized) "
                               + "\(high.compactDescription) in \(fields.owner)", at: fields["min" + axis.capitalized])
            }
        }
        return sizing
    }

    private func stack(_ fields: Fields, _ common: LayerCommon, depth: Int, at node: Node) -> Layer? {
        guard depth <= Stack.maximumDepth else {
            reader.problem("stacks are nested more than \(Stack.maximumDepth) deep", at: node)
            return nil
        }
        let maximum = Double(reader.limits.pixels.maximumSide)
        let axis = fields.require("axis", Stack.Axis.allCases.map(\.rawValue).joined(separator: ", "))
            .flatMap { reader.choice($0, fields.what("axis"), Stack.Axis.self) }
        let spacing = fields.read("spacing") { reader.number($0, $1, minimum: 0, maximum: maximum) } ?? 0
        let padding = fields.read("padding") { reader.insets($0, $1, minimum: 0) } ?? .zero
        let alignment = fields.read("alignment") { reader.choice($0, $1, Stack.Alignment.self) } ?? .center
        let direction = fields.read("direction") { reader.choice($0, $1, LayoutDirection.self) }
        guard let childrenNode = fields.require("children", "a list of layers"),
              reader.usable(childrenNode, fields.what("children")) else { return nil }
        guard let list = childrenNode.sequence else {
            reader.problem("\(fields.what("children")) must be a list of layers, not \(childrenNode.kindDescription)",
                           at: childrenNode)
            return nil
        }
        guard list.count <= Stack.maximumChildren else {
            reader.problem("\(fields.what("children")) lists \(list.count) layers; a stack holds at most "
                           + "\(Stack.maximumChildren)", at: childrenNode)
            return nil
        }
        let children = list.compactMap { layer($0, stackDepth: depth) }
        guard let axis else { return nil }
        return .stack(StackLayer(Stack.Arrangement(axis, spacing: spacing, padding: padding, alignment: alignment,
                                                   direction: direction), children: children, common: common))
    }

    private func spacer(_ fields: Fields, _ common: LayerCommon, inStack: Bool, at node: Node) -> Layer? {
        guard inStack else {
            reader.problem("a spacer takes space in a stack, and this one is not in a stack", at: node)
            return nil
        }
        let maximum = Double(reader.limits.pixels.maximumSide)
        let minimum = fields.read("minLength") { reader.number($0, $1, minimum: 0, maximum: maximum) } ?? 0
        return .spacer(SpacerLayer(minimumLength: minimum, common: common))
    }

    // MARK: Kinds

    private func shape(_ kind: String, _ fields: Fields, _ common: LayerCommon) -> Layer? {
        let fill = fields.read("fill") { reader.paint($0, $1) }
        let fillRule = fields.read("fillRule") { reader.choice($0, $1, FillRule.self) } ?? .nonZero
        let stroke = fields.read("stroke") { reader.stroke($0, $1) }
        let shadow = fields.read("shadow") { reader.shadow($0, $1) }
        let innerShadow = fields.read("innerShadow") { reader.shadow($0, $1) }
        let shape: ShapeLayer.Shape
        switch kind {
        case "roundedRect": shape = .roundedRect(fields.read("radius") { reader.radii($0, $1) } ?? CornerRadii(all: 0))
        case "ellipse": shape = .ellipse
        case "path":
            let box = fields.read("viewBox") { viewBox($0, $1) }
            guard let dataNode = fields.require("data", "SVG path data"), let path = pathData(dataNode, fields.what("data"))
            else { return nil }
            shape = .path(path, viewBox: box)
        default: shape = .rect
        }
        return .shape(ShapeLayer(shape: shape, common: common, fill: fill, fillRule: fillRule, stroke: stroke,
                                 shadow: shadow, innerShadow: innerShadow))
    }

    /// Path data; a mistake is reported at its own column when the data sits on one line.
    private func pathData(_ node: Node, _ what: String) -> Path? {
        guard let data = reader.string(node, what) else { return nil }
        do {
            return try Path(svgPathData: data)
        } catch let .invalidPathData(offset, message, _) {
            var location = node.location
            if let scalar = node.scalar, !data.contains("\n"), location != nil,
               [.plain, .singleQuoted, .doubleQuoted].contains(scalar.style), !data.contains("\\") {
                location?.column += offset + (scalar.style == .plain ? 0 : 1)
            }
            reader.problems.add("bad path data for \(what) at offset \(offset): \(message)", at: location)
        } catch {
            reader.problem("bad path data for \(what): \(error)", at: node)
        }
        return nil
    }

    /// `[width, height]` or `[x, y, width, height]`, with a positive size.
    private func viewBox(_ node: Node, _ what: String) -> Rect? {
        guard let values = reader.numbers(node, what, counts: [2, 4]) else { return nil }
        let box = values.count == 2 ? Rect(x: 0, y: 0, width: values[0], height: values[1])
            : Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        guard box.width > 0, box.height > 0 else {
            reader.problem("\(what) needs a width and height greater than 0", at: node)
            return nil
        }
        return box
    }

    private func text(_ fields: Fields, _ common: LayerCommon) -> Layer? {
        // Every property is read (and checked) even when the text itself is wrong.
        var style = TextStyle()
        if let font = fields.read("font", { reader.string($0, $1) }) { style.font = font }
        if let color = fields.read("color", { reader.color($0, $1) }) { style.color = color }
        if let value = fields.read("alignment", { reader.choice($0, $1, TextStyle.Alignment.self) }) { style.alignment = value }
        if let value = fields.read("verticalAlignment", { reader.choice($0, $1, TextStyle.VerticalAlignment.self) }) {
            style.verticalAlignment = value
        }
        if let value = fields.read("wrapping", { reader.choice($0, $1, TextStyle.Wrapping.self) }) { style.wrapping = value }
        if let value = fields.read("direction", { reader.choice($0, $1, TextStyle.Direction.self) }) { style.direction = value }
        style.fit = fit(fields)
        style.maxLines = fields.read("maxLines") { reader.integer($0, $1, minimum: 1) }
        let points = Double(reader.limits.pixels.maximumSide)
        if let spacing = fields.read("lineSpacing", { reader.number($0, $1, minimum: -points, maximum: points) }) { style.lineSpacing = spacing }
        if let height = fields.read("lineHeight", { reader.number($0, $1, above: 0, maximum: TextLimits.maximumLineHeightMultiple) }) {
            style.lineHeightMultiple = height
        }
        let shadow = fields.read("shadow") { reader.shadow($0, $1) }
        let spans: [TextSpan]
        if let spansNode = fields["spans"] {
            if let textNode = fields["text"] {
                reader.problem("text has both \"text\" and \"spans\"; give one", at: textNode)
                return nil
            }
            guard let read = TextSpanParser(reader: reader).spans(spansNode, fields.what("spans")) else { return nil }
            spans = read
        } else {
            guard let textNode = fields.require("text", "or spans"), let text = reader.string(textNode, fields.what("text")) else {
                return nil
            }
            spans = [TextSpan(text)]
        }
        // Pango lays out every character, wrapped or clipped or not: megabytes of text cost
        // gigabytes, so a text is held to the same bound as an interpolated string.
        let limit = reader.limits.maximumInterpolatedLength
        let length = spans.reduce(0) { $0 + $1.text.utf8.count }
        guard length <= limit else {
            reader.problem("\(fields.what(fields["spans"] == nil ? "text" : "spans")) is \(length) bytes long; the limit is "
                           + "\(limit) (limits: maxTextLength)", at: fields["text"] ?? fields["spans"])
            return nil
        }
        var layer = TextLayer(spans: spans, style: style, common: common, shadow: shadow)
        layer.fonts = reader.fontsDigest
        return .text(layer)
    }

    /// `fit: shrink` (with `minimumScale`, 0.5 unless given) or `fit: none`.
    private func fit(_ fields: Fields) -> TextStyle.Fit {
        let minimumScale = fields.read("minimumScale") { reader.number($0, $1, above: 0, maximum: 1) }
        guard let fitNode = fields["fit"] else {
            if let given = fields["minimumScale"] {
                reader.problem("minimumScale is how far text shrinks with fit: shrink; add fit: shrink", at: given)
            }
            return .none
        }
        guard let fit = reader.string(fitNode, fields.what("fit")) else { return .none }
        switch fit {
        case "shrink": return .shrink(minimumScale: minimumScale ?? 0.5)
        case "none": return .none
        default:
            reader.problem("unknown value \"\(fit)\" for \(fields.what("fit")); expected one of none, shrink"
                           + Suggestion.hint(for: fit, in: ["none", "shrink"]), at: fitNode)
            return .none
        }
    }

    private func image(_ fields: Fields, _ common: LayerCommon) -> Layer? {
        let mode = fields.read("mode") { reader.choice($0, $1, ContentMode.self) } ?? .aspectFit
        let interpolation = fields.read("interpolation") { reader.choice($0, $1, Interpolation.self) } ?? .good
        guard let fileNode = fields.require("file", "a PNG file, relative to the manifest"),
              let file = reader.pngFile(fileNode, fields.what("file")) else { return nil }
        return .image(ImageLayer(file: file, common: common, contentMode: mode, interpolation: interpolation))
    }

    private func svg(_ fields: Fields, _ common: LayerCommon) -> Layer? {
        let mode = fields.read("mode") { reader.choice($0, $1, ContentMode.self) } ?? .aspectFit
        let tint = fields.read("tint") { reader.color($0, $1) }
        guard let fileNode = fields.require("file", "an SVG file, relative to the manifest"),
              let document = reader.svgFile(fileNode, fields.what("file")) else { return nil }
        var layer = SVGLayer(document: document, common: common, contentMode: mode, tint: tint)
        if reader.fontsDigest != nil, document.mayContainText { layer.fonts = reader.fontsDigest }
        return .svg(layer)
    }

    private func group(_ fields: Fields, _ common: LayerCommon) -> Layer? {
        let transform = fields.read("transform") { reader.transform($0, $1) }
        let groupMask = fields.read("mask") { mask($0, $1) }
        let shadow = fields.read("shadow") { reader.shadow($0, $1) }
        guard let layersNode = fields.require("layers", "a list of layers") else { return nil }
        return .group(GroupLayer(layers: layers(layersNode, fields.what("layers")), common: common, transform: transform,
                                 mask: groupMask, shadow: shadow))
    }

    /// A colour or gradient (`{linear: …}`), whose alpha masks; or `{layers: […]}`, drawn to mask.
    private func mask(_ node: Node, _ what: String) -> LayerMask? {
        guard reader.usable(node, what) else { return nil }
        if let mapping = node.mapping, mapping.count == 1, mapping["layers"] != nil {
            guard let fields = Fields(node, owner: what, allowed: ["layers"], reader: reader),
                  let layersNode = fields["layers"] else { return nil }
            return .layers(layers(layersNode, fields.what("layers")))
        }
        return reader.paint(node, what).map(LayerMask.paint)
    }

    private func use(_ fields: Fields, _ common: LayerCommon) -> Layer? {
        guard let nameNode = fields.require("component", "the name of another component"),
              let name = reader.string(nameNode, fields.what("component")) else { return nil }
        let stateNode = fields["state"]
        let state = stateNode.flatMap { reader.string($0, fields.what("state")) }
        var variables: [String: Node] = [:]
        if let variablesNode = fields["variables"], reader.usable(variablesNode, fields.what("variables")) {
            if let mapping = variablesNode.mapping {
                for (key, value) in mapping { variables[key.scalar?.string ?? ""] = value }
            } else {
                reader.problem("\(fields.what("variables")) must be a mapping of names to values, "
                               + "not \(variablesNode.kindDescription)", at: variablesNode)
            }
        }
        let request = Use(component: name, componentNode: nameNode, state: state, stateNode: stateNode, variables: variables)
        guard let child = resolveUse(request) else { return nil }
        return .component(ComponentLayer(component: child.component, common: common, naturalSize: child.naturalSize))
    }
}
