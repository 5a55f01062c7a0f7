import Foundation
import RasterKit

/// `environment.json` in a golden folder: the libraries and fonts the folder's goldens were last
/// recorded with (``RenderEnvironment``), so a failure on another machine can say what changed.
///
/// Written whenever a golden of the folder is recorded or accepted (`rasterkit goldens accept`),
/// and only when its bytes would change; its content is sorted JSON without dates, so recording
/// the same environment twice gives the same file.
package struct GoldenEnvironmentFile {
    package static let fileName = "environment.json"

    package let url: URL

    package init(goldenURL: URL) {
        url = goldenURL.deletingLastPathComponent().appendingPathComponent(GoldenEnvironmentFile.fileName)
    }

    /// The recorded environment; nil when there is no file or it cannot be read (goldens
    /// recorded before environments were, or a hand-edited file).
    package func read() -> RenderEnvironment? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(RenderEnvironment.self, from: data)
    }

    /// Writes `environment` unless the file already holds exactly its bytes.
    package func record(_ environment: RenderEnvironment) throws {
        let data = try environment.jsonData()
        if (try? Data(contentsOf: url)) == data { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// The first lines of a failure message when the recorded environment differs from
    /// `current`, telling the reviewer whether to re-record or debug; nil when nothing differs
    /// or nothing was recorded.
    package func mismatchNote(current: RenderEnvironment) -> String? {
        guard let recorded = read() else { return nil }
        let differences = recorded.differences(now: current)
        guard !differences.isEmpty else { return nil }
        return "The render environment changed since this folder's goldens were recorded: "
            + differences.joined(separator: "; ") + " (\(url.path)).\n"
            + "If the new versions are expected, review the difference and re-record; otherwise debug the rendering.\n"
    }
}
