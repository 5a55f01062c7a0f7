import RasterKit
import RasterKitBatch

/// The file extensions render routes answer, with the media type of each and how its bytes are
/// made: an encoder of the render (PNG, WebP), or a vector document drawn from the component
/// (PDF, SVG). Adding a format is one entry in ``all``.
struct ServedFormat: Sendable {
    let fileExtension: String
    let contentType: String
    /// Encodes the render; nil for a vector format.
    let encoder: (any BatchEncoder)?
    /// Draws the component as a document instead of rendering it; nil for an image format.
    let vector: VectorFormat?

    static let all: [String: ServedFormat] = [
        "png": ServedFormat(fileExtension: "png", contentType: "image/png", encoder: PNGBatchEncoder(), vector: nil),
        "webp": ServedFormat(fileExtension: "webp", contentType: "image/webp", encoder: WebPBatchEncoder(), vector: nil),
        "pdf": ServedFormat(fileExtension: "pdf", contentType: "application/pdf", encoder: nil, vector: .pdf),
        "svg": ServedFormat(fileExtension: "svg", contentType: "image/svg+xml", encoder: nil, vector: .svg),
    ]

    /// The extensions, for messages.
    static let listed = all.keys.sorted().map { "." + $0 }.joined(separator: ", ")

    /// Splits `name.ext` into the name and its format.
    static func split(_ file: String) throws(RequestError) -> (name: String, format: ServedFormat) {
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else {
            throw .notFound("'\(file)' has no extension; ask for one of \(listed)")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        guard let format = all[ext] else {
            throw .notFound("unknown format '.\(ext)'; this server answers \(listed)", code: "unknown_format")
        }
        return (String(file[..<dot]), format)
    }
}
