import Foundation

/// When golden assertions write golden files: the `record:` argument of an assertion, or else
/// `RASTERKIT_RECORD`.
///
/// The default is `missing` on a developer machine and `never` when the `CI` environment
/// variable is set, so CI fails on a missing golden instead of recording one.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Record goldens that do not exist yet (and fail, so they get reviewed).
    case missing
    /// Record every golden whose pixels changed (and fail for each).
    case all
    /// Re-record goldens that fail the comparison (and fail for each).
    case failed
    /// Never write goldens: a missing golden is a failure.
    case never
    /// Never write goldens and never fail: every difference and missing golden leaves its
    /// failure artifacts and a line on standard error, for reviewing a renderer upgrade with
    /// `rasterkit report`.
    case compare

    /// The mode from the environment, and a sentence saying where it came from.
    package static func current(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> (mode: RecordMode, source: String) {
        if let text = environment["RASTERKIT_RECORD"], !text.isEmpty {
            guard let mode = RecordMode(rawValue: text.lowercased()) else {
                throw GoldenError.invalidRecordMode(text)
            }
            return (mode, "RASTERKIT_RECORD=\(text)")
        }
        if isCI(environment) { return (.never, "CI is set") }
        return (.missing, "the default on a developer machine")
    }

    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !(value.isEmpty || value == "0" || value == "false" || value == "no")
    }
}

/// A golden assertion or report that could not run: bad configuration, unreadable files, a
/// folder that is not one.
public enum GoldenError: Error, Sendable, CustomStringConvertible {
    case invalidRecordMode(String)
    case packageRootNotFound(searchedFrom: String)
    case cannotWrite(path: String, reason: String)
    case invalidName(String)
    /// An `ignoring:` rectangle that cannot be used, with the reason.
    case invalidMask(String)
    /// The folder ``GoldenReport`` was asked to read is not a folder.
    case notAnArtifactsFolder(String)

    /// What went wrong and how to fix it, in one line.
    public var description: String {
        switch self {
        case .invalidRecordMode(let text):
            "RASTERKIT_RECORD=\(text) is not a record mode; use one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))"
        case .packageRootNotFound(let path):
            "no Package.swift above \(path); pass goldensDirectory: or set RASTERKIT_GOLDENS"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case .invalidName(let name): "\"\(name)\" cannot be part of a golden file name"
        case .invalidMask(let reason): "invalid ignoring: \(reason)"
        case .notAnArtifactsFolder(let path): "\(path) is not a directory of golden failure artifacts"
        }
    }
}
