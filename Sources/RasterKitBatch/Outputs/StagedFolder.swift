import Foundation
import RasterKit

/// A new folder built under a hidden name beside where it belongs, then published with one
/// rename: readers see no folder, then all of it, never some of its files.
///
/// A run into an output folder that does not exist yet (a CI job's fresh checkout) writes there:
/// nobody can see a file before the folder is published, so ``FolderWriter`` creates each file
/// under its own name and writes it in place, rather than linking in a nameless file, which
/// costs three times as much. A process that dies first leaves the hidden folder behind
/// (`.NAME.rasterkit-staging-PID-RANDOM`), never a partial output folder; the next staging for
/// the same destination removes it once that process is gone.
package struct StagedFolder: Sendable {
    /// Where the folder belongs.
    package let destination: String
    /// The hidden folder it is built in, beside the destination.
    package let path: String

    /// A new, empty staging folder for `destination` (its parent created when missing); nil when
    /// anything is at `destination` already (even a dangling link), or the staging folder
    /// cannot be made: the caller then writes into the destination as usual.
    package static func make(for destination: String) -> StagedFolder? {
        var info = stat()
        guard lstat(destination, &info) != 0, errno == ENOENT else { return nil }
        // Not standardized: `a/link/../out` goes where the link's parent is, as for any path.
        let url = URL(fileURLWithPath: destination)
        let name = url.lastPathComponent
        guard !name.isEmpty, name != "/", name != ".", name != ".." else { return nil }
        let parent = url.deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let prefix = "." + name + stagingMarker
        let parentPrefix = parent == "/" ? "/" : parent + "/"
        removeStale(prefix, in: parentPrefix)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let path = parentPrefix + prefix + "\(getpid())-\(suffix)"
        guard mkdir(path, 0o777) == 0 else { return nil }
        return StagedFolder(destination: url.path, path: path)
    }

    /// What a staging folder's name holds between the destination's name and the writer's pid.
    static let stagingMarker = ".rasterkit-staging-"

    /// Removes the staging folders named `prefix` + pid + `-` + anything in `parent` whose
    /// process is gone (killed runs); a live one belongs to a run still writing.
    private static func removeStale(_ prefix: String, in parent: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            var info = stat()
            // A folder of our own making, never a link planted under such a name.
            guard lstat(parent + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            try? FileManager.default.removeItem(atPath: parent + name)
        }
    }

    /// Moves the folder to its destination; false, moving nothing, when something appeared there
    /// meanwhile (another run made the folder), or the move failed: the caller then removes the
    /// staging folder and writes into the destination as usual.
    package func publish() -> Bool {
        // Never onto whatever appeared: a plain rename would replace an empty folder another
        // process has just made and may be about to write into.
        if let renameNoReplace = Self.renameNoReplace {
            let result = renameNoReplace(AT_FDCWD, path, AT_FDCWD, destination, 1 /* RENAME_NOREPLACE */)
            if result == 0 { return true }
            // Only a file system without the flag is worth the fallback below.
            guard errno == EINVAL || errno == ENOSYS else { return false }
        }
        var info = stat()
        guard lstat(destination, &info) != 0, errno == ENOENT else { return false }
        return rename(path, destination) == 0
    }

    /// Deletes the staging folder and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, which Swift's Glibc module does not declare (it needs `_GNU_SOURCE`).
    private static let renameNoReplace: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
}
