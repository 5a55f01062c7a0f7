import RasterKit
import Foundation

/// What `--list-outputs` prints: the files a run would write and the files it reads, known
/// before anything is rendered — what a build system (a SwiftPM build-tool plugin, a Makefile)
/// declares as a step's outputs and inputs.
///
/// ```swift
/// guard case .ready(let prepared) = try ManifestRun(manifest: manifestURL, outputDirectory: outURL,
///                                                   reusesUpToDateOutputs: false).prepare() else { return }
/// print(OutputListing(prepared.plan).json)  // {"inputs":["/…/assets.yaml",…],"outputs":[{"encoding":"png1","key":"…","path":"…"},…]}
/// ```
public struct OutputListing: Codable, Hashable, Sendable {
    /// Every file the run writes, relative to the output folder, sorted by path.
    public var outputs: [PlannedFile]
    /// Every file and folder the run reads, as absolute paths (see ``BatchPlan/inputPaths``);
    /// nil when not known (outputs listed without a manifest).
    public var inputs: [String]?

    /// A listing of `outputs` and `inputs`.
    public init(outputs: [PlannedFile], inputs: [String]? = nil) {
        self.outputs = outputs
        self.inputs = inputs
    }

    /// The files `plan` writes and the files it was made from.
    public init(_ plan: BatchPlan) {
        self.init(outputs: plan.plannedFiles, inputs: plan.inputPaths)
    }

    /// The listing as one line of JSON, keys sorted and slashes unescaped, as every `--json` of
    /// `rasterkit` prints: `{"inputs": […], "outputs": [{"encoding", "key", "path"}, …]}`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The output paths, one a line (each line ends with a newline; empty for no outputs).
    public var text: String {
        outputs.map { $0.path + "\n" }.joined()
    }
}
