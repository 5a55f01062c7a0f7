import Foundation

/// Why a file could not be read. Not public: the errors a caller sees carry it as their reason
/// (``SVGError/unreadable(path:reason:)``, a manifest's problem).
package struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    package var path: String
    /// The system's reason, or why RasterKit refused the file.
    package var reason: String

    /// An error for `path`, with the system's reason or RasterKit's for refusing it.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot read '<path>': <reason>`.
    package var description: String { "cannot read '\(path)': \(reason)" }
}

/// Reads whole files, refusing what is not a regular file or is larger than a limit before
/// reading it: every file RasterKit reads (SVGs, PNGs, manifests, indexes) comes through here.
package enum FileReader {
    /// The bytes of the regular file at `path`, named `name` in errors. With
    /// `followingSymbolicLinks` false, a symbolic link as the last part of `path` is refused
    /// rather than read through (for files in folders others can write, such as test artifacts).
    package static func read(_ path: String, naming name: String? = nil,
                     limit: Int = ResourceLimits.default.maximumInputBytes,
                     followingSymbolicLinks: Bool = true) throws(FileReadError) -> Data {
        let file = try OpenFile(path, naming: name, followingSymbolicLinks: followingSymbolicLinks)
        return try read(file, naming: name ?? path, limit: limit)
    }

    /// The bytes of `file`, a regular file, named `name` in errors. The size and type are the
    /// ones `fstat` gave when the file was opened.
    package static func read(_ file: OpenFile, naming name: String,
                     limit: Int = ResourceLimits.default.maximumInputBytes) throws(FileReadError) -> Data {
        let info = file.info
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileReadError(path: name, reason: "not a regular file") }
        guard info.st_size <= limit else { throw FileReadError(path: name, reason: tooLarge(limit)) }
        // Read straight into a buffer of the file's size, plus a byte to see the end: a batch
        // reads hundreds of small files, and a scratch buffer per file cost more than reading.
        var data = Data(count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(64 << 10, data.count) }
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(file.descriptor, base + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: name, reason: String(cString: strerror(errno)))
            }
            filled += count
            // A file that grew while being read.
            if filled > limit { throw FileReadError(path: name, reason: tooLarge(limit)) }
            // A read that stopped at the size `fstat` gave, short of the extra byte, ended at
            // the file's end: asking again would only return 0. A file that grew since fills the
            // extra byte and is read on.
            if filled == info.st_size, filled < data.count { break }
        }
        data.count = filled
        return data
    }

    private static func tooLarge(_ limit: Int) -> String {
        limit >= 1 << 20 ? "larger than \(limit >> 20) MiB" : "larger than \(limit) bytes"
    }

    /// The system's message for a failed file operation, without Foundation's wrapping.
    package static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

/// A file opened for reading, with what `fstat` said of it then; closed when released. Opening
/// first and asking the open file lets a caller stamp a file and read those very bytes, with one
/// look at the path.
package final class OpenFile {
    package let descriptor: Int32
    package let info: stat

    /// Opens `path` for reading, named `name` in errors; see ``FileReader/read(_:naming:limit:followingSymbolicLinks:)``.
    package init(_ path: String, naming name: String? = nil, followingSymbolicLinks: Bool = true) throws(FileReadError) {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; it
        // changes nothing for regular files, and anything else is refused when read.
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingSymbolicLinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP && !followingSymbolicLinks ? "it is a symbolic link" : String(cString: strerror(errno))
            throw FileReadError(path: name ?? path, reason: reason)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FileReadError(path: name ?? path, reason: reason)
        }
        self.descriptor = descriptor
        self.info = info
    }

    /// Opens `relativePath` inside the folder `root` without following a symbolic link at any
    /// step below `root` (each folder is opened relative to the one above it, `O_NOFOLLOW`), so
    /// whatever is swapped in meanwhile, what is opened lies inside the folder: a link to a file
    /// outside it, or to a folder outside it, is refused. `root` itself is followed.
    package init(relativePath: String, under root: String, naming name: String? = nil) throws(FileReadError) {
        let named = name ?? relativePath
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        guard let leaf = parts.last, !parts.contains(where: { $0 == "." || $0 == ".." }) else {
            throw FileReadError(path: named, reason: "not a path inside the folder")
        }
        var folder = open(root, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard folder >= 0 else { throw FileReadError(path: named, reason: String(cString: strerror(errno))) }
        for part in parts.dropLast() {
            let next = openat(folder, String(part), O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW)
            let failure = errno
            close(folder)
            guard next >= 0 else {
                throw FileReadError(path: named, reason: failure == ELOOP || failure == ENOTDIR
                                    ? "a folder on its path is a symbolic link or not a folder" : String(cString: strerror(failure)))
            }
            folder = next
        }
        let descriptor = openat(folder, String(leaf), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        let failure = errno
        close(folder)
        guard descriptor >= 0 else {
            throw FileReadError(path: named, reason: failure == ELOOP ? "it is a symbolic link" : String(cString: strerror(failure)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FileReadError(path: named, reason: reason)
        }
        self.descriptor = descriptor
        self.info = info
    }

    deinit { close(descriptor) }
}
