import Foundation
import RasterKit
internal import Yams

extension ManifestParser {
    static let parameterKeys = ["type", "default", "maxLength", "min", "max", "pattern", "enum", "folder"]
    /// The most icons an svg parameter's folder may hold.
    static let maximumIcons = 10_000
    /// Query keys the server reads itself: a parameter cannot be named like one.
    static let reservedParameterNames: Set<String> = ["size", "scale", "v", "exp", "sig", "appearance", "tint"]
    static let maximumParameters = 64

    /// `parameters: {name: type | {type:, default:, maxLength:, min:, max:, pattern:, enum: […]}, …}`.
    func parameters(_ node: Node, _ what: String) -> [Manifest.Parameter]? {
        guard reader.usable(node, what) else { return nil }
        guard let mapping = node.mapping, mapping.count <= Self.maximumParameters else {
            reader.problem("\(what) must be a mapping of at most \(Self.maximumParameters) parameter names to their "
                           + "declarations, not \(node.kindDescription)", at: node)
            return nil
        }
        var parameters: [Manifest.Parameter] = []
        for (key, value) in mapping {
            let name = key.scalar?.string ?? ""
            guard VariableSyntax.isName(Substring(name)), name.utf8.count <= 64 else {
                reader.problem("parameter name \"\(name)\" must be at most 64 characters, start with a letter or '_' and hold "
                               + "only letters, digits, '_' and '-'", at: key)
                continue
            }
            guard !Self.reservedParameterNames.contains(name) else {
                reader.problem("parameter name \"\(name)\" is a query key the server reads itself (one of "
                               + "\(Self.reservedParameterNames.sorted().joined(separator: ", "))); name it otherwise", at: key)
                continue
            }
            if let parameter = parameter(name, value, "parameter \"\(name)\" in \(what)") { parameters.append(parameter) }
        }
        return parameters
    }

    private func parameter(_ name: String, _ node: Node, _ what: String) -> Manifest.Parameter? {
        // `title: string`: a type alone.
        if let typeName = node.scalar?.string {
            guard let kind = simpleKind(typeName, node, what) else { return nil }
            return declared(Manifest.Parameter(name: name, kind: kind, defaultValue: ""), defaultNode: nil, at: node, what)
        }
        guard let fields = Fields(node, owner: what, allowed: Self.parameterKeys, reader: reader) else { return nil }
        var kind: Manifest.Parameter.Kind?
        if let list = fields["enum"] {
            kind = choices(list, fields.what("enum")).map { .choice($0) }
            if let typeNode = fields["type"], typeNode.scalar?.string != "enum" {
                reader.problem("\(fields.what("type")) must be enum, or left out, when enum lists the values", at: typeNode)
            }
        } else if let typeNode = fields.require("type", "string, int, number, bool, color, svg, or enum: [values]") {
            kind = reader.string(typeNode, fields.what("type")).flatMap { simpleKind($0, typeNode, fields.what("type")) }
        }
        guard let kind else { return nil }
        var parameter = Manifest.Parameter(name: name, kind: kind, defaultValue: "")
        if let node = fields["maxLength"] {
            guard kind == .string else {
                reader.problem("\(fields.what("maxLength")) applies to string parameters only", at: node)
                return nil
            }
            if let length = reader.integer(node, fields.what("maxLength"), minimum: 1) {
                guard length <= Manifest.Parameter.longestValue else {
                    reader.problem("\(fields.what("maxLength")) must be at most \(Manifest.Parameter.longestValue)", at: node)
                    return nil
                }
                parameter.maximumLength = length
            }
        }
        for key in ["min", "max"] {
            guard let node = fields[key] else { continue }
            guard kind == .int || kind == .number else {
                reader.problem("\(fields.what(key)) applies to int and number parameters only", at: node)
                return nil
            }
            let value = reader.number(node, fields.what(key))
            if key == "min" { parameter.minimum = value } else { parameter.maximum = value }
        }
        if let minimum = parameter.minimum, let maximum = parameter.maximum, minimum > maximum {
            reader.problem("\(what): min \(minimum.compactDescription) is more than max \(maximum.compactDescription)",
                           at: fields["min"] ?? node)
            return nil
        }
        if let node = fields["pattern"] {
            guard kind == .string else {
                reader.problem("\(fields.what("pattern")) applies to string parameters only", at: node)
                return nil
            }
            if let pattern = reader.string(node, fields.what("pattern")) {
                guard pattern.utf8.count <= 256, (try? Regex(pattern)) != nil else {
                    reader.problem("\(fields.what("pattern")) must be a regular expression of at most 256 bytes", at: node)
                    return nil
                }
                parameter.pattern = pattern
            }
        }
        if let node = fields["folder"] {
            guard kind == .svg else {
                reader.problem("\(fields.what("folder")) applies to svg parameters only", at: node)
                return nil
            }
            guard let folder = iconFolder(node, fields.what("folder")) else { return nil }
            (parameter.folder, parameter.icons) = folder
        }
        return declared(parameter, defaultNode: fields["default"], at: node, what)
    }

    /// `folder: icons`: a folder inside the manifest's, and the icons under it (hidden files
    /// skipped, links to folders not followed), each folder and file stamped as an input.
    private func iconFolder(_ node: Node, _ what: String) -> (String, Set<String>)? {
        guard var folder = reader.string(node, what) else { return nil }
        while folder.hasSuffix("/") { folder.removeLast() }
        let segments = folder.split(separator: "/", omittingEmptySubsequences: false)
        guard !folder.isEmpty, !folder.hasPrefix("/"), segments.allSatisfy({ ManifestNames.isSafe(String($0)) }) else {
            reader.problem("\(what) must be the relative path of a folder inside the manifest's folder, each part "
                           + ManifestNames.rule, at: node)
            return nil
        }
        guard let found = SVGFileWalker.files(in: reader.files.fullPath(folder), extensions: ["svg"], noting: reader.files.inputs)
        else {
            reader.problem("\(what): cannot read the folder \(folder)", at: node)
            return nil
        }
        guard found.count <= Self.maximumIcons else {
            reader.problem("\(what): \(folder) holds \(found.count) SVGs; an icon folder holds at most \(Self.maximumIcons)", at: node)
            return nil
        }
        // Only names a value could spell: each part as safe as any other name in a manifest.
        let names = found.map { String($0.relativePath.dropLast(4)) }
            .filter { $0.split(separator: "/").allSatisfy { ManifestNames.isSafe(String($0)) } }
        return (folder, Set(names))
    }

    /// `parameter` with its default: the one written, checked against the declaration, or the
    /// type's own (empty text, the minimum or 0, false, the first word, black).
    private func declared(_ parameter: Manifest.Parameter, defaultNode: Node?, at node: Node,
                          _ what: String) -> Manifest.Parameter? {
        var parameter = parameter
        let written = defaultNode.flatMap { reader.string($0, "default of \(what)") }
        let fallback: String? = switch parameter.kind {
        case .string: ""
        case .int, .number: (parameter.minimum ?? min(0, parameter.maximum ?? 0)).compactDescription
        case .bool: "false"
        case .color: "#000000"
        case .choice(let words): words.first
        case .svg: nil
        }
        guard let value = written ?? fallback else {
            reader.problem("\(what) needs a default (an .svg file beside the manifest, or an icon of its folder)", at: node)
            return nil
        }
        do {
            parameter.defaultValue = try parameter.validated(value)
        } catch {
            reader.problem("default of \(what): \(error.reason)", at: defaultNode ?? node)
            return nil
        }
        return parameter
    }

    private func simpleKind(_ name: String, _ node: Node, _ what: String) -> Manifest.Parameter.Kind? {
        switch name {
        case "string": return .string
        case "int": return .int
        case "number": return .number
        case "bool": return .bool
        case "color": return .color
        case "svg": return .svg
        case "enum":
            reader.problem("\(what): an enum lists its values, as enum: [a, b]", at: node)
            return nil
        default:
            let names = ["string", "int", "number", "bool", "color", "svg", "enum"]
            reader.problem("\(what) has unknown type \"\(name)\"" + Suggestion.hint(for: name, in: names)
                           + "; expected one of \(Fields.list(names))", at: node)
            return nil
        }
    }

    /// `[flat, square]`: 1 to 256 distinct words of at most 64 characters.
    private func choices(_ node: Node, _ what: String) -> [String]? {
        guard let items = node.sequence, (1...256).contains(items.count) else {
            reader.problem("\(what) must list 1 to 256 values, not \(node.kindDescription)", at: node)
            return nil
        }
        let words = items.compactMap { reader.string($0, "a value in \(what)") }
        guard words.count == items.count else { return nil }
        guard words.allSatisfy({ !$0.isEmpty && $0.count <= 64 }), Set(words).count == words.count else {
            reader.problem("\(what) must list distinct values of 1 to 64 characters", at: node)
            return nil
        }
        return words
    }
}

extension ManifestParser {
    /// `names: "{slug}"`: a data batch's names template, checked now.
    func namesTemplate(_ node: Node, _ what: String) -> String? {
        guard let text = reader.string(node, what) else { return nil }
        do { _ = try RecordNameTemplate(text) } catch {
            reader.problem("\(what): \(error.reason)", at: node)
            return nil
        }
        return text
    }
}
