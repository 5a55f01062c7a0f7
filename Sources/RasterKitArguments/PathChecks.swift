import ArgumentParser
import Foundation
import RasterKit

/// Checks of the paths a command is given, made in `validate()` so a mistake exits with 2
/// before anything is read or written.
package enum PathChecks {
    /// An empty path would resolve to the working directory (`--out ""` wrote every output
    /// there), so every path option and argument refuses it.
    package static func requireNonEmpty(_ path: String, _ what: String) throws {
        guard !path.isEmpty else { throw ValidationError("\(what) needs a path, not an empty string") }
    }

    /// A file to be written must go into a folder that exists: creating folders is for
    /// `--out`, not for a single output file whose path may be a typo.
    package static func requireExistingFolder(above path: String, _ what: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(what) \(path): the folder \(folder) does not exist")
        }
    }

    /// Whether `first` and `second` name one file: the same device and inode when both exist
    /// (which sees through symbolic and hard links), else the same path once resolved.
    package static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(first) == resolved(second)
    }

    /// A file to be written replaces only a regular file: a device (`-o /dev/null` run as root
    /// replaced the system's /dev/null), a FIFO, a socket, a folder or a symbolic link at the
    /// path is refused up front, before any work (the writer refuses them again at the rename).
    package static func requireReplaceable(_ path: String, _ what: String) throws {
        guard let kind = AtomicFileWriter.nonRegularKind(at: path) else { return }
        throw ValidationError("\(what) \(path) is \(kind); only a regular file (or a new one) is written there")
    }

    /// Whether `path` is `folder` or lies somewhere inside it (see ``PathContainment``).
    package static func isInside(_ path: String, _ folder: String) -> Bool { PathContainment.isInside(path, folder) }

    /// `path` absolute, standardized and with its existing part's links resolved (see ``PathContainment``).
    package static func canonical(_ path: String) -> String { PathContainment.canonical(path) }
}
