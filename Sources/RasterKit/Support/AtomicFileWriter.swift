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
    package static func write(_ data: Data, to destination: String) throws(WriteError) {
        let folder = split(destination).folder
        if !folder.isEmpty, !isDirectory(folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw WriteError(path: folder, operation: "create the folder", reason: FileReader.reason(error))
            }
        }
        let temporary = temporaryPath(for: destination)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(destination, "write") }
        var written = 0
        let writeError: WriteError? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return failure(destination, "write")
                }
                written += result
            }
            return nil
        }
        let closed = close(descriptor) == 0
        if let writeError {
            unlink(temporary)
            throw writeError
        }
        guard closed else {
            let error = failure(destination, "write")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let error = failure(destination, "move into place")
            unlink(temporary)
            throw error
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

    private static func failure(_ destination: String, _ operation: String) -> WriteError {
        WriteError(path: destination, operation: operation, reason: String(cString: strerror(errno)))
    }
}
