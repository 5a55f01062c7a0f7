import RasterKit

/// How a data batch names each record's outputs: text with a record's fields in braces
/// (`{slug}`, `card-{id}`), expanded into a name that must be safe as a file name.
public struct RecordNameTemplate: Hashable, Sendable, CustomStringConvertible {
    private enum Piece: Hashable {
        case text(String)
        case field(String)
    }

    private let pieces: [Piece]
    /// The template as written.
    public let description: String

    /// The fields the template names.
    public var fields: [String] { pieces.compactMap { if case .field(let name) = $0 { name } else { nil } } }

    /// Parses `text`: at most 256 bytes, naming at least one field, braces balanced around names.
    public init(_ text: String) throws(ParameterError) {
        func refuse(_ reason: String) -> ParameterError {
            ParameterError(names: text, reason: reason)
        }
        guard !text.isEmpty, text.utf8.count <= 256 else { throw refuse("a names template is 1 to 256 bytes") }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw refuse("a { is not closed") }
            let name = rest[rest.index(after: open)..<close]
            guard VariableSyntax.isName(name) else { throw refuse("{\(name)} is not a field name") }
            pieces.append(.field(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { throw refuse("a } has no {") }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        guard pieces.contains(where: { if case .field = $0 { true } else { false } }) else {
            throw refuse("it names no field, so every record would get the same name; put one in braces, as {slug}")
        }
        self.pieces = pieces
        description = text
    }

    /// The name for a record with `fields`; nil with the reason when a field is missing or the
    /// name is not safe as a file name.
    public func name(for fields: [String: String]) -> Result<String, ParameterError> {
        var name = ""
        for piece in pieces {
            switch piece {
            case .text(let text): name += text
            case .field(let field):
                guard let value = fields[field] else {
                    return .failure(ParameterError(names: description, reason: "the record has no field \(field)"))
                }
                name += value
            }
        }
        guard ManifestNames.isSafe(name), name.utf8.count <= 200 else {
            let shown = name.count > 60 ? String(name.prefix(60)) + "…" : name
            return .failure(ParameterError(names: description, reason: "it makes the name \(shown.debugDescription), which "
                + ManifestNames.rule + " and be at most 200 bytes"))
        }
        return .success(name)
    }
}

extension ParameterError {
    init(names: String, reason: String) {
        parameter = ""
        declaration = nil
        let shown = names.count > 60 ? String(names.prefix(60)) + "…" : names
        self.reason = "names \(shown.debugDescription): \(reason)"
    }
}
