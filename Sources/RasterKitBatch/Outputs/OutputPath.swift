import RasterKit

/// Where a file goes below a batch's output folder, checked once when it is made: relative,
/// folders separated by `/`, and no part that is empty, `.` or `..`, so it can never name a
/// file outside the folder, nor the folder itself.
///
/// ```swift
/// let path = try OutputPath("drawable-xhdpi/panel.9.png")
/// path.folder    // "drawable-xhdpi"
/// ```
public struct OutputPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path as written, relative to the output folder.
    public let rawValue: String

    /// Checks `path`; throws ``BatchPlanError/invalidOutputPath(item:path:reason:)`` saying what
    /// is wrong with it.
    public init(_ path: String) throws(BatchPlanError) {
        guard !path.isEmpty else { throw .invalidOutputPath(item: path, path: path, reason: "it is empty") }
        if let problem = Self.problem(in: path) { throw .invalidOutputPath(item: path, path: path, reason: problem) }
        rawValue = path
    }

    /// What makes `path` (not empty) unusable, or nil. One pass over its UTF-8 bytes: a batch
    /// checks every output's path, and splitting each into substrings cost a warm run more
    /// than reading its bytes from the store.
    private static func problem(in path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes -> String? in
            let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
            guard bytes[0] != slash else { return "it is absolute" }
            var partStart = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : slash
                if byte == 0 { return "it holds a NUL character" }
                guard byte == slash else { continue }
                switch index - partStart {
                case 0: return "it has an empty folder name (a doubled or trailing /)"
                case 1 where bytes[partStart] == dot: return "it goes through '.'"
                case 2 where bytes[partStart] == dot && bytes[partStart + 1] == dot: return "it goes through '..'"
                default: partStart = index + 1
                }
            }
            return nil
        }
    }

    /// The folder part, without its trailing `/`; empty for a file directly in the output folder.
    public var folder: String {
        rawValue.lastIndex(of: "/").map { String(rawValue[..<$0]) } ?? ""
    }

    /// The path as file systems that ignore case see it (macOS and Windows by default, where
    /// a batch's outputs are often used): two paths with the same key are one file there.
    var caseInsensitiveKey: String {
        var path = rawValue
        return path.withUTF8 { bytes in
            // Most paths are ASCII, whose lower case needs no Unicode tables.
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return rawValue.lowercased() }
            return String(unsafeUninitializedCapacity: bytes.count) { lowered in
                for (index, byte) in bytes.enumerated() {
                    lowered[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }

    /// The path as written.
    public var description: String { rawValue }

    /// Ordered by their text.
    public static func < (lhs: OutputPath, rhs: OutputPath) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Marks outputs whose paths were all checked and claimed in one ``OutputPathClaims`` without a
/// conflict (an SVG batch's), each with its own ordinal below `count`. A batch of outputs that
/// all carry one token, each ordinal at most once (all of them or some, in any order), needs no
/// second check. Changing an output's path drops its token.
final class OutputPathClaimToken: Sendable {
    let count: Int
    init(count: Int) { self.count = count }

    /// Whether `outputs` all carry one token, each of its ordinals at most once.
    static func claimedTogether(_ outputs: [BatchOutput]) -> Bool {
        guard let token = outputs.first?.pathClaims?.token, outputs.count <= token.count else { return false }
        var seen = [Bool](repeating: false, count: token.count)
        // By index: looking at one field through the array copies no whole output (with its closures).
        for index in outputs.indices {
            guard let claim = outputs[index].pathClaims, claim.token === token, claim.ordinal >= 0, claim.ordinal < token.count,
                  !seen[claim.ordinal] else { return false }
            seen[claim.ordinal] = true
        }
        return true
    }
}

/// The paths a batch has handed out, and to whom: the one place two outputs writing one file
/// are caught, whether the paths are equal or differ only in case (one file on macOS and Windows).
struct OutputPathClaims {
    /// The owner of each path, and the path first claimed for each case-insensitive key.
    private var owners: [OutputPath: String] = [:]
    private var byKey: [String: OutputPath] = [:]

    /// Claims with room for `count` paths, so a batch's thousands do not regrow the tables.
    init(capacity count: Int = 0) {
        owners.reserveCapacity(count)
        byKey.reserveCapacity(count)
    }

    /// Checks `path` (see ``OutputPath``) and gives it to `owner`, unless another owner has it or
    /// a path differing only in case; the error names both owners.
    mutating func claim(_ path: String, by owner: String) throws(BatchPlanError) {
        let checked: OutputPath
        do { checked = try OutputPath(path) } catch { throw error.naming(item: owner) }
        if let previous = owners[checked] { throw .conflictingOutputs(path: path, first: previous, second: owner) }
        let key = checked.caseInsensitiveKey
        if let other = byKey[key] {
            throw .outputsDifferOnlyInCase(path: path, other: other.rawValue, first: owners[other] ?? "", second: owner)
        }
        owners[checked] = owner
        byKey[key] = checked
    }
}
