import Foundation

/// Whether a path lies inside a folder, seen through `..` and symbolic links: the one check of
/// every command and route that writes only inside a folder it was given.
package enum PathContainment {
    /// Whether `path` is `folder` or lies somewhere inside it, once both are made absolute, `.`
    /// and `..` resolved and the symbolic links of their existing parts followed: a path that
    /// reaches into the folder through a link is inside it too, and one that leaves it through
    /// a link is not.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        let file = canonical(path), root = canonical(folder)
        return file == root || file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` absolute and standardized, with its longest existing prefix resolved by
    /// `realpath` (which follows every link) and the rest, not yet created, appended as given.
    package static func canonical(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL.path
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                guard !rest.isEmpty else { return base }
                return (base.hasSuffix("/") ? base : base + "/") + rest.reversed().joined(separator: "/")
            }
            guard existing != "/", !existing.isEmpty else { return path }
            let url = URL(fileURLWithPath: existing)
            rest.append(url.lastPathComponent)
            existing = url.deletingLastPathComponent().path
        }
    }
}
