import Foundation
import RasterKit

extension Manifest {
    /// A value a component's renders take from outside the manifest — a URL's query, a `--data`
    /// record, `--set` — declared under `parameters:` with its type, default and limits. Layers
    /// use it as a variable (`text: $title`); a value outside the declaration is an error and is
    /// never drawn.
    ///
    /// ```yaml
    /// badge:
    ///   parameters:
    ///     label: {type: string, default: build, maxLength: 40}
    ///     count: {type: int, default: 0, min: 0, max: 9999}
    ///     color: {type: color, default: "#4C1"}
    ///     style: {enum: [flat, square], default: flat}
    ///     icon: {type: svg, folder: icons, default: star}   # an icon's name in icons/
    /// ```
    public struct Parameter: Hashable, Sendable {
        /// What values a parameter takes.
        public enum Kind: Hashable, Sendable {
            /// Text of at most ``Parameter/maximumLength`` characters, without control characters,
            /// matching ``Parameter/pattern`` when one is given.
            case string
            /// A whole number within ``Parameter/minimum`` and ``Parameter/maximum``.
            case int
            /// A finite number within ``Parameter/minimum`` and ``Parameter/maximum``.
            case number
            /// `true` or `false` (also `yes`/`no`, `1`/`0`).
            case bool
            /// A colour: hex or CSS name, as everywhere else.
            case color
            /// One of the listed words.
            case choice([String])
            /// An SVG file: a relative path inside the manifest's folder; or, when the parameter
            /// has a ``Parameter/folder``, the name of an icon in it.
            case svg

            /// The type as the manifest writes it.
            public var name: String {
                switch self {
                case .string: "string"
                case .int: "int"
                case .number: "number"
                case .bool: "bool"
                case .color: "color"
                case .choice: "enum"
                case .svg: "svg"
                }
            }
        }

        /// The parameter's name: the variable its layers refer to.
        public var name: String
        /// What values it takes.
        public var kind: Kind
        /// The value used when none is given, already valid.
        public var defaultValue: String
        /// The longest text a `string` takes, in characters.
        public var maximumLength: Int
        /// The smallest `int` or `number`; nil: no bound.
        public var minimum: Double?
        /// The largest `int` or `number`; nil: no bound.
        public var maximum: Double?
        /// A regular expression a whole `string` must match.
        public var pattern: String?
        /// For an `svg`: the icon folder (relative to the manifest) its values name icons in.
        public var folder: String?
        /// The icons of ``folder``, by their paths in it without `.svg` (`arrows/left`), as
        /// indexed when the manifest was read: a value is looked up here and never joined to
        /// the folder's path unseen, so no value names a file outside it.
        public var icons: Set<String> = []

        /// The longest any value may be, whatever its declaration says: a URL's query is bounded
        /// before it is read, and so is every value of it.
        public static let longestValue = 1_024
        /// `maxLength` when none is declared.
        public static let defaultMaximumLength = 200

        /// A declaration; the default is checked against it when the manifest is read.
        public init(name: String, kind: Kind, defaultValue: String, maximumLength: Int = Parameter.defaultMaximumLength,
                    minimum: Double? = nil, maximum: Double? = nil, pattern: String? = nil) {
            self.name = name
            self.kind = kind
            self.defaultValue = defaultValue
            self.maximumLength = maximumLength
            self.minimum = minimum
            self.maximum = maximum
            self.pattern = pattern
        }

        /// The declaration as errors and the catalogue describe it: `string, maxLength 40`,
        /// `int, 0...9999`, `enum [flat, square]`.
        public var declaration: String {
            var parts = [kind.name]
            switch kind {
            case .string:
                parts.append("maxLength \(maximumLength)")
                if let pattern { parts.append("pattern \(pattern)") }
            case .int, .number:
                if minimum != nil || maximum != nil {
                    parts.append("\(minimum.map(\.compactDescription) ?? "")...\(maximum.map(\.compactDescription) ?? "")")
                }
            case .choice(let words): parts[0] = "enum [\(words.joined(separator: ", "))]"
            case .svg: if let folder { parts[0] = "svg in \(folder)/" }
            case .bool, .color: break
            }
            return parts.joined(separator: ", ")
        }

        /// `value` in the form layers read it (a colour as hex, a number without leading zeros,
        /// a bool as `true`/`false`), or the reason it does not fit the declaration.
        public func validated(_ value: String) throws(ParameterError) -> String {
            func refuse(_ reason: String) -> ParameterError { ParameterError(parameter: self, value: value, reason: reason) }
            guard value.utf8.count <= Self.longestValue else { throw refuse("it is longer than \(Self.longestValue) bytes") }
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw refuse("it holds control characters")
            }
            switch kind {
            case .string:
                guard value.count <= maximumLength else { throw refuse("it is longer than \(maximumLength) characters") }
                if let pattern {
                    guard let regex = try? Regex(pattern), (try? regex.wholeMatch(in: value)) != nil else {
                        throw refuse("it does not match \(pattern)")
                    }
                }
                return value
            case .int:
                guard let number = Int(value.trimmingCharacters(in: .whitespaces)), abs(number) < 1_000_000_000 else {
                    throw refuse("it is not a whole number")
                }
                try checkRange(Double(number), refuse)
                return String(number)
            case .number:
                guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                    throw refuse("it is not a number")
                }
                try checkRange(number, refuse)
                return number.compactDescription
            case .bool:
                switch value.lowercased() {
                case "true", "yes", "1", "on": return "true"
                case "false", "no", "0", "off": return "false"
                default: throw refuse("it is not true or false")
                }
            case .color:
                do { return try Color(parsing: value).hexString } catch { throw refuse("\(error)") }
            case .choice(let words):
                guard words.contains(value) else {
                    throw refuse("it is not one of \(words.joined(separator: ", "))" + Suggestion.hint(for: value, in: words))
                }
                return value
            case .svg:
                if let folder { return try icon(value, in: folder, refuse) }
                let segments = value.split(separator: "/", omittingEmptySubsequences: false)
                guard value.lowercased().hasSuffix(".svg"), !value.hasPrefix("/"),
                      segments.allSatisfy({ ManifestNames.isSafe(String($0)) }) else {
                    throw refuse("it must be the relative path of an .svg file inside the manifest's folder, each part "
                        + ManifestNames.rule)
                }
                return value
            }
        }

        /// The path of the icon `value` names in `folder` (`star`, `star.svg`, or the path this
        /// returns, `icons/star.svg`, so a value already checked passes again unchanged).
        private func icon(_ value: String, in folder: String, _ refuse: (String) -> ParameterError) throws(ParameterError)
            -> String {
            let name = value.lowercased().hasSuffix(".svg") ? String(value.dropLast(4)) : value
            if icons.contains(name) { return "\(folder)/\(name).svg" }
            if name.hasPrefix(folder + "/"), icons.contains(String(name.dropFirst(folder.count + 1))) { return name + ".svg" }
            // Suggestions compare words with every icon: only short names against a small folder.
            let hint = name.count <= 64 && icons.count <= 2_000 ? Suggestion.hint(for: name, in: icons.sorted()) : ""
            throw refuse("there is no icon \(name.debugDescription) in \(folder)/" + hint)
        }

        private func checkRange(_ number: Double, _ refuse: (String) -> ParameterError) throws(ParameterError) {
            if let minimum, number < minimum { throw refuse("it is less than \(minimum.compactDescription)") }
            if let maximum, number > maximum { throw refuse("it is more than \(maximum.compactDescription)") }
        }
    }
}

/// A parameter value that cannot be drawn: unknown, or outside its declaration.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name, as given.
    public var parameter: String
    /// Its declaration (`int, 0...9999`), or nil for a parameter the component does not declare.
    public var declaration: String?
    /// Why the value was refused.
    public var reason: String

    /// A value refused by `parameter`'s declaration.
    init(parameter: Manifest.Parameter, value: String, reason: String) {
        self.parameter = parameter.name
        declaration = parameter.declaration
        let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
        self.reason = "\(shown.debugDescription): \(reason)"
    }

    /// A parameter `component` does not declare, with the closest it does.
    package init(unknown name: String, component: String, declared: [String]) {
        parameter = name
        declaration = nil
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        // Suggestions compare words: a name from a URL may be long, and is compared only when short.
        let hint = name.count <= 64 ? Suggestion.hint(for: name, in: declared) : ""
        reason = "component \(component) has no parameter \(shown.debugDescription)" + hint
            + (declared.isEmpty ? "; it declares none" : "; it declares \(declared.sorted().joined(separator: ", "))")
    }

    /// What went wrong: `parameter count: "12x": it is not a whole number (declared: int, 0...9999)`.
    public var description: String {
        guard let declaration else { return reason }
        return "parameter \(parameter): \(reason) (declared: \(declaration))"
    }
}
