import RasterKit
import Foundation

/// What a batch last wrote into an output directory: for each file, the fingerprint of what it
/// holds, the size and modification time it had then, and the stamp of its source (see
/// ``BatchOutput/sourceStamp``). An output whose fingerprint is unchanged, or whose source
/// stamp is, and whose file is still the one written is up to date and not made again.
///
/// Kept in `<directory>/.rasterkit-index.tsv`, written atomically when a batch ends. A file
/// changed or replaced since (another size or time) is made again; an index lost to an
/// interrupted run only costs renders.
final class BatchOutputIndex: Sendable {
    static let fileName = ".rasterkit-index.tsv"
    private static let header = "# rasterkit batch index v2: fingerprint, bytes, modified (ns), source stamp, path"
    /// Indexes written before source stamps have four fields a line.
    private static let firstHeader = "# rasterkit batch index v1"

    struct Entry: Hashable, Sendable {
        var fingerprint: String
        /// The file as it was written.
        var state: FileState
        /// Empty when the output's source had no stamp.
        var sourceStamp = ""
    }

    private let directory: String
    /// As loaded: read by every worker without a lock.
    private let previous: [String: Entry]
    private let updates: Lock<[String: Entry?]>

    private init(directory: String, previous: [String: Entry], expecting count: Int) {
        self.directory = directory
        self.previous = previous
        var updates: [String: Entry?] = [:]
        updates.reserveCapacity(count)
        self.updates = Lock(updates)
    }

    /// The directory's index, empty when it has none or it cannot be read; room is made for
    /// `count` outputs to be recorded, so workers recording them under the lock never wait on
    /// the table growing.
    static func load(from directory: String, expecting count: Int = 0) -> BatchOutputIndex {
        var entries: [String: Entry] = [:]
        if let data = try? FileReader.read(directory + "/" + fileName, naming: fileName) {
            let hasStamps = !data.starts(with: firstHeader.utf8)
            let count = hasStamps ? 5 : 4
            for fields in TabSeparated.lines(of: data, fieldsPerLine: count) where !fields[0].hasPrefix("#") {
                guard fields.count == count, let bytes = Int64(fields[1]), let modified = Int64(fields[2]) else { continue }
                entries[fields[count - 1]] = Entry(fingerprint: fields[0], state: FileState(byteCount: bytes, modified: modified),
                                                   sourceStamp: hasStamps ? fields[3] : "")
            }
        }
        return BatchOutputIndex(directory: directory, previous: entries, expecting: count)
    }

    /// Whether `path` holds, untouched, the output with `fingerprint`.
    func isUpToDate(_ path: String, fingerprint: String) -> Bool {
        guard let entry = previous[path], entry.fingerprint == fingerprint else { return false }
        return isIntact(path, entry)
    }

    /// Whether `path` holds, untouched, the output last made from a source with `sourceStamp`.
    func isUpToDate(_ path: String, sourceStamp: String) -> Bool {
        guard let entry = previous[path], !entry.sourceStamp.isEmpty, entry.sourceStamp == sourceStamp else { return false }
        return isIntact(path, entry)
    }

    private func isIntact(_ path: String, _ entry: Entry) -> Bool {
        FileState(directory + "/" + path) == entry.state
    }

    /// Remembers that `path` was just written with `fingerprint` (nil: it failed, forget it),
    /// from a source with `sourceStamp`; `written` is the file's state as the writer saw it
    /// (nil: looked up by path).
    func record(_ path: String, fingerprint: String?, sourceStamp: String? = nil, written: FolderWriter.Written? = nil) {
        let entry = fingerprint.flatMap { fingerprint in
            (written.map { FileState(byteCount: $0.byteCount, modified: $0.modified) } ?? FileState(directory + "/" + path)).map {
                Entry(fingerprint: fingerprint, state: $0, sourceStamp: Self.field(sourceStamp ?? ""))
            }
        }
        updates.withLock { $0[path] = .some(entry) }
    }

    /// The state of each file this batch recorded, as its writer saw it.
    func recordedStates() -> [String: FileState] {
        updates.withLock { updates in updates.compactMapValues { $0?.state } }
    }

    /// Remembers the stamp of the source of `path`, found up to date by its fingerprint.
    func recordSourceStamp(_ path: String, _ sourceStamp: String) {
        guard var entry = previous[path], entry.sourceStamp != sourceStamp else { return }
        entry.sourceStamp = Self.field(sourceStamp)
        updates.withLock { $0[path] = .some(entry) }
    }

    /// A stamp as one field: no tabs or line breaks.
    private static func field(_ text: String) -> String {
        TabSeparated.canHold(text) ? text : ""
    }

    /// Writes the index back, keeping entries of outputs this batch did not touch; an index
    /// that did not change is left alone.
    func save() throws {
        let recorded = updates.withLock { $0 }
        var lines: [(path: String, entry: Entry)]
        if previous.isEmpty {
            // A folder without an index (a new one): what this run recorded is all of it, listed
            // straight from the record rather than hashed into another table first.
            lines = recorded.compactMap { path, entry in entry.map { (path, $0) } }
            guard !lines.isEmpty else { return }
        } else {
            var updated = previous
            updated.reserveCapacity(previous.count + recorded.count)
            for (path, entry) in recorded { updated[path] = entry }
            guard updated != previous else { return }
            lines = updated.map { ($0.key, $0.value) }
        }
        lines.sort { $0.path < $1.path }
        // One buffer of bytes, sized up front: interpolating each line into a growing String was
        // most of the half millisecond a warm batch spent saving its index.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.header.utf8.count + 1 + lines.count * 200)
        bytes += Self.header.utf8
        bytes.append(UInt8(ascii: "\n"))
        for (path, entry) in lines {
            bytes += entry.fingerprint.utf8
            bytes.append(UInt8(ascii: "\t"))
            Self.appendDecimal(entry.state.byteCount, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            Self.appendDecimal(entry.state.modified, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes += entry.sourceStamp.utf8
            bytes.append(UInt8(ascii: "\t"))
            bytes += path.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        let data = bytes.withUnsafeBufferPointer { Data(buffer: $0) }
        try AtomicFileWriter.write(data, to: directory + "/" + Self.fileName, below: directory)
    }

    /// Appends `value` in decimal, as `"\(value)"` writes it.
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int64.min has one too; digits come last first.
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }
}
