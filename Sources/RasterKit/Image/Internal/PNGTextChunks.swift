import Foundation

/// The uncompressed text chunks (`tEXt`) of a PNG, read by walking its chunk lengths without
/// inflating anything: how a stored render's scale and cap insets are known without decoding
/// its pixels. Chunks that run past the end, and everything after, are ignored; CRCs are not
/// checked (callers have checked the bytes as a whole).
enum PNGTextChunks {
    static func read(_ data: Data) -> [String: String] {
        // Read in place: this runs for every render kept without decoding.
        data.withUnsafeBytes { bytes in
            var texts: [String: String] = [:]
            var offset = PNGHeader.signature.count
            while offset + 12 <= bytes.count {
                let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
                let start = offset + 8
                guard length <= bytes.count - start - 4 else { break }
                let type = bytes[offset + 4 ..< start]
                if type.elementsEqual("IEND".utf8) { break }
                if type.elementsEqual("tEXt".utf8), let separator = bytes[start ..< start + length].firstIndex(of: 0) {
                    // Latin-1, as PNG's text chunks are.
                    let key = String(bytes[start ..< separator].map { Character(Unicode.Scalar($0)) })
                    let value = String(bytes[separator + 1 ..< start + length].map { Character(Unicode.Scalar($0)) })
                    texts[key] = value
                }
                offset = start + length + 4
            }
            return texts
        }
    }
}
