import RasterKitBatch

/// The file extensions render routes answer, with the encoder and media type of each. A format
/// without an encoder is known but not served yet: answered 415 with a JSON error. Adding one
/// is one entry in ``all``.
struct ServedFormat: Sendable {
    let fileExtension: String
    let contentType: String
    /// Nil: not implemented yet.
    let encoder: (any BatchEncoder)?

    static let all: [String: ServedFormat] = [
        "png": ServedFormat(fileExtension: "png", contentType: "image/png", encoder: PNGBatchEncoder()),
        "webp": ServedFormat(fileExtension: "webp", contentType: "image/webp", encoder: WebPBatchEncoder()),
        // PDF output is being added to RasterKitBatch; its encoder goes here when it lands.
        "pdf": ServedFormat(fileExtension: "pdf", contentType: "application/pdf", encoder: nil),
    ]

    /// Splits `name.ext` into the name and its format.
    static func split(_ file: String) throws(RequestError) -> (name: String, format: ServedFormat) {
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else {
            throw .notFound("'\(file)' has no extension; ask for .png or .webp")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        guard let format = all[ext] else {
            throw .notFound("unknown format '.\(ext)'; this server answers .png and .webp")
        }
        guard format.encoder != nil else {
            throw RequestError(.unsupportedMediaType, ".\(ext) output is not implemented yet; ask for .png or .webp")
        }
        return (String(file[..<dot]), format)
    }
}
