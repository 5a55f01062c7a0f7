import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// A temporary folder holding a manifest and the files it names, for manifest and batch tests.
struct ManifestFixture {
    let folder: URL

    init(_ name: String = #function) throws {
        folder = try TestSupport.temporaryDirectory(name)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Writes `text` to `name` in the folder (creating subfolders) and returns its URL.
    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        try write(Data(text.utf8), to: name)
    }

    @discardableResult
    func write(_ data: Data, to name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }

    /// A 4×4 PNG of one colour at `name`.
    func writePNG(_ name: String, color: Color = .red) throws {
        try write(try TestSupport.solidImage(color).pngData(), to: name)
    }

    /// A 24×24 SVG square of one colour at `name`.
    func writeSVG(_ name: String, color: String = "black") throws {
        try write(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect x="4" y="4" width="16" height="16" fill="\#(color)"/></svg>"#,
                  to: name)
    }

    /// Loads `text` as `manifest.yaml` (or another name) from the folder.
    func load(_ text: String, as name: String = "manifest.yaml") throws -> Manifest {
        try Manifest(contentsOf: write(text, to: name))
    }

    /// The problems loading `text` reports; fails the test when it loads cleanly.
    func problems(_ text: String, as name: String = "manifest.yaml",
                  sourceLocation: SourceLocation = #_sourceLocation) throws -> [ManifestError.Problem] {
        do {
            _ = try load(text, as: name)
            Issue.record("the manifest loaded without problems", sourceLocation: sourceLocation)
            return []
        } catch let error as ManifestError {
            return error.problems
        }
    }

    /// Every regular file under `directory`, relative and sorted, without the batch index and run record.
    static func files(in directory: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue, !path.hasSuffix(".rasterkit-index.tsv"), !path.hasSuffix(".rasterkit-render.tsv") { files.append(path) }
        }
        return files.sorted()
    }
}

extension Array where Element == ManifestError.Problem {
    /// `line:column: message` for each problem, for compact expectations.
    var located: [String] { map { "\($0.line):\($0.column): \($0.message)" } }

    /// Whether some problem sits at `line`:`column` and its message contains `text`.
    func contains(_ line: Int, _ column: Int, _ text: String) -> Bool {
        contains { $0.line == line && $0.column == column && $0.message.contains(text) }
    }
}

extension Manifest {
    /// The first state's layers of `component`.
    func layers(_ component: String, state: String? = nil) -> [Layer] {
        guard let found = self.component(named: component) else { return [] }
        return (state.flatMap { name in found.states.first { $0.name == name } } ?? found.states.first)?.layers ?? []
    }
}
