import RasterKit
import Foundation
internal import Yams

/// The PNG and SVG files a manifest names, relative to its folder, each read (and a PNG's
/// digest computed) once however many layers and states use it. A file is read when the
/// manifest loads, so a missing file is a manifest problem, and its digest (not its path) goes
/// into render keys.
final class ManifestFiles {
    let directory: URL
    /// Where each file read is stamped first, when the manifest came from a file.
    let inputs: InputStamps?
    private var cache: [String: Result<Data, FileReadError>] = [:]
    private var svgDocuments: [String: SVGDocument] = [:]
    private var pngFiles: [String: LayerFile] = [:]

    /// The largest file read.
    let limit: Int

    init(directory: URL, inputs: InputStamps? = nil, limit: Int = ResourceLimits.default.maximumInputBytes) {
        self.directory = directory
        self.inputs = inputs
        self.limit = limit
    }

    /// `path` as given when absolute, else inside the manifest's folder.
    func fullPath(_ path: String) -> String {
        path.hasPrefix("/") ? path : directory.appendingPathComponent(path).path
    }

    /// The bytes of `path` (relative to the manifest's folder unless absolute).
    func bytes(_ path: String) -> Result<Data, FileReadError> {
        if let cached = cache[path] { return cached }
        let full = fullPath(path)
        inputs?.note(full)
        let result = Result { () throws(FileReadError) in try FileReader.read(full, naming: path, limit: limit) }
        cache[path] = result
        return result
    }

    /// The SVG document at `path`, not parsed yet: drawing parses it, so an output served from
    /// the cache never pays for parsing.
    func svgDocument(_ path: String) -> Result<SVGDocument, FileReadError> {
        if let document = svgDocuments[path] { return .success(document) }
        return bytes(path).map { data in
            let document = SVGDocument(unvalidatedData: data, externalReferences: .blocked, source: path)
            svgDocuments[path] = document
            return document
        }
    }

    /// The PNG layer file at `path` from its bytes, made once: making one hashes every byte.
    func pngFile(_ path: String, bytes data: Data) -> LayerFile {
        if let file = pngFiles[path] { return file }
        let file = LayerFile(source: path, data: [UInt8](data))
        pngFiles[path] = file
        return file
    }
}

extension ManifestReader {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG named by `node`, read now.
    func pngFile(_ node: Node, _ what: String) -> LayerFile? {
        guard let path = filePath(node, what) else { return nil }
        switch files.bytes(path) {
        case .failure(let error):
            problem("\(what): \(error.description)", at: node)
            return nil
        case .success(let bytes):
            guard bytes.starts(with: Self.pngSignature) else {
                problem("\(what) names \"\(path)\", which is not a PNG file", at: node)
                return nil
            }
            return files.pngFile(path, bytes: bytes)
        }
    }

    /// An SVG named by `node`, read now and parsed when first drawn.
    func svgFile(_ node: Node, _ what: String) -> SVGDocument? {
        guard let path = filePath(node, what) else { return nil }
        switch files.svgDocument(path) {
        case .failure(let error):
            problem("\(what): \(error.description)", at: node)
            return nil
        case .success(let document):
            return document
        }
    }

    private func filePath(_ node: Node, _ what: String) -> String? {
        guard let path = string(node, what) else { return nil }
        guard !path.isEmpty else {
            problem("\(what) must name a file", at: node)
            return nil
        }
        return path
    }
}
