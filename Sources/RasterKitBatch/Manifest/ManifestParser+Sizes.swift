import RasterKit
import Foundation
internal import Yams

extension ManifestParser {
    /// The largest side RasterKit draws, in pixels, and the most pixels in one image.

    /// Pixels per point: a list of numbers greater than 0 (or one number).
    func scales(_ node: Node, _ what: String) -> [Double]? {
        guard node.sequence?.isEmpty != true else {
            reader.problem("\(what) must list at least one scale", at: node)
            return nil
        }
        return positiveNumbers(node, "a scale in \(what)", maximum: 16)
    }

    /// One number or a list of them, each above 0 and at most `maximum`, without repeats; nil
    /// when any is not (each such one is reported as `item`).
    private func positiveNumbers(_ node: Node, _ item: String, maximum: Double) -> [Double]? {
        let list = node.sequence.map(Array.init) ?? [node]
        let values = list.map { reader.number($0, item, above: 0, maximum: maximum) }
        return values.contains(nil) ? nil : values.compactMap { $0 }.uniqued()
    }

    /// Each entry: `{width, height, caps, content}`, `"160x44"`, or one number for a square.
    func sizes(_ node: Node, _ what: String, caps: EdgeInsets?, content: EdgeInsets?, scales: [Double]) -> [SizeSpec] {
        let list = node.sequence.map(Array.init) ?? [node]
        var sizes: [SizeSpec] = []
        for entry in list {
            guard var spec = size(entry, "a size in \(what)") else { continue }
            spec.caps = spec.caps ?? caps
            spec.content = spec.content ?? content
            guard validate(spec, at: entry, scales: scales) else { continue }
            // Each size names one file, so a size listed again must be the same entry.
            if let earlier = sizes.first(where: { $0.size == spec.size && $0.measuredWidth == spec.measuredWidth
                                                  && $0.measuredHeight == spec.measuredHeight }) {
                if earlier.caps != spec.caps || earlier.content != spec.content {
                    let line = earlier.location.map { " on line \($0.line)" } ?? ""
                    reader.problem("\(spec.size) is already in \(what)\(line) with other caps or content insets; "
                                   + "each size is one file, so list it once", at: entry)
                }
                continue
            }
            sizes.append(spec)
        }
        return sizes
    }

    private func size(_ node: Node, _ what: String) -> SizeSpec? {
        guard reader.usable(node, what) else { return nil }
        let maximum = Double(reader.limits.pixels.maximumSide)
        if node.mapping != nil {
            let keys = ["width", "height", "caps", "content", "minWidth", "maxWidth", "minHeight", "maxHeight"]
            guard let fields = Fields(node, owner: what, allowed: keys, reader: reader) else { return nil }
            let width = fields.require("width").flatMap { length($0, fields, axis: "width") }
            let height = fields.require("height").flatMap { length($0, fields, axis: "height") }
            let caps = fields.read("caps") { reader.insets($0, $1, minimum: 0) }
            let content = fields.read("content") { reader.insets($0, $1, minimum: 0) }
            guard let width, let height else { return nil }
            var spec = SizeSpec(size: Size(width: width.length, height: height.length), caps: caps, content: content,
                                location: node.location)
            spec.measuredWidth = width.measured
            spec.measuredHeight = height.measured
            if spec.caps != nil, width.measured != nil || height.measured != nil {
                reader.problem("\(what) has caps and a length measured from its layers; a resizable component is drawn "
                               + "once and stretched, so give it a fixed size", at: fields["caps"])
                return nil
            }
            return spec
        }
        guard let text = node.scalar?.string else {
            reader.problem("\(what) must be {width, height}, \"WxH\" or a number, not \(node.kindDescription)", at: node)
            return nil
        }
        if ManifestReader.decimal(text) != nil {
            guard let side = reader.number(node, what, above: 0, maximum: maximum) else { return nil }
            return SizeSpec(size: Size(side), location: node.location)
        }
        let parts = text.lowercased().replacingOccurrences(of: "×", with: "x")
            .split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = ManifestReader.decimal(String(parts[0]).trimmingCharacters(in: .whitespaces)),
              let height = ManifestReader.decimal(String(parts[1]).trimmingCharacters(in: .whitespaces)) else {
            reader.problem("\(what) must be {width, height}, \"WxH\" or a number, not \(node.kindDescription)", at: node)
            return nil
        }
        guard width > 0, height > 0, width <= maximum, height <= maximum else {
            reader.problem("\(what) must be between 0 and \(Int(maximum)) points on each side, not \(text)", at: node)
            return nil
        }
        return SizeSpec(size: Size(width: width, height: height), location: node.location)
    }

    /// A length (`width: 160`), or `auto` with bounds from `minWidth`/`maxWidth`: measured
    /// from the layers, and until then its minimum (1 point unless given; the maximum is the longest
    /// side RasterKit draws unless given).
    private func length(_ node: Node, _ fields: Fields, axis: String) -> (length: Double, measured: Manifest.MeasuredLength?)? {
        let maximum = Double(reader.limits.pixels.maximumSide)
        let bounds = ["min" + axis.capitalized, "max" + axis.capitalized]
        guard node.scalar?.string == "auto" else {
            for key in bounds where fields[key] != nil {
                reader.problem("\(key) bounds a length measured from the layers; give \(axis): auto or drop \(key)",
                               at: fields[key])
            }
            return reader.number(node, fields.what(axis), above: 0, maximum: maximum).map { ($0, nil) }
        }
        let low = fields.read(bounds[0]) { reader.number($0, $1, above: 0, maximum: maximum) } ?? 1
        let high = fields.read(bounds[1]) { reader.number($0, $1, above: 0, maximum: maximum) } ?? maximum
        guard low <= high else {
            reader.problem("\(bounds[0]) \(low.compactDescription) is above \(bounds[1]) \(high.compactDescription) in \(fields.owner)",
                           at: fields[bounds[0]])
            return nil
        }
        return (low, Manifest.MeasuredLength(minimum: low, maximum: high))
    }

    /// Caps and content insets must leave a centre, and every scale must fit the pixel limits.
    private func validate(_ spec: SizeSpec, at node: Node, scales: [Double]) -> Bool {
        let size = spec.size
        for (insets, name) in [(spec.caps, "caps"), (spec.content, "content")] {
            guard let insets else { continue }
            if insets.horizontal >= size.width || insets.vertical >= size.height {
                reader.problem("\(name) \(Self.describe(insets)) need more than \(insets.horizontal.compactDescription)×"
                               + "\(insets.vertical.compactDescription) points, but the size is \(size)", at: node)
                return false
            }
        }
        // A capped component is drawn at its minimum frame; anything else at its full size.
        let drawn = spec.caps?.minimumFrame ?? size
        for scale in scales {
            let width = drawn.width * scale, height = drawn.height * scale
            let side = Double(reader.limits.pixels.maximumSide)
            if width > side || height > side || width * height > Double(reader.limits.pixels.maximumPixelCount) {
                reader.problem("\(size) points at \(scale.compactDescription)x is \(Int(width))×\(Int(height)) pixels, "
                               + "over RasterKit's limit of \(reader.limits.pixels.maximumSide) pixels a side", at: node)
                return false
            }
        }
        return true
    }

    static func describe(_ insets: EdgeInsets) -> String {
        "[" + [insets.top, insets.left, insets.bottom, insets.right].map(\.compactDescription).joined(separator: ", ") + "]"
    }

    // MARK: SVG entries

    static let svgKeys = ["input", "sizes", "scales", "tint", "mode", "out", "post"]

    func svgEntries(_ node: Node, defaultScales: [Double]?) -> [Manifest.SVGEntry] {
        guard reader.usable(node, "svgs") else { return [] }
        guard let list = node.sequence else {
            reader.problem("svgs must be a list of entries, not \(node.kindDescription)", at: node)
            return []
        }
        return list.compactMap { svgEntry($0, defaultScales: defaultScales) }
    }

    private func svgEntry(_ node: Node, defaultScales: [Double]?) -> Manifest.SVGEntry? {
        guard let fields = Fields(node, owner: "svgs entry", allowed: Self.svgKeys, reader: reader) else { return nil }
        var inputs: [String] = []
        if let inputNode = fields.require("input", "an SVG file or folder, relative to the manifest") {
            let list = inputNode.sequence.map(Array.init) ?? [inputNode]
            for item in list {
                guard let path = reader.string(item, fields.what("input")) else { continue }
                let full = reader.files.fullPath(path)
                guard FileManager.default.fileExists(atPath: full) else {
                    reader.problem("missing file or folder for input in svgs entry: '\(path)'", at: item)
                    continue
                }
                inputs.append(full)
            }
        }
        let sizesNode = fields.require("sizes", "square sizes in points")
        let sizes = sizesNode.flatMap {
            positiveNumbers($0, "a size in \(fields.what("sizes"))", maximum: Double(reader.limits.pixels.maximumSide))
        }
        let entryScales = fields.read("scales") { scales($0, $1) } ?? defaultScales ?? [1]
        let folder = fields.read("out") { outFolder($0, $1) } ?? ""
        guard let sizes, !inputs.isEmpty else { return nil }
        var batch = SVGBatch(inputs: inputs.map { URL(fileURLWithPath: $0) }, sizes: sizes, scales: entryScales,
                             contentMode: fields.read("mode") { reader.choice($0, $1, ContentMode.self) } ?? .stretch,
                             tint: fields.read("tint") { reader.color($0, $1) })
        batch.post = fields.read("post") { reader.postSteps($0, $1) } ?? []
        return Manifest.SVGEntry(batch: batch, folder: folder, location: node.location)
    }

    /// A folder inside the output directory: relative, without `..`.
    private func outFolder(_ node: Node, _ what: String) -> String? {
        guard let text = reader.string(node, what) else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        guard !text.hasPrefix("/"), !parts.contains("..") else {
            reader.problem("\(what) must be a folder inside --out, not \"\(text)\"", at: node)
            return nil
        }
        return parts.joined(separator: "/")
    }
}

extension ManifestParser {
    /// Optical insets must leave some of `size` and, for a nine-patch, lie outside its content
    /// area: Android marks both on the same bottom and right border lines.
    func checkOptical(_ optical: EdgeInsets, of size: SizeSpec, at node: Node) {
        guard optical.left + optical.right < size.size.width, optical.top + optical.bottom < size.size.height else {
            return reader.problem("opticalInsets \(optical) leave nothing of \(size.size)", at: node)
        }
        guard let content = size.content ?? size.caps else { return }
        if optical.top > content.top || optical.left > content.left || optical.bottom > content.bottom
            || optical.right > content.right {
            reader.problem("opticalInsets \(optical) reach into the content area (inset \(content)) of \(size.size): a "
                           + "nine-patch marks both on its bottom and right borders, so each optical inset must be at most "
                           + "the content inset on its side", at: node)
        }
    }
}
