import RasterKit
import Foundation

/// Finds the SVG files under a folder with `readdir`: hidden entries are skipped (and hidden
/// folders not entered), links to files count as the files they point to, links to folders are
/// not followed (so a loop of links cannot trap the walk).
///
/// Plain POSIX calls: `FileManager`'s enumerator and `URL` arithmetic would cost more than the
/// rest of a batch whose renders are all up to date.
enum SVGFileWalker {
    /// One file found: its path relative to the folder.
    struct Found {
        var relativePath: String
    }

    /// The SVG files under `folder`, sorted by relative path; nil when `folder` cannot be read.
    /// Every folder entered is stamped in `inputs` before it is listed, and every file found.
    static func files(in folder: String, extensions: [String], noting inputs: InputStamps? = nil) -> [Found]? {
        var found: [Found] = []
        guard walk(folder, relative: "", extensions: extensions, noting: inputs, into: &found) else { return nil }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    /// Adds what `folder + relative` holds; false when that folder cannot be opened.
    private static func walk(_ root: String, relative: String, extensions: [String], noting inputs: InputStamps?,
                             into found: inout [Found]) -> Bool {
        let path = relative.isEmpty ? root : root + "/" + relative
        inputs?.note(path)
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        // Entries are looked at by name in the open folder, not by their whole path: the kernel
        // then walks one name, not every folder from the root again.
        let folder = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }  // also "." and ".."
            let child = relative.isEmpty ? name : relative + "/" + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR):
                _ = walk(root, relative: child, extensions: extensions, noting: inputs, into: &found)
            case Int32(DT_REG):
                guard hasExtension(name, in: extensions) else { continue }
                // The folder said it is a file: it is looked at only to be stamped.
                if let inputs {
                    var info = stat()
                    guard fstatat(folder, name, &info, 0) == 0 else { continue }
                    inputs.note(root + "/" + child, info)
                }
                found.append(Found(relativePath: child))
            default:
                // A link, or a file system that does not say: look at what the name reaches.
                guard hasExtension(name, in: extensions) else { continue }
                var info = stat()
                guard fstatat(folder, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                inputs?.note(root + "/" + child, info)
                found.append(Found(relativePath: child))
            }
        }
        return true
    }

    private static func hasExtension(_ name: String, in extensions: [String]) -> Bool {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
