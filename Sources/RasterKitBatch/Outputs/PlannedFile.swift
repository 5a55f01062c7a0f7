import RasterKit

/// A file a batch will write, known before anything is rendered: what build systems need to
/// declare a step's outputs in advance (`rasterkit render --list-outputs`).
public struct PlannedFile: Hashable, Sendable, Codable {
    /// Relative to the output folder.
    public var path: String
    /// The digest of the render's cache key; nil for files that are not renders (an asset
    /// catalog's `Contents.json`) and for outputs whose key cannot be told without rendering
    /// (a missing input, an output made by a closure).
    public var key: String?
    /// The identifier of the encoder that makes the file from the render (see ``BatchEncoder``).
    public var encoding: String?

    /// A planned file at `path`.
    public init(path: String, key: String? = nil, encoding: String? = nil) {
        self.path = path
        self.key = key
        self.encoding = encoding
    }
}

extension BatchOutput {
    /// The file this output writes, with its render's key when it can be told without rendering.
    public var plannedFile: PlannedFile {
        PlannedFile(path: path, key: (try? renderKey?())?.digest, encoding: encoder?.identifier ?? vectorEncoding)
    }
}

extension BatchPlan {
    /// Every file the plan writes — the images and the files beside them — sorted by path.
    public var plannedFiles: [PlannedFile] {
        (files.map { PlannedFile(path: $0.path) } + outputs.map(\.plannedFile)).sorted { $0.path < $1.path }
    }
}
