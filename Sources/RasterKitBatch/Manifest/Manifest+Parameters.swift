import Foundation
import RasterKit
internal import Yams

extension Manifest {
    /// `state` of `component` in `appearance`, with `values` for the component's parameters
    /// (the defaults for those left out): what a URL's query or a data record draws. Every value
    /// is checked against its declaration first, and a value the component does not declare is
    /// refused, so nothing outside the declarations is ever drawn. Values are text as layers
    /// read it: a `$` in them is a `$`, never a variable.
    ///
    /// - Throws: ``ParameterError`` naming the parameter and its declaration; or, when the
    ///   values make the state unusable (an `svg` parameter naming a file that is not there), the
    ///   problems found, as a ``ParameterError`` without a declaration.
    public func state(_ state: String, of component: Component, in appearance: Appearance = .light,
                      parameters values: [String: String]) throws(ParameterError) -> State {
        try self.state(state, of: component, in: appearance, parameters: values, files: nil)
    }

    /// ``state(_:of:in:parameters:)``, reading the files layers name through `files`, which a
    /// data batch shares among its records (the same SVG is then parsed once, not per record).
    func state(_ state: String, of component: Component, in appearance: Appearance,
               parameters values: [String: String], files: ManifestFiles?) throws(ParameterError) -> State {
        let checked = try component.checkedParameters(values)
        guard let templates, !checked.isEmpty else {
            guard let found = component.states(in: appearance).first(where: { $0.name == state }) else {
                throw ParameterError(unknownState: state, component: component)
            }
            return found
        }
        return try templates.state(state, of: component, in: appearance, given: checked, files: files)
    }
}

extension Manifest.Component {
    /// `values` checked against the declarations and put in the form layers read; only the
    /// values given (defaults are already the component's variables).
    public func checkedParameters(_ values: [String: String]) throws(ParameterError) -> [String: String] {
        var checked: [String: String] = [:]
        for (name, value) in values {
            guard let parameter = parameters.first(where: { $0.name == name }) else {
                throw ParameterError(unknown: name, component: self.name, declared: parameters.map(\.name))
            }
            checked[name] = try parameter.validated(value)
        }
        return checked
    }
}

extension Manifest.Parameter {
    /// A checked value as a manifest node: quoted text whose `$` is doubled, so it is read as
    /// the text it is and never as a variable reference.
    static func node(_ value: String) -> Node {
        .scalar(Node.Scalar(value.replacingOccurrences(of: "$", with: "$$"), .implicit, .doubleQuoted))
    }
}

/// What a manifest keeps to resolve parameterised states on request: the document as written
/// and where its files are. Immutable; each resolution reads with a reader and resolver of its own.
final class ManifestTemplates: @unchecked Sendable {
    private let document: ManifestDocument
    private let file: String
    private let directory: URL

    init(document: ManifestDocument, file: String, directory: URL) {
        self.document = document
        self.file = file
        self.directory = directory
    }

    /// Files read the way the manifest's own were, for ``state(_:of:in:given:files:)``.
    func files() -> ManifestFiles { ManifestFiles(directory: directory, limit: document.limits.maximumInputBytes) }

    func state(_ state: String, of component: Manifest.Component, in appearance: Appearance,
               given: [String: String], files: ManifestFiles? = nil) throws(ParameterError) -> Manifest.State {
        // Problems are collected per resolution: a shared collector reports a problem once, and
        // a second record with the same problem would then pass as if it had none.
        let problems = ManifestProblems(file: file)
        let reader = ManifestReader(problems: problems, files: files ?? self.files(), limits: document.limits)
        let nodes = given.mapValues(Manifest.Parameter.node)
        let resolver = ManifestResolver(document: document, reader: reader)
        guard let resolved = resolver.resolvedState(component: component.name, state: state, appearance: appearance,
                                                    given: nodes) else {
            throw ParameterError(unknownState: state, component: component)
        }
        guard problems.isEmpty else {
            throw ParameterError(unusable: problems.problems.map(\.message), component: component.name)
        }
        return resolved
    }
}

extension ParameterError {
    init(unknownState state: String, component: Manifest.Component) {
        let names = component.states.map(\.name)
        parameter = ""
        declaration = nil
        reason = "component \(component.name) has no state \(state.debugDescription)" + Suggestion.hint(for: state, in: names)
            + "; it has \(names.joined(separator: ", "))"
    }

    init(unusable messages: [String], component: String) {
        parameter = ""
        declaration = nil
        reason = "component \(component) cannot be drawn with these values: " + messages.prefix(3).joined(separator: "; ")
    }
}
