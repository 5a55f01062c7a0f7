import RasterKit
import Foundation

/// What a manifest run wrote, kept in the render store under the run's identity, so that the
/// next identical run — into any folder, on any checkout — writes every output from the store
/// without loading the manifest (see ``StoredManifestRun``).
///
/// The identity is the program's build, the run's options, and the manifest by content; the
/// record then lists every other input by content (a file's bytes, a folder's entries), so a
/// fresh checkout, whose files all have new times, still matches, while any changed byte does
/// not. Outputs are named by their render's key and encoder (their bytes are the store's),
/// except those written with a fallback, which the store does not keep, whose bytes are in the
/// record itself. Shared through a remote store, the record carries every output's bytes (a
/// run pack), for machines whose own store is empty.
package struct StoredRunRecord: Equatable {
    static let header = "# rasterkit stored run v1"

    /// An input, by path (relative to the manifest's folder when inside it) and content.
    struct Input: Equatable {
        var path: String
        var isFolder: Bool
        var digest: StableDigest
    }

    /// What an output holds.
    enum Content: Equatable {
        /// The bytes the store keeps for the render `key` with the encoder named `encoding`.
        case stored(key: StableDigest, encoding: String)
        /// A fallback's bytes, as written.
        case fellBack(Data)
        /// The bytes the store keeps for the render, carried in the record itself: the record
        /// shared through a remote store as a run pack (see `RunPack`).
        case inline(key: StableDigest, encoding: String, bytes: Data)
    }

    var inputs: [Input] = []
    /// Files written as they are (catalogs' `Contents.json`), by relative path.
    var files: [(path: String, contents: Data)] = []
    /// Every image written, by relative path.
    var outputs: [(path: String, content: Content)] = []

    /// The most output bytes a run pack carries. A pack is fetched and stored in one request under
    /// the remote store's request timeout (1 s by default), which a larger one could outlast on
    /// a slow link; larger runs are shared render by render.
    static let packByteLimit = 8 << 20

    /// This record with every stored output's bytes in it, read from `store`; nil when the store
    /// no longer holds some of them, or they add up to more than ``packByteLimit``.
    func packed(from store: DiskCache) -> StoredRunRecord? {
        var packed = self
        var total = 0
        for index in packed.outputs.indices {
            switch packed.outputs[index].content {
            case .fellBack(let bytes), .inline(_, _, let bytes):
                total += bytes.count
            case let .stored(key, encoding):
                guard let bytes = store.encodedOutput(forDigest: key, encoding: encoding) else { return nil }
                total += bytes.count
                packed.outputs[index].content = .inline(key: key, encoding: encoding, bytes: bytes)
            }
            guard total <= Self.packByteLimit else { return nil }
        }
        return packed
    }

    package static func == (lhs: StoredRunRecord, rhs: StoredRunRecord) -> Bool {
        lhs.inputs == rhs.inputs && lhs.files.elementsEqual(rhs.files) { $0 == $1 }
            && lhs.outputs.elementsEqual(rhs.outputs) { $0 == $1 }
    }

    // MARK: Identity

    /// The identity of `run` with its manifest holding `manifest`: the build, every option that
    /// changes what the run writes, the manifest's file name and bytes. Nil when the build
    /// cannot be told.
    static func identity(of run: ManifestRun, manifest: Data) -> StableDigest? {
        guard let build = BuildIdentity.current else { return nil }
        var hasher = SipHash128()
        // The libraries are loaded at run time: an upgraded libwebp or cairo under the same build
        // writes other bytes.
        let libraries = RenderEnvironment.libraryVersions().sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            + ["libwebp \(WebPBatchEncoder.libraryVersion)"]
        // The memory budget and time limit depend on the machine and its load, not on what the
        // manifest makes: runs that hit them leave no record (see `BatchRunLog.mayNotRecur`).
        let parts = [header, build, ManifestRunRecord.emptySVGKey, run.format.map { "\($0)" } ?? "own formats", "shard \(run.shard)",
                     run.webpQuality.map { "webp q\($0)" } ?? "webp lossless", limitsText(run.loadingLimits),
                     run.manifest.lastPathComponent, run.data?.identity ?? "no data",
                     "fonts " + run.fontDirectories.map(\.standardizedFileURL.path).joined(separator: " ")] + libraries
        for part in parts { write(part, to: &hasher) }
        manifest.withUnsafeBytes { hasher.write($0) }
        hasher.write(UInt64(manifest.count))
        return hasher.finalize()
    }

    /// Every limit that bounds what a run may load or draw, as text, except the memory budget
    /// and time limit. Spelt out rather than reflected: printing the struct through its mirror
    /// cost a warm run more than reading the record. `StoredRunTests` counts the fields, so a
    /// new limit cannot be left out.
    static func limitsText(_ limits: ResourceLimits) -> String {
        let pixels = limits.pixels
        return "limits \(pixels.maximumSide) \(pixels.maximumPixelCount) \(limits.maximumInputBytes) "
            + "\(limits.maximumSVGTextCharacters) \(limits.maximumSVGExpandedBytes) \(limits.maximumSVGUseCopies) "
            + "\(limits.maximumShadowBlur) \(limits.maximumShadowOffset) \(limits.maximumInterpolatedLength) "
            + "\(limits.maximumPNGChunkBytes)"
    }

    /// The fields of ``ResourceLimits`` (with ``PixelLimits``'s two) that ``limitsText(_:)``
    /// leaves out on purpose.
    static let limitsLeftOut: Set<String> = ["memoryBudget", "timeLimit"]

    private static func write(_ text: String, to hasher: inout SipHash128) {
        var text = text
        text.withUTF8 { hasher.write(UnsafeRawBufferPointer($0)) }
        hasher.write(UInt64(text.utf8.count))
    }

    // MARK: Inputs by content

    /// The digest of the file's bytes, or of the folder's entries (names and kinds), at `path`;
    /// nil when it cannot be read or a file is larger than `limit`.
    static func contentDigest(of path: String, isFolder: Bool, limit: Int) -> StableDigest? {
        var hasher = SipHash128()
        if isFolder {
            guard let entries = folderEntries(path) else { return nil }
            for entry in entries { write(entry, to: &hasher) }
        } else {
            guard let data = try? FileReader.read(path, limit: limit) else { return nil }
            data.withUnsafeBytes { hasher.write($0) }
            hasher.write(UInt64(data.count))
        }
        return hasher.finalize()
    }

    /// The folder's entries, sorted, each as its kind with links followed (file, folder, other,
    /// or missing for a dangling link) and its name: a link whose target appears, or a file
    /// that becomes a folder, changes what a walk of the folder finds.
    private static func folderEntries(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var entries: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            let kind = stat(path + "/" + name, &info) != 0 ? "missing"
                : (info.st_mode & S_IFMT) == S_IFREG ? "file" : (info.st_mode & S_IFMT) == S_IFDIR ? "folder" : "other"
            entries.append(kind + " " + name)
        }
        return entries.sorted()
    }

    /// The absolute paths of the inputs, read against the manifest's folder.
    func inputPaths(manifestDirectory directory: String) -> [String] {
        inputs.map { Self.absolute($0.path, in: directory) }
    }

    static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// `path` relative to `directory`, climbing out of it with `..` where needed, so that another
    /// checkout at another path reads its own files; as it is when `manifest` names it as it is
    /// (an absolute path in the manifest reads that very file wherever the manifest is).
    static func relative(_ path: String, to directory: String, manifest: String) -> String {
        guard !contains(manifest, path) else { return path }
        let from = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let to = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        guard common > 0 else { return path }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Whether `text` holds `part`'s bytes. Compared as bytes, as the file system reads a path:
    /// `String.contains` compares characters, which cost a cold run 8 % of its instructions
    /// for a manifest with a few dozen inputs.
    static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }

    // MARK: Bytes

    /// The record as bytes: one line per field, tab-separated, bytes in Base64; nil when a
    /// path or encoding holds a tab or a line break.
    var data: Data? {
        var text = Self.header + "\n"
        for input in inputs {
            guard TabSeparated.canHold(input.path) else { return nil }
            text += "input\t\(input.isFolder ? "folder" : "file")\t\(input.digest.hex)\t\(input.path)\n"
        }
        for file in files {
            guard TabSeparated.canHold(file.path) else { return nil }
            text += "file\t\(file.contents.base64EncodedString())\t\(file.path)\n"
        }
        for output in outputs {
            guard TabSeparated.canHold(output.path) else { return nil }
            switch output.content {
            case let .stored(key, encoding):
                guard TabSeparated.canHold(encoding) else { return nil }
                text += "output\t\(key.hex)\t\(encoding)\t\(output.path)\n"
            case .fellBack(let bytes):
                text += "fallback\t\(bytes.base64EncodedString())\t\(output.path)\n"
            case let .inline(key, encoding, bytes):
                guard TabSeparated.canHold(encoding) else { return nil }
                text += "bytes\t\(key.hex)\t\(encoding)\t\(bytes.base64EncodedString())\t\(output.path)\n"
            }
        }
        text += "end\n"
        return Data(text.utf8)
    }

    /// The record `data` holds; nil for anything but a whole, well-formed record. Read as bytes,
    /// with only the short fields made into strings: a run pack holds megabytes of Base64, which
    /// is decoded straight from its bytes.
    init?(data: Data) {
        let parsed: Bool = data.withUnsafeBytes { buffer in
            var lines = buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            guard let first = lines.first, Self.text(first) == Self.header, lines.last?.isEmpty == true,
                  lines.count >= 3, Self.text(lines[lines.count - 2]) == "end" else { return false }
            lines = Array(lines.dropFirst().dropLast(2))
            for line in lines {
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                guard let kind = fields.first.map(Self.text), parseLine(kind: kind, fields) else { return false }
            }
            return true
        }
        guard parsed else { return nil }
    }

    /// Adds the line of `kind` with `fields` (the kind first); false when it is not well formed.
    private mutating func parseLine(kind: String, _ fields: [Slice<UnsafeRawBufferPointer>]) -> Bool {
        let text = Self.text, bytes = Self.base64
        switch (kind, fields.count) {
        case ("input", 4):
            let isFolder = text(fields[1]) == "folder", path = text(fields[3])
            guard inputs.count < Self.inputLimit, isFolder || text(fields[1]) == "file",
                  let digest = StableDigest(hex: text(fields[2])), !path.isEmpty else { return false }
            inputs.append(Input(path: path, isFolder: isFolder, digest: digest))
        case ("file", 3):
            let path = text(fields[2])
            guard let contents = bytes(fields[1]), Self.isOutputPath(path) else { return false }
            files.append((path, contents))
        case ("output", 4):
            let encoding = text(fields[2]), path = text(fields[3])
            guard let key = StableDigest(hex: text(fields[1])), !encoding.isEmpty, Self.isOutputPath(path) else { return false }
            outputs.append((path, .stored(key: key, encoding: encoding)))
        case ("fallback", 3):
            let path = text(fields[2])
            guard let contents = bytes(fields[1]), Self.isOutputPath(path) else { return false }
            outputs.append((path, .fellBack(contents)))
        case ("bytes", 5):
            let encoding = text(fields[2]), path = text(fields[4])
            guard let key = StableDigest(hex: text(fields[1])), !encoding.isEmpty, let contents = bytes(fields[3]),
                  Self.isOutputPath(path) else { return false }
            outputs.append((path, .inline(key: key, encoding: encoding, bytes: contents)))
        default:
            return false
        }
        return true
    }

    private static func text(_ field: Slice<UnsafeRawBufferPointer>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: field), as: UTF8.self)
    }

    private static func base64(_ field: Slice<UnsafeRawBufferPointer>) -> Data? {
        Data(base64Encoded: Data(UnsafeRawBufferPointer(rebasing: field)))
    }

    /// The most inputs a record lists: each is read to check it, so a damaged or forged record
    /// must not list millions.
    static let inputLimit = 65_536

    /// Whether `path` stays inside the output folder (see ``OutputPath``): a damaged or forged
    /// store must never make a run write elsewhere.
    private static func isOutputPath(_ path: String) -> Bool { (try? OutputPath(path)) != nil }

    init(inputs: [Input], files: [(path: String, contents: Data)], outputs: [(path: String, content: Content)]) {
        self.inputs = inputs
        self.files = files
        self.outputs = outputs
    }
}

extension ManifestRun {
    /// Works out what every run's identity needs once per process: the program's build, the
    /// versions of the libraries it draws with (loading them), the key of an empty SVG. The
    /// `render` command has this done on another thread as soon as its line is read, while that
    /// one builds its option types; the run finds it made, or waits for it (each part is made
    /// once, by whichever thread asks first).
    package static func prepareIdentity() {
        _ = BuildIdentity.current
        _ = ManifestRunRecord.emptySVGKey
        _ = RenderEnvironment.libraryVersions()
        _ = WebPBatchEncoder.libraryVersion
    }
}
