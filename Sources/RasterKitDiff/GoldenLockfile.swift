import Foundation
import RasterKit

/// A golden lockfile: what a team commits instead of golden PNGs. It maps each golden's name to
/// the state key it was rendered from, the digest of its pixels (``RGBABitmap/pixelDigest``) and
/// the render environment it was recorded in; the PNGs live in the remote cache under their pixel
/// digests (`RemoteStore.putGolden`).
///
/// A check whose output has the locked key and environment skips drawing it: the same key in the
/// same environment draws the same pixels. Otherwise it draws, and compares pixels by digest,
/// fetching the golden only when they differ, to compare within the tolerance and show a diff.
///
/// The file is JSON with sorted keys and a final newline, so an unchanged lock gives the same
/// bytes and a changed golden is a few lines of a review:
///
/// ```json
/// {
///   "environments" : { "5f0c…" : { "fonts" : [ … ], "libraries" : { "cairo" : "1.18.0", … } } },
///   "format" : 1,
///   "goldens" : {
///     "badge/unread@2x" : { "environment" : "5f0c…", "key" : "3a9e…-png1", "pixels" : "81d2…" }
///   }
/// }
/// ```
package struct GoldenLockfile: Codable, Equatable, Sendable {
    /// One locked golden.
    package struct Entry: Codable, Equatable, Sendable {
        /// The fingerprint of what was rendered: the state key and the encoding (`<digest>-png1`).
        package var key: String
        /// The digest of the golden's pixels: 32 hexadecimal digits.
        package var pixels: String
        /// The name of its environment in ``GoldenLockfile/environments``.
        package var environment: String

        package init(key: String, pixels: StableDigest, environment: String) {
            self.key = key
            self.pixels = pixels.hex
            self.environment = environment
        }

        /// ``pixels`` as a digest (checked when the file is read).
        package var pixelDigest: StableDigest { StableDigest(hex: pixels) ?? StableDigest(high: 0, low: 0) }
    }

    /// The format this library writes and reads.
    package static let currentFormat = 1
    /// The largest lockfile read: about 200,000 goldens, checked before it is parsed.
    package static let maximumBytes = 64 << 20

    package var format = GoldenLockfile.currentFormat
    /// Environment name (``environmentName(of:)``) → the environment.
    package var environments: [String: RenderEnvironment] = [:]
    /// Golden name → its entry.
    package var goldens: [String: Entry] = [:]

    package init() {}

    /// The name an environment is stored under: 16 hexadecimal digits of its digest.
    package static func environmentName(of environment: RenderEnvironment) -> String {
        var hasher = SipHash128()
        let data = (try? environment.jsonData()) ?? Data()
        data.withUnsafeBytes { hasher.write($0) }
        return String(hasher.finalize().hex.prefix(16))
    }

    /// The entry of `name`, and its environment.
    package func entry(_ name: String) -> (entry: Entry, environment: RenderEnvironment?)? {
        goldens[name].map { ($0, environments[$0.environment]) }
    }

    /// Locks `name` to `key` and `pixels`, recorded in `environment`.
    package mutating func lock(_ name: String, key: String, pixels: StableDigest, environment: RenderEnvironment) {
        let environmentName = Self.environmentName(of: environment)
        environments[environmentName] = environment
        goldens[name] = Entry(key: key, pixels: pixels, environment: environmentName)
    }

    /// Reads the lockfile at `url`; an empty lock when there is no file.
    package init(contentsOf url: URL) throws(GoldenLockfileError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            self.init()
            return
        }
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw GoldenLockfileError(path: path, reason: "it is not a regular file")
            }
            if let size = attributes[.size] as? Int, size > Self.maximumBytes {
                throw GoldenLockfileError(path: path, reason: "it is \(size) bytes, over the limit of \(Self.maximumBytes)")
            }
            data = try Data(contentsOf: url)
        } catch let error as GoldenLockfileError {
            throw error
        } catch {
            throw GoldenLockfileError(path: path, reason: "it cannot be read: \(error.localizedDescription)")
        }
        try self.init(data: data, path: path)
    }

    /// Parses and checks a lockfile's bytes; `path` names it in errors.
    package init(data: Data, path: String) throws(GoldenLockfileError) {
        guard data.count <= Self.maximumBytes else {
            throw GoldenLockfileError(path: path, reason: "it is \(data.count) bytes, over the limit of \(Self.maximumBytes)")
        }
        do {
            self = try JSONDecoder().decode(GoldenLockfile.self, from: data)
        } catch {
            throw GoldenLockfileError(path: path, reason: "it is not a golden lockfile: \(Self.describe(error))")
        }
        guard format == Self.currentFormat else {
            throw GoldenLockfileError(path: path, reason: "its format is \(format); this RasterKit reads format \(Self.currentFormat)")
        }
        for (name, entry) in goldens {
            if let problem = Self.problem(name: name, entry: entry, environments: environments) {
                throw GoldenLockfileError(path: path, reason: "golden \(name.debugDescription): \(problem)")
            }
        }
    }

    /// What is wrong with an entry as read, or nil.
    private static func problem(name: String, entry: Entry, environments: [String: RenderEnvironment]) -> String? {
        if let problem = nameProblem(name) { return problem }
        if entry.key.isEmpty || entry.key.utf8.count > 256 || entry.key.contains(where: { $0.isWhitespace || $0.isNewline }) {
            return "its key must be 1 to 256 characters without spaces"
        }
        if StableDigest(hex: entry.pixels) == nil { return "its pixels must be 32 hexadecimal digits" }
        if environments[entry.environment] == nil { return "its environment \(entry.environment.debugDescription) is not listed" }
        return nil
    }

    /// Why `name` cannot be a locked golden's name, or nil.
    package static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 1_024 { return "a name must be 1 to 1,024 bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a name cannot hold control characters"
        }
        return nil
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context): return "invalid JSON" + location(context)
        case .keyNotFound(let key, let context): return "\(key.stringValue) is missing" + location(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription + location(context)
        @unknown default: return "\(error)"
        }
    }

    private static func location(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "" : " at \(path)"
    }

    /// The file's bytes: sorted, pretty-printed JSON with a final newline, listing only the
    /// environments some golden uses.
    package func data() throws -> Data {
        var pruned = self
        let used = Set(goldens.values.map(\.environment))
        pruned.environments = environments.filter { used.contains($0.key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(pruned) + Data("\n".utf8)
    }

    /// Serializes read-modify-write updates of lockfiles within this process (the review page
    /// accepts several goldens at once); the file is replaced atomically.
    private static let updates = NSLock()

    /// Reads the lockfile at `url`, applies `change`, and writes it back unless nothing changed.
    package static func update<Result>(at url: URL,
                                       _ change: (inout GoldenLockfile) throws -> Result) throws -> Result {
        updates.lock()
        defer { updates.unlock() }
        let old = try GoldenLockfile(contentsOf: url)
        var new = old
        let result = try change(&new)
        if new != old || !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try new.data().write(to: url, options: .atomic)
        }
        return result
    }
}

/// A golden lockfile that cannot be used.
package struct GoldenLockfileError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String { "golden lockfile \(path): \(reason)" }
}
