import RasterKit
import Foundation

/// What the last render of a manifest into a folder read and wrote, so that the next run with
/// nothing changed is known to be up to date without loading the manifest: the run's
/// parameters, every input with the ``FileStamp`` it had when it was read (the manifest, the
/// files it names, each `svgs:` folder listed and SVG found), and the size and modification
/// time of every file it left.
///
/// Kept in `<directory>/.rasterkit-render.tsv`. A run that renders removes it first and writes
/// it again only when it ends with every output written and every input stamped, so an
/// interrupted or failed run leaves none, and neither does one whose inputs changed while it
/// read them.
package struct ManifestRunRecord: Equatable {
    static let fileName = ".rasterkit-render.tsv"
    private static let header = "# rasterkit render record v1"

    /// What the run was, as ``invocation(manifest:format:shard:)`` tells it.
    package var invocation: String
    /// The images the run wrote (or left up to date).
    package var outputCount: Int
    /// How many of them hold their fallback's image: an up-to-date run reports them again, so
    /// that a broken input stays visible in every run's summary, not only in the one that met it.
    package var fellBackCount = 0
    /// The catalog files it wrote beside them.
    package var fileCount: Int
    /// Each input's path and stamp.
    var inputs: [String: String]
    /// Each file left in the folder, by relative path: its size and modification time.
    var files: [String: FileState]

    /// Everything besides the inputs that decides what a render of `manifest` writes: the
    /// manifest's path, the format and shard, this program's file (a rebuilt or upgraded
    /// rasterkit renders afresh) and the key of an empty SVG (librsvg's version, the key and
    /// PNG encoder versions). Nil when the program's file cannot be found.
    package static func invocation(manifest: URL, format: ExportFormat?, shard: Shard, webpQuality: Int? = nil,
                                   data: ManifestData? = nil, fonts: [URL] = []) -> String? {
        guard let program = FileStamp.of("/proc/self/exe", settledFor: -.infinity) else { return nil }
        return [program, emptySVGKey, format.map { "\($0)" } ?? "own formats", "shard \(shard)",
                manifest.standardizedFileURL.path, webpQuality.map { "webp q\($0)" } ?? "webp lossless"]
            .joined(separator: " | ") + (data.map { " | " + $0.identity } ?? "")
            + (fonts.isEmpty ? "" : " | fonts " + fonts.map(\.standardizedFileURL.path).joined(separator: " "))
    }

    /// The key of an empty SVG, which names librsvg's version and the key and PNG encoder
    /// versions: part of every run's identity, computed once.
    static let emptySVGKey = SVGBatch.parameterStamp(size: 1, scale: 1, contentMode: .stretch, tint: nil)

    /// The record in `directory` when it was made by `invocation` and every input and file it
    /// names is as the run left it; nil otherwise (no record, another run, anything changed,
    /// a damaged record).
    package static func upToDate(in directory: URL, invocation: String) -> ManifestRunRecord? {
        guard let record = load(from: directory), record.invocation == invocation else { return nil }
        for (path, stamp) in record.inputs where FileStamp.of(path, settledFor: -.infinity) != stamp { return nil }
        for (path, state) in record.files where FileState(directory.path + "/" + path) != state { return nil }
        return record
    }

    /// Removes the folder's record, before a run changes what it names.
    package static func forget(in directory: URL) {
        unlink(directory.path + "/" + fileName)
    }

    /// Records a run of `plan` that wrote every output, `fellBack` of them with their fallback,
    /// when the plan knows all its inputs' stamps and every file is in place. Losing the record
    /// only costs loading the manifest next time, so a failure to write it is no failure.
    package static func remember(_ plan: BatchPlan, fellBack: Int = 0, invocation: String, in directory: URL) {
        guard let inputs = plan.inputStamps else { return }
        remember(outputs: plan.outputs.map(\.path), files: plan.files.map(\.path), inputs: inputs, fellBack: fellBack,
                 invocation: invocation, in: directory)
    }

    /// Records a run that wrote `outputs` (`fellBack` of them with their fallback) and `files`
    /// from `inputs`, stamped before they were read, when every file is in place. `written`: the
    /// states the writer saw (from the descriptors it wrote through), which spare a look-up by
    /// path per file; the others are looked up. Either way the next run compares them with the
    /// files as they are then.
    static func remember(outputs: [String], files filePaths: [String], inputs: [String: String], fellBack: Int,
                         invocation: String, in directory: URL, written: [String: FileState] = [:]) {
        var files: [String: FileState] = [:]
        for path in outputs + filePaths {
            guard let state = written[path] ?? FileState(directory.path + "/" + path) else { return }
            files[path] = state
        }
        let record = ManifestRunRecord(invocation: invocation, outputCount: outputs.count, fellBackCount: fellBack,
                                       fileCount: filePaths.count, inputs: inputs, files: files)
        guard let text = record.text else { return }
        try? AtomicFileWriter.write(Data(text.utf8), to: directory.path + "/" + fileName)
    }

    // MARK: The file

    /// One line per field, tab-separated; nil when a path or parameter holds a tab or a line
    /// break, which the format cannot hold.
    var text: String? {
        let fields = [invocation] + inputs.keys + files.keys
        guard fields.allSatisfy(TabSeparated.canHold) else { return nil }
        var text = Self.header + "\ninvocation\t\(invocation)\ncounts\t\(outputCount)\t\(fileCount)\t\(fellBackCount)\n"
        for (path, stamp) in inputs.sorted(by: { $0.key < $1.key }) { text += "input\t\(stamp)\t\(path)\n" }
        for (path, state) in files.sorted(by: { $0.key < $1.key }) {
            text += "file\t\(state.byteCount)\t\(state.modified)\t\(path)\n"
        }
        return text
    }

    static func load(from directory: URL) -> ManifestRunRecord? {
        guard let data = try? FileReader.read(directory.path + "/" + fileName, naming: fileName) else { return nil }
        return parse(data)
    }

    /// The record `text` holds; nil for anything but a whole, well-formed record.
    static func parse(_ text: String) -> ManifestRunRecord? { parse(Data(text.utf8)) }

    private static func parse(_ data: Data) -> ManifestRunRecord? {
        var lines = TabSeparated.lines(of: data)
        guard lines.first == [header], lines.last == [""] else { return nil }
        lines = Array(lines.dropFirst().dropLast())
        var invocation: String?, counts: (outputs: Int, files: Int, fellBack: Int)?
        var inputs: [String: String] = [:], files: [String: FileState] = [:]
        for fields in lines {
            switch (fields.first, fields.count) {
            case ("invocation", 2): invocation = fields[1]
            case ("counts", 3), ("counts", 4):
                // Records written before fallbacks were counted have no fourth field.
                guard let outputs = Int(fields[1]), let catalogs = Int(fields[2]),
                      let fellBack = fields.count == 4 ? Int(fields[3]) : 0, (0...outputs).contains(fellBack) else { return nil }
                counts = (outputs, catalogs, fellBack)
            case ("input", 3): inputs[fields[2]] = fields[1]
            case ("file", 4):
                guard let bytes = Int64(fields[1]), let modified = Int64(fields[2]) else { return nil }
                files[fields[3]] = FileState(byteCount: bytes, modified: modified)
            default: return nil
            }
        }
        guard let invocation, let counts, !inputs.isEmpty, files.count >= counts.outputs else { return nil }
        return ManifestRunRecord(invocation: invocation, outputCount: counts.outputs, fellBackCount: counts.fellBack,
                                 fileCount: counts.files, inputs: inputs, files: files)
    }
}
