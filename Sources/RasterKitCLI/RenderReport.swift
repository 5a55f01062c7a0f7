import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch

/// What `rasterkit render` prints when it is done: the batch summary `rasterkit svg` prints,
/// plus the shard, the catalog files written beside the images, and the contact sheet.
struct RenderReport: Encodable {
    var summary: BatchSummary
    var shard: Shard
    /// `Contents.json` files the plan wrote (or left as they were).
    var files: Int
    var contactSheet: String?
    var contactSheetError: String?

    init(summary: BatchSummary, shard: Shard, files: Int) {
        self.summary = summary
        self.shard = shard
        self.files = files
    }

    private enum Keys: String, CodingKey { case shard, files, contactSheet, contactSheetError }

    /// The summary's own fields (`total`, `drawn`, `cached`, `failed`, `seconds`, `failures`),
    /// then this command's.
    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(shard.description, forKey: .shard)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(contactSheet, forKey: .contactSheet)
        try container.encodeIfPresent(contactSheetError, forKey: .contactSheetError)
    }

    /// One JSON line on stdout, or the summary line (and where the contact sheet is).
    func print(json: Bool) {
        if json {
            Swift.print(JSONLine.encode(self))
            return
        }
        BatchSummaryPrinter.print(summary, json: false)
        if shard != .whole { Swift.print("Shard \(shard) of the manifest's outputs.") }
        if let contactSheet { Swift.print("Contact sheet: \(contactSheet)") }
        if let contactSheetError { FileHandle.standardError.write(Data("rasterkit render: \(contactSheetError)\n".utf8)) }
    }

    /// `{"error": …, "problems": [{"file", "line", "column", "message"}, …]}` for a manifest with problems.
    static func encode(_ error: ManifestError) -> String {
        struct Problems: Encodable {
            struct Problem: Encodable { var file: String, line: Int, column: Int, message: String }
            var error: String
            var problems: [Problem]
        }
        let problems = error.problems.map { Problems.Problem(file: $0.file, line: $0.line, column: $0.column, message: $0.message) }
        return JSONLine.encode(Problems(error: "\(problems.count) problem\(problems.count == 1 ? "" : "s") in the manifest",
                               problems: problems))
    }

}
