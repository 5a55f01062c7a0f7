import RasterKit
import Foundation

/// Removes the temporary files `AtomicFileWriter` left behind in runs that were killed between
/// creating a file and renaming it into place: `.<name>.<pid>-<n>.tmp`, whose writer process is
/// no longer running. A batch sweeps each folder it writes to before it starts, so a killed run's
/// leftovers go with the next complete one.
///
/// Only names of exactly that pattern are touched, only regular files, and only when no process
/// with that pid is alive (`kill(pid, 0)`): a live writer, this process's own, or one whose pid
/// has been reused keeps its file. A writer in another pid namespace (another container sharing
/// the folder) looks dead from here; such setups should not share output folders between runs
/// that overlap in time.
///
/// A folder is swept only when the caller has checked that no folder on its way from the output
/// folder is a symbolic link (see `BatchRenderer.sweepStaleTemporaryFiles`): a link to elsewhere
/// would make the sweep delete files outside the output folder. And only temporary files of the
/// kinds RasterKit writes (`.png`, `.json`, `.tsv`) are removed: `.notes.txt.<pid>-1.tmp` is
/// someone else's file that happens to match the pattern. (Limiting removal to the exact names
/// of this run's outputs would keep the leftovers of outputs a changed manifest no longer makes.)
enum StaleTemporaryFiles {
    /// The extensions of the files batches write: images, catalog `Contents.json` files, and
    /// the index and run record.
    static let writtenExtensions: Set<String> = ["png", "json", "tsv"]

    /// Removes stale temporary files directly inside `folder`; returns how many were removed. A
    /// folder that does not exist, cannot be listed, or is a symbolic link has nothing to sweep.
    @discardableResult
    static func sweep(_ folder: String) -> Int {
        // The folder itself is not followed either, whatever the caller checked above it.
        var folderInfo = stat()
        guard lstat(folder, &folderInfo) == 0, (folderInfo.st_mode & S_IFMT) == S_IFDIR,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = writer(ofTemporary: name), !isAlive(pid),
                  let inner = innerName(ofTemporary: name), let dot = inner.lastIndex(of: "."),
                  writtenExtensions.contains(String(inner[inner.index(after: dot)...])) else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// The pid in a name of `AtomicFileWriter/temporaryPath(for:)`'s pattern, else nil.
    static func writer(ofTemporary name: String) -> pid_t? {
        guard name.count > 6, name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let stem = name.dropFirst().dropLast(4)
        guard let dot = stem.lastIndex(of: "."), dot > stem.startIndex else { return nil }
        let parts = stem[stem.index(after: dot)...].split(separator: "-", omittingEmptySubsequences: false)
        func digits(_ text: Substring) -> Bool { !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard parts.count == 2, digits(parts[0]), digits(parts[1]), let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// The name a temporary file was to be renamed to (`a.png` for `.a.png.12-3.tmp`), for a
    /// name of `AtomicFileWriter/temporaryPath(for:)`'s pattern, else nil.
    static func innerName(ofTemporary name: String) -> String? {
        guard writer(ofTemporary: name) != nil else { return nil }
        let stem = name.dropFirst().dropLast(4)
        guard let dot = stem.lastIndex(of: ".") else { return nil }
        return String(stem[..<dot])
    }

    /// Whether a process with `pid` exists: `kill(pid, 0)` succeeds, or fails only for lack of
    /// permission to signal it.
    static func isAlive(_ pid: pid_t) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }
}
