import Foundation

/// What a failed golden assertion leaves behind for a person (and `rasterkit report`):
/// `expected.png`, `actual.png`, `diff.png` and `result.json` in one folder per golden.
package struct FailureArtifacts {
    package typealias Summary = FailureSummary

    package let directory: URL

    package init(directory: URL) { self.directory = directory }

    /// Writes whichever images there are, replacing older artifacts of the same golden.
    package func write(summary: Summary, expected: [UInt8]?, actual: [UInt8], diff: [UInt8]?) throws -> [(name: String, bytes: [UInt8])] {
        do {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var files: [(String, [UInt8])] = [("actual.png", actual)]
            if let expected { files.append(("expected.png", expected)) }
            if let diff { files.append(("diff.png", diff)) }
            for (name, bytes) in files {
                try Data(bytes).write(to: directory.appendingPathComponent(name), options: .atomic)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(summary).write(to: directory.appendingPathComponent("result.json"), options: .atomic)
            return files.map { (name: $0.0, bytes: $0.1) }
        } catch {
            throw GoldenError.cannotWrite(path: directory.path, reason: "\(error)")
        }
    }
}
