import Foundation
import RasterKit

/// What a data batch renders a manifest's parameterised components with: `rasterkit render
/// --data FILE --names '{slug}' --set name=value`.
public struct ManifestData: Sendable {
    /// The records, each drawn once per parameterised component; nil draws each such component
    /// once under its own name, with ``values``.
    public var records: [DataRecord]?
    /// The data file the records came from, for messages and the run's inputs.
    public var file: String?
    /// `--names`: the template that names each record's outputs; nil for each component's `names:`.
    public var names: String?
    /// `--set`: values for every record, over the records' own.
    public var values: [String: String]

    /// Data for a batch.
    public init(records: [DataRecord]? = nil, file: String? = nil, names: String? = nil, values: [String: String] = [:]) {
        self.records = records
        self.file = file
        self.names = names
        self.values = values
    }

    /// What a run's record must match to be reused: the file, the template and the values.
    var identity: String {
        "data \(file ?? "-") names \(names ?? "-") set " + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: "\u{1F}")
    }
}

extension Manifest {
    /// The components a data batch draws: for each component that declares parameters the data
    /// names (a record's field or a `--set` value is one of them), one copy per record, named by
    /// the template and with every state resolved with the record's values (and `data.values`
    /// over them). Every name and value is checked before anything is drawn.
    ///
    /// - Throws: ``ManifestError`` with each problem at its record's line of the data file: a
    ///   value outside its declaration, a field no component or template uses, a name that is
    ///   unsafe or taken by two records, no parameterised component.
    public func components(with data: ManifestData) throws(ManifestError) -> [Component] {
        let problems = ManifestProblems(file: data.file ?? file)
        let templated = components.filter { !$0.parameters.isEmpty }
        guard !templated.isEmpty else {
            problems.add("no component of \(file) declares parameters, so --data and --set have nothing to fill in", at: nil)
            try problems.check()
            return []
        }
        let declared = Set(templated.flatMap { $0.parameters.map(\.name) })
        // A template is drawn for the data when the records or --set name one of its parameters:
        // a file of cards does not make a badge of every card.
        let given = Set((data.records ?? []).flatMap(\.fields.keys)).union(data.values.keys)
        let drawn = templated.filter { $0.parameters.contains { given.contains($0.name) } }
        for name in data.values.keys where !declared.contains(name) {
            problems.add("--set \(name): no component declares a parameter \(name.debugDescription)"
                         + Suggestion.hint(for: name, in: declared), at: nil)
        }
        var templates: [String: RecordNameTemplate] = [:]
        if data.records != nil {
            for component in drawn {
                guard let text = data.names ?? component.names else {
                    problems.add("component \(component.name) needs names for its records: give --names '{field}' or names: in "
                                 + "the manifest", at: nil)
                    continue
                }
                do { templates[component.name] = try RecordNameTemplate(text) } catch { problems.add(error.description, at: nil) }
            }
        }
        try problems.check()
        let records = data.records ?? [DataRecord(line: 1, fields: [:])]
        // Fields any template could use are not typos, whichever components the data names.
        let templateFields = ([data.names] + templated.map(\.names)).compactMap { $0.flatMap { try? RecordNameTemplate($0) } }
        let used = declared.union(templateFields.flatMap(\.fields))
        var result: [Component] = []
        // One reader of the manifest's files for every record: an SVG many records draw is parsed once.
        let files = self.templates?.files()
        // Per component: two components' outputs of one name differ by their states, and any file
        // two outputs would share is refused when the plan is made.
        var claimed: [String: [String: Int]] = [:]
        for record in records {
            let at = ManifestLocation(line: record.line, column: 1)
            for field in record.fields.keys.sorted() where !used.contains(field) {
                problems.add("field \(field.debugDescription) is neither a parameter nor used in names" + Suggestion.hint(for: field, in: used),
                             at: at)
            }
            let values = record.fields.merging(data.values) { $1 }
            for component in drawn {
                var copy = component
                if let template = templates[component.name] {
                    switch template.name(for: record.fields) {
                    case .failure(let error):
                        problems.add(error.description, at: at)
                        continue
                    case .success(let name):
                        if let first = claimed[component.name, default: [:]].updateValue(record.line, forKey: name) {
                            problems.add("the name \(name.debugDescription) is also the name of the record at line \(first)", at: at)
                            continue
                        }
                        copy.name = name
                    }
                }
                let own = values.filter { key, _ in component.parameters.contains { $0.name == key } }
                do throws(ParameterError) {
                    copy.states = []
                    for state in component.states {
                        copy.states.append(try self.state(state.name, of: component, in: .light, parameters: own, files: files))
                    }
                    for (appearance, states) in component.appearanceStates {
                        var resolved: [State] = []
                        for state in states {
                            resolved.append(try self.state(state.name, of: component, in: appearance, parameters: own, files: files))
                        }
                        copy.appearanceStates[appearance] = resolved
                    }
                } catch {
                    problems.add(error.description, at: at)
                    continue
                }
                result.append(copy)
            }
            if problems.problems.count >= 100 { break }
        }
        if drawn.isEmpty, !given.isEmpty {
            problems.add("no field of the data and no --set names a parameter; the components declare "
                         + declared.sorted().joined(separator: ", "), at: nil)
        }
        try problems.check()
        return result
    }
}
