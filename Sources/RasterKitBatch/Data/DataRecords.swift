import Foundation
import RasterKit
internal import Yams

/// One record of a data file: its fields as text, and the line it starts on.
public struct DataRecord: Hashable, Sendable {
    /// From 1: the row of a CSV file, the line of a JSON lines file, the item's line in a YAML
    /// or JSON list.
    public var line: Int
    /// Field name → value, as text (`12`, `true`, `Hello`).
    public var fields: [String: String]

    /// A record at `line`.
    public init(line: Int, fields: [String: String]) {
        self.line = line
        self.fields = fields
    }
}

/// The records of `rasterkit render --data FILE`: CSV with a header row (`.csv`), JSON lines
/// (`.jsonl`, `.ndjson`), or a YAML or JSON list of mappings (`.yaml`, `.yml`, `.json`). Values
/// must be text, numbers or booleans. Bounded before it is parsed: the file by the limits'
/// input size, and at most ``maximumRecords`` records of ``maximumFields`` fields.
public enum DataRecords {
    /// The most records a data file may hold.
    public static let maximumRecords = 100_000
    /// The most fields a record may hold.
    public static let maximumFields = 256

    /// The records of the file at `url`.
    ///
    /// - Throws: ``ManifestError`` with the problem at its line of the data file.
    public static func read(contentsOf url: URL, limits: ResourceLimits = .default) throws(ManifestError) -> [DataRecord] {
        let file = url.relativePath
        func problem(_ message: String, line: Int = 1) -> ManifestError {
            ManifestError(problems: [.init(file: file, line: line, column: 1, message: message)])
        }
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { throw problem("the data file is not a regular file") }
            if let size = attributes[.size] as? Int, size > limits.maximumInputBytes {
                throw problem("the data file is larger than \(limits.maximumInputBytes) bytes")
            }
            data = try Data(contentsOf: url)
        } catch let error as ManifestError {
            throw error
        } catch {
            throw problem("the data file cannot be read: \(error.localizedDescription)")
        }
        return try parse(data, file: file, limits: limits)
    }

    /// The records in `data`, in the format `file`'s extension names.
    public static func parse(_ data: Data, file: String, limits: ResourceLimits = .default) throws(ManifestError) -> [DataRecord] {
        func problem(_ message: String, line: Int = 1) -> ManifestError {
            ManifestError(problems: [.init(file: file, line: line, column: 1, message: message)])
        }
        guard data.count <= limits.maximumInputBytes else { throw problem("the data file is larger than \(limits.maximumInputBytes) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw problem("the data file is not UTF-8 text") }
        let records: [DataRecord]
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "csv":
            let table: CSVTable
            do { table = try CSVTable(text, maximumRows: maximumRecords, maximumFields: maximumFields) } catch {
                throw problem(error.message, line: error.line)
            }
            guard let header = table.rows.first else { throw problem("the CSV file has no header row naming its fields") }
            let names = header.fields
            if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw problem("the header names the field \(duplicate.debugDescription) twice")
            }
            records = try table.rows.dropFirst().filter { $0.fields != [""] }.map { row throws(ManifestError) in
                guard row.fields.count == names.count else {
                    throw problem("a row has \(row.fields.count) fields, the header \(names.count)", line: row.line)
                }
                return DataRecord(line: row.line, fields: Dictionary(uniqueKeysWithValues: zip(names, row.fields)))
            }
        case "jsonl", "ndjson":
            var lines: [DataRecord] = []
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                guard lines.count < maximumRecords else { throw problem("more than \(maximumRecords) records", line: index + 1) }
                guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: Data(line.utf8)) else {
                    throw problem("each line must be one JSON object whose values are text, numbers or booleans", line: index + 1)
                }
                guard object.count <= maximumFields else { throw problem("a record has more than \(maximumFields) fields", line: index + 1) }
                lines.append(DataRecord(line: index + 1, fields: object.mapValues(\.text)))
            }
            records = lines
        case "yaml", "yml", "json":
            let node: Node?
            do { node = try Yams.compose(yaml: text, .basic) } catch { throw problem("the data file is not YAML or JSON: \(error)") }
            guard let items = node?.sequence else { throw problem("the data file must be a list of records (mappings)") }
            guard items.count <= maximumRecords else { throw problem("more than \(maximumRecords) records") }
            records = try items.map { item throws(ManifestError) in
                let line = item.mark?.line ?? 1
                guard let mapping = item.mapping else { throw problem("a record must be a mapping of fields to values", line: line) }
                var fields: [String: String] = [:]
                for (key, value) in mapping {
                    guard let name = key.scalar?.string, let text = value.scalar?.string else {
                        throw problem("a record's fields must be text, numbers or booleans", line: value.mark?.line ?? line)
                    }
                    fields[name] = text
                }
                guard fields.count <= maximumFields else { throw problem("a record has more than \(maximumFields) fields", line: line) }
                return DataRecord(line: line, fields: fields)
            }
        default:
            throw problem("the data file must be .csv, .jsonl, .ndjson, .yaml, .yml or .json")
        }
        return records
    }
}

/// A JSON value a record's field may hold, as the text layers read.
private struct JSONScalar: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let flag = try? value.decode(Bool.self) {
            text = flag ? "true" : "false"
        } else if let number = try? value.decode(Double.self) {
            text = number.compactDescription
        } else {
            text = try value.decode(String.self)
        }
    }
}
