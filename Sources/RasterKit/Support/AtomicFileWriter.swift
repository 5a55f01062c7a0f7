import Foundation
import Synchronization

/// Writes a file under a temporary name in its final folder, then renames it into place: a
/// reader, or a run that is killed half-way, only ever sees the whole file or none of it.
///
/// Paths are plain strings: a batch writes thousands of files, and `URL` path arithmetic is
/// a large part of the cost of a batch whose renders all come from the cache.
package enum AtomicFileWriter {
    /// A file could not be written; `reason` is the system's message.
    package struct WriteError: Error, CustomStringConvertible {
        var path: String
        var operation: String
        var reason: String

        /// Could not `operation` the file or folder at `path`, because of `reason`.
        package init(path: String, operation: String, reason: String) {
            self.path = path
            self.operation = operation
            self.reason = reason
        }

        package var description: String { "cannot \(operation) '\(path)': \(reason)" }
    }

    private static let counter = Atomic<Int>(0)

    /// The name `destination` is written under first: hidden, ending in `.tmp`, unique in the
    /// process and across processes, so it is never a final name.
    package static func temporaryPath(for destination: String) -> String {
        let serial = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let (folder, name) = split(destination)
        return folder + ".\(name).\(getpid())-\(serial).tmp"
    }

    /// Creates the folders above `destination` as needed and writes `data` atomically.
    ///
    /// Only a regular file (or nothing) at `destination` is replaced. The rename would otherwise
    /// swap a device node (`-o /dev/null` run as root replaced the system's /dev/null), a FIFO,
    /// a socket or a symbolic link for a regular file, and a folder makes the rename fail with a
    /// less helpful message; all of these are refused with a `WriteError` before anything is
    /// written. A symbolic link is refused rather than replaced or followed: replacing it breaks
    /// whatever the link was set up for, and following it writes where the caller did not name.
    ///
    /// With `root`, `destination` must lie below it, and no existing folder between `root` and
    /// `destination` may be a symbolic link: an output folder holding a link to elsewhere would
    /// otherwise have outputs written through it, outside the folder. `root` itself may be a
    /// link (the caller checked it); folders below it are created one at a time and checked.
    package static func write(_ data: Data, to destination: String, below root: String? = nil) throws(WriteError) {
        let folder = split(destination).folder
        if let root {
            try createFolders(of: destination, below: root)
        } else if !folder.isEmpty, !isDirectory(folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw WriteError(path: folder, operation: "create the folder", reason: FileReader.reason(error))
            }
        }
        try requireReplaceable(destination)
        let temporary = temporaryPath(for: destination)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(destination, "write") }
        do {
            try writeAll(data, to: descriptor, path: destination)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        let closed = close(descriptor) == 0
        guard closed else {
            let error = failure(destination, "write")
            unlink(temporary)
            throw error
        }
        // Checked again just before the rename: the destination may have been replaced while the
        // data was written (a narrower window, not a closed one: rename(2) has no "only a file").
        do { try requireReplaceable(destination) } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let error = failure(destination, "move into place")
            unlink(temporary)
            throw error
        }
    }

    /// Throws unless `destination` is missing or a regular file (seen with `lstat`, so a
    /// symbolic link is judged itself, not its target).
    private static func requireReplaceable(_ destination: String) throws(WriteError) {
        var info = stat()
        guard lstat(destination, &info) == 0 else {
            if errno == ENOENT { return }
            throw failure(destination, "write")
        }
        let kind = kind(of: info)
        guard kind != "a regular file" else { return }
        let detail = kind == "a symbolic link" ? ", which is neither followed nor replaced" : ""
        throw WriteError(path: destination, operation: "write", reason: "it is \(kind)\(detail); only a regular file is replaced")
    }

    /// Writes all of `data` to `descriptor` (`path` names it in the error), retrying
    /// interrupted and short writes.
    package static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(WriteError) {
        var written = 0
        let writeError: WriteError? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return failure(path, "write")
                }
                written += result
            }
            return nil
        }
        if let writeError { throw writeError }
    }

    /// Whether the open regular file `descriptor` holds exactly `data`, read from its start.
    package static func fileHolds(_ data: Data, descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else {
            return false
        }
        let existing = [UInt8](unsafeUninitializedCapacity: data.count) { buffer, count in
            count = 0
            while count < buffer.count {
                let result = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break }
                count += result
            }
        }
        guard existing.count == data.count else { return false }
        guard !existing.isEmpty else { return true }
        return existing.withUnsafeBytes { existingBytes in
            data.withUnsafeBytes { memcmp($0.baseAddress!, existingBytes.baseAddress!, existingBytes.count) == 0 }
        }
    }

    /// What is at `path` when it is there and not a regular file ("a folder", "a device", "a
    /// FIFO", "a socket", "a symbolic link", seen with `lstat`); nil for a regular file or nothing.
    package static func nonRegularKind(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind = kind(of: info)
        return kind == "a regular file" ? nil : kind
    }

    package static func kind(of info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Creates the folders between `root` and `destination`'s name one at a time, refusing any
    /// that exists as a symbolic link or is not a folder, so nothing is written through a link.
    private static func createFolders(of destination: String, below root: String) throws(WriteError) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard destination.hasPrefix(prefix) else {
            throw WriteError(path: destination, operation: "write", reason: "it is not inside '\(root)'")
        }
        let components = destination.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true).dropLast()
        var path = String(prefix.dropLast())
        // The root itself is created as before (with its parents): the caller named it, and a
        // link there was the caller's to check; only what lies below it is held to no links.
        if !path.isEmpty, !isDirectory(path) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw WriteError(path: path, operation: "create the folder", reason: FileReader.reason(error))
            }
        }
        for component in components {
            // ".." could climb back out of the root past every check.
            guard component != "..", component != "." else {
                throw WriteError(path: destination, operation: "write", reason: "its path goes through '\(component)'")
            }
            path += "/" + component
            var info = stat()
            if lstat(path, &info) != 0 {
                guard errno == ENOENT else { throw failure(path, "create the folder") }
                // EEXIST: another worker made it first; it is checked below like any other.
                if mkdir(path, 0o777) != 0, errno != EEXIST { throw failure(path, "create the folder") }
                guard lstat(path, &info) == 0 else { throw failure(path, "create the folder") }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK:
                throw WriteError(path: path, operation: "write into",
                                 reason: "it is a symbolic link inside the output folder, which is not followed")
            default:
                throw WriteError(path: path, operation: "create the folder", reason: "a file that is not a folder is in the way")
            }
        }
    }

    /// The folder part (with its trailing `/`, or empty) and the name.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func failure(_ destination: String, _ operation: String) -> WriteError {
        WriteError(path: destination, operation: operation, reason: String(cString: strerror(errno)))
    }
}
