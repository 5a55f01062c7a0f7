import RasterKit
import Foundation

/// Writes the `Contents.json` files of an Xcode asset catalog, formatted the way Xcode writes
/// them (sorted keys, two-space indent, `"key" : value`), so opening the catalog in Xcode
/// changes nothing.
///
/// Slices follow Xcode's own slicing: each image entry carries `resizing` with `mode` `9-part`,
/// `cap-insets` in that image's pixels, and a `center` that stretches the pixels between the caps.
enum XCAssetsExport {
    /// One image of an image set.
    struct Image: Hashable {
        var filename: String
        /// nil for a single-scale (vector) image.
        var scale: Double?
        /// Cap insets in the image's pixels, and the width and height of the centre between them.
        var slices: Slices?
        /// The appearance it is for; `light` images carry no `appearances` entry.
        var appearance: Appearance = .light
        /// `alignment-insets` in the image's pixels; nil for none.
        var alignment: PixelInsets?
    }

    /// Insets in whole pixels of one image.
    struct PixelInsets: Hashable {
        var top: Int, left: Int, bottom: Int, right: Int
    }

    /// Optical insets in points as `alignment-insets` of an image at `scale`: in its pixels, as
    /// Xcode writes them.
    static func alignment(_ insets: EdgeInsets, scale: Double) -> PixelInsets {
        func pixels(_ points: Double) -> Int { Int((points * scale).rounded()) }
        return PixelInsets(top: pixels(insets.top), left: pixels(insets.left), bottom: pixels(insets.bottom),
                           right: pixels(insets.right))
    }

    struct Slices: Hashable {
        var top: Int, left: Int, bottom: Int, right: Int
        var centerWidth: Int, centerHeight: Int
    }

    /// The catalog's own `Contents.json`.
    static func catalogContents() -> Data {
        Data(JSONValue.object(["info": info]).formatted().utf8)
    }

    /// An image set's `Contents.json`, listing `images` in order (each dark or high-contrast one
    /// with its `appearances`, as Xcode writes them); a template's says so in its
    /// `properties` (`template-rendering-intent`), as Xcode writes it.
    /// `preservesVectors` adds `preserves-vector-representation` for an image set of PDFs.
    static func imageSetContents(_ images: [Image], isTemplate: Bool = false, preservesVectors: Bool = false) -> Data {
        let entries: [JSONValue] = images.map { image in
            var entry: [String: JSONValue] = ["filename": .string(image.filename), "idiom": .string("universal")]
            if let scale = image.scale { entry["scale"] = .string("\(scale.compactDescription)x") }
            if let (kind, value) = image.appearance.catalogEntry {
                entry["appearances"] = .array([.object(["appearance": .string(kind), "value": .string(value)])])
            }
            if let alignment = image.alignment {
                entry["alignment-insets"] = .object(["top": .number(alignment.top), "left": .number(alignment.left),
                                                     "bottom": .number(alignment.bottom), "right": .number(alignment.right)])
            }
            if let slices = image.slices {
                entry["resizing"] = .object([
                    "mode": .string("9-part"),
                    "center": .object(["mode": .string("stretch"), "width": .number(slices.centerWidth),
                                       "height": .number(slices.centerHeight)]),
                    "cap-insets": .object(["top": .number(slices.top), "left": .number(slices.left),
                                           "bottom": .number(slices.bottom), "right": .number(slices.right)]),
                ])
            }
            return .object(entry)
        }
        var root: [String: JSONValue] = ["images": .array(entries), "info": info]
        var properties: [String: JSONValue] = [:]
        if isTemplate { properties["template-rendering-intent"] = .string("template") }
        if preservesVectors { properties["preserves-vector-representation"] = .bool(true) }
        if !properties.isEmpty { root["properties"] = .object(properties) }
        return Data(JSONValue.object(root).formatted().utf8)
    }

    private static let info = JSONValue.object(["author": .string("xcode"), "version": .number(1)])

    /// The slices of a render `pixelWidth` × `pixelHeight` with `caps` (points) at `scale`.
    static func slices(caps: EdgeInsets, scale: Double, pixelWidth: Int, pixelHeight: Int) -> Slices {
        let pixels = NineSlice.pixelCaps(caps, scale: scale, width: pixelWidth, height: pixelHeight)
        return Slices(top: pixels.top, left: pixels.left, bottom: pixels.bottom, right: pixels.right,
                      centerWidth: pixelWidth - pixels.left - pixels.right,
                      centerHeight: pixelHeight - pixels.top - pixels.bottom)
    }
}

/// The few JSON values asset catalogs need, written deterministically.
enum JSONValue: Hashable {
    case string(String)
    case number(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Xcode's layout: sorted keys, two spaces per level, a trailing newline.
    func formatted() -> String { write(indent: "") + "\n" }

    private func write(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .string(let text): return JSONValue.quote(text)
        case .number(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .array(let values):
            guard !values.isEmpty else { return "[\n\n\(indent)]" }
            return "[\n" + values.map { inner + $0.write(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            let lines = members.sorted { $0.key < $1.key }.map { key, value in
                inner + JSONValue.quote(key) + " : " + value.write(indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    private static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
