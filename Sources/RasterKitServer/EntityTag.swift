import Foundation

/// Strong entity tags made from render keys, and `If-None-Match` matching.
enum EntityTag {
    /// The quoted tag of the render whose key digest is `digest`.
    static func quoted(_ digest: String) -> String { "\"" + digest + "\"" }

    /// Whether `ifNoneMatch` (a list of tags, or `*`) names `tag`. `If-None-Match` compares
    /// weakly (RFC 9110 13.1.2), so a `W/` prefix a proxy added still matches.
    static func matches(_ ifNoneMatch: String, tag: String) -> Bool {
        // A revalidating client or CDN sends back the one tag it has: no list to split.
        if ifNoneMatch == tag { return true }
        for candidate in ifNoneMatch.split(separator: ",") {
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if value.hasPrefix("W/") { value.removeFirst(2) }
            if value == tag { return true }
        }
        return false
    }
}
