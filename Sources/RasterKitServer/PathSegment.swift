import Foundation

/// Checks a request's path segments before any lookup: a segment that is empty, `.`, `..` or
/// starts with a dot (even percent-encoded), or holds a slash, NUL or backslash once decoded,
/// is refused with 400 — such a request is an attack or a mistake, never an asset.
enum PathSegment {
    static func decoded(_ raw: Substring) throws(RequestError) -> String {
        // Most segments have nothing encoded: decoding is skipped for them.
        guard let decoded = raw.contains("%") ? String(raw).removingPercentEncoding : String(raw) else {
            throw .badRequest("the path segment '\(raw)' is not valid percent-encoding")
        }
        guard !decoded.isEmpty, !decoded.hasPrefix("."),
              !decoded.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) else {
            throw .badRequest("the path segment '\(raw)' is not allowed (no '..', hidden names or separators)")
        }
        return decoded
    }
}
