import Foundation

/// What a batch last wrote into an output directory: for each file, the fingerprint of what it
/// holds and the size and modification time it had then. An output whose fingerprint is
/// unchanged and whose file is still the one written is up to date and not made again.
///
/// Kept in `<directory>/.rasterkit-index.tsv`, written atomically when a batch ends. A file
/// changed or replaced since (another size or time) is made again; an index lost to an
/// interrupted run only costs renders.
final class BatchOutputIndex: Sendable {
    static let fileName = ".rasterkit-index.tsv"
    private static let header = "# rasterkit batch index v1: fingerprint, bytes, modified (ns), path"

    struct Entry: Hashable, Sendable {
        var fingerprint: String
        var byteCount: Int
        var modified: Int64
    }

    private let directory: String
    /// As loaded: read by every worker without a lock.
    private let previous: [String: Entry]
    private let updates = SanitizerVisibleMutex<[String: Entry?]>([:])

    private init(directory: String, previous: [String: Entry]) {
        self.directory = directory
        self.previous = previous
    }

    /// The directory's index, empty when it has none or it cannot be read.
    static func load(from directory: String) -> BatchOutputIndex {
        var entries: [String: Entry] = [:]
        if let data = try? SVGDocument.read(directory + "/" + fileName, naming: fileName) {
            // Split as bytes: a warm run reads one line per output, and splitting by Character
            // (grapheme clusters) cost more than all the rest of checking them.
            data.withUnsafeBytes { buffer in
                for line in buffer.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
                    let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
                    guard fields.count == 4, let bytes = Int(text(fields[1])), let modified = Int64(text(fields[2])) else { continue }
                    entries[text(fields[3])] = Entry(fingerprint: text(fields[0]), byteCount: bytes, modified: modified)
                }
            }
        }
        return BatchOutputIndex(directory: directory, previous: entries)
    }

    private static func text(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// Whether `path` holds, untouched, the output with `fingerprint`.
    func isUpToDate(_ path: String, fingerprint: String) -> Bool {
        guard let entry = previous[path], entry.fingerprint == fingerprint,
              let current = Self.fileState(directory + "/" + path) else { return false }
        return current.byteCount == entry.byteCount && current.modified == entry.modified
    }

    /// Remembers that `path` was just written with `fingerprint` (nil: it failed, forget it).
    func record(_ path: String, fingerprint: String?) {
        let entry = fingerprint.flatMap { fingerprint in
            Self.fileState(directory + "/" + path).map {
                Entry(fingerprint: fingerprint, byteCount: $0.byteCount, modified: $0.modified)
            }
        }
        updates.withLock { $0[path] = .some(entry) }
    }

    /// Writes the index back, keeping entries of outputs this batch did not touch; an index
    /// that did not change is left alone.
    func save() throws {
        var merged = previous
        for (path, entry) in updates.withLock({ $0 }) { merged[path] = entry }
        guard merged != previous else { return }
        var text = Self.header + "\n"
        for (path, entry) in merged.sorted(by: { $0.key < $1.key }) {
            text += "\(entry.fingerprint)\t\(entry.byteCount)\t\(entry.modified)\t\(path)\n"
        }
        try AtomicFileWriter.write(Data(text.utf8), to: directory + "/" + Self.fileName)
    }

    private static func fileState(_ path: String) -> (byteCount: Int, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
