import Foundation
import RasterKit
import Synchronization

/// Writes many files below one root folder, each atomically, through descriptors of the folders
/// it has opened: what a batch does with thousands of outputs.
///
/// ``AtomicFileWriter`` checks a destination's folders by path for every file, and makes every
/// file under a temporary name it then renames: a dozen path walks and namespace changes per
/// output, which is most of what a batch served from the render store costs. This writer opens
/// each folder once (one component at a time with `O_NOFOLLOW`, so a symbolic link among the
/// subfolders is refused rather than followed, and cannot be swapped in later either), then
/// works relative to it. A file that does not exist yet is written nameless (`O_TMPFILE`) and
/// linked into place whole; one that exists is replaced by a rename, as before; one that already
/// holds the bytes is left untouched. Readers only ever see a whole file or none. In a folder
/// not yet published (``StagedFolder``), which no reader can see, a file is created under its
/// own name and written in place.
package final class FolderWriter: Sendable {
    /// The folder everything is written below. It may itself be a symbolic link: the caller named it.
    package let root: String
    /// Whether the root is a folder no one else knows of yet (see ``StagedFolder``): a file is
    /// then created under its own name and written in place, which costs a third of linking a
    /// nameless file in, since no reader can see it before the whole folder is published.
    package let isUnpublished: Bool
    /// The root as failures name it: where the files end up, not the hidden folder they are
    /// written in first.
    private let shownRoot: String

    /// Open folders by their path relative to the root ("" for the root).
    private let folders = Lock<[String: Int32]>([:])
    /// Cleared when the file system or the process cannot write nameless files (no `O_TMPFILE`,
    /// no `/proc`): every file then goes through a temporary name.
    private let canLinkNamelessFiles = Atomic<Bool>(true)

    /// A writer below `root`, the folder itself, or the hidden folder of a ``StagedFolder``
    /// that no one else knows of yet and that is published whole when every file is in it.
    package init(root: String) {
        self.root = root
        self.isUnpublished = false
        self.shownRoot = root
    }

    /// A writer into `staged`'s hidden folder, whose failures name the destination.
    package init(staged: StagedFolder) {
        self.root = staged.path
        self.isUnpublished = true
        self.shownRoot = staged.destination
    }

    deinit {
        folders.withLock { descriptors in
            for descriptor in descriptors.values { close(descriptor) }
            descriptors = [:]
        }
    }

    /// The size and modification time of a file as it was written, taken from its descriptor
    /// (a batch's index records them without another look-up by path).
    package struct Written: Hashable, Sendable {
        /// Bytes in the file.
        package var byteCount: Int64
        /// Nanoseconds since 1970.
        package var modified: Int64

        init(_ info: stat) {
            byteCount = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }

        /// The state of the open file `descriptor`, or nil when it cannot be read.
        static func of(_ descriptor: Int32) -> Written? {
            var info = stat()
            return fstat(descriptor, &info) == 0 ? Written(info) : nil
        }
    }

    /// Writes `data` to `relativePath` (`/` between folders, no `.` or `..`), creating folders as
    /// needed, and returns the file's size and time as written (nil in the rare case they could
    /// not be read back). A file that already holds `data` is left as it is, untouched: writing
    /// the same outputs again (`--no-cache` into a full folder) then costs a read per file, not a
    /// new file renamed over the old one, which ext4 (`auto_da_alloc`) follows with an immediate
    /// write-back.
    @discardableResult
    package func write(_ data: Data, to relativePath: String) throws(AtomicFileWriter.WriteError) -> Written? {
        let (folderPath, name) = Self.split(relativePath)
        let fullPath = shownRoot + "/" + relativePath
        guard !name.isEmpty, name != ".", name != ".." else {
            throw AtomicFileWriter.WriteError(path: fullPath, operation: "write", reason: "it does not name a file")
        }
        let folder = try descriptor(of: folderPath)
        if isUnpublished, let written = try writeInPlace(data, as: name, in: folder, path: fullPath) { return written }
        let existingSize = try replaceableSize(name, in: folder, path: fullPath)
        if existingSize == data.count {
            let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                defer { close(descriptor) }
                if AtomicFileWriter.fileHolds(data, descriptor: descriptor) { return Written.of(descriptor) }
            }
        }
        if existingSize == nil, canLinkNamelessFiles.load(ordering: .relaxed),
           let written = try writeNameless(data, as: name, in: folder, path: fullPath) {
            return written
        }
        return try writeRenaming(data, as: name, in: folder, path: fullPath)
    }

    // MARK: Folders

    /// The descriptor of the folder `relative` to the root (empty: the root), opened once.
    private func descriptor(of relative: String) throws(AtomicFileWriter.WriteError) -> Int32 {
        do {
            return try folders.withLock { descriptors in try open(relative, &descriptors) }
        } catch let error as AtomicFileWriter.WriteError {
            throw error
        } catch {
            throw AtomicFileWriter.WriteError(path: shownRoot + "/" + relative, operation: "create the folder", reason: "\(error)")
        }
    }

    private func open(_ relative: String, _ folders: inout [String: Int32]) throws(AtomicFileWriter.WriteError) -> Int32 {
        if let known = folders[relative] { return known }
        let descriptor: Int32
        if relative.isEmpty {
            descriptor = try openRoot()
        } else {
            let (parentPath, name) = Self.split(relative)
            guard name != "..", name != ".", !name.isEmpty else {
                throw AtomicFileWriter.WriteError(path: shownRoot + "/" + relative, operation: "write",
                                                  reason: "its path goes through '\(name)'")
            }
            let parent = try open(parentPath, &folders)
            descriptor = try openSubfolder(name, in: parent, path: shownRoot + "/" + relative)
        }
        folders[relative] = descriptor
        return descriptor
    }

    /// The root, created with its parents when missing; followed if it is a link.
    private func openRoot() throws(AtomicFileWriter.WriteError) -> Int32 {
        var descriptor = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT {
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw AtomicFileWriter.WriteError(path: root, operation: "create the folder", reason: FileReader.reason(error))
            }
            descriptor = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw AtomicFileWriter.failure(root, "create the folder") }
        return descriptor
    }

    /// `name` in `parent`, created when missing; never through a symbolic link.
    private func openSubfolder(_ name: String, in parent: Int32, path: String) throws(AtomicFileWriter.WriteError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var descriptor = openat(parent, name, flags)
        if descriptor < 0, errno == ENOENT {
            // EEXIST: another process made it first; it is opened and checked like any other.
            if mkdirat(parent, name, 0o777) != 0, errno != EEXIST { throw AtomicFileWriter.failure(path, "create the folder") }
            descriptor = openat(parent, name, flags)
        }
        guard descriptor < 0 else { return descriptor }
        let failure = errno
        var info = stat()
        if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                throw AtomicFileWriter.WriteError(path: path, operation: "write into",
                                                  reason: "it is a symbolic link inside the output folder, which is not followed")
            }
            if (info.st_mode & S_IFMT) != S_IFDIR {
                throw AtomicFileWriter.WriteError(path: path, operation: "create the folder",
                                                  reason: "a file that is not a folder is in the way")
            }
        }
        errno = failure
        throw AtomicFileWriter.failure(path, "create the folder")
    }

    // MARK: Files

    /// The size of the regular file `name` in `folder`, nil when there is none; throws when
    /// something else is there (a folder, a link, a device), which is never replaced.
    private func replaceableSize(_ name: String, in folder: Int32, path: String) throws(AtomicFileWriter.WriteError) -> Int? {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw AtomicFileWriter.failure(path, "write")
        }
        let kind = AtomicFileWriter.kind(of: info)
        guard kind != "a regular file" else { return Int(info.st_size) }
        let detail = kind == "a symbolic link" ? ", which is neither followed nor replaced" : ""
        throw AtomicFileWriter.WriteError(path: path, operation: "write",
                                          reason: "it is \(kind)\(detail); only a regular file is replaced")
    }

    /// Writes a nameless file and links it in as `name`. Returns nil, having written nothing
    /// visible, when that cannot be done here (or `name` appeared meanwhile): the caller renames.
    private func writeNameless(_ data: Data, as name: String, in folder: Int32,
                               path: String) throws(AtomicFileWriter.WriteError) -> Written?? {
        #if os(Linux)
        // O_TMPFILE, which Swift does not import: __O_TMPFILE | O_DIRECTORY.
        let descriptor = openat(folder, ".", 0o20000000 | O_DIRECTORY | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if [EOPNOTSUPP, EISDIR, EINVAL].contains(errno) { canLinkNamelessFiles.store(false, ordering: .relaxed) }
            return nil
        }
        defer { close(descriptor) }
        try AtomicFileWriter.writeAll(data, to: descriptor, path: path)
        // linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; the descriptor's /proc name does not.
        guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, name, AT_SYMLINK_FOLLOW) == 0 else {
            if errno == ENOENT || errno == EPERM { canLinkNamelessFiles.store(false, ordering: .relaxed) }
            if errno == EEXIST || errno == ENOENT || errno == EPERM { return nil }
            throw AtomicFileWriter.failure(path, "write")
        }
        // Linking changes the inode's change time, not its size or modification time.
        return .some(Written.of(descriptor))
        #else
        return nil
        #endif
    }

    /// Creates `name` in an unpublished folder and writes `data` into it. Returns nil, having
    /// written nothing, when something is already there (a path written twice): the caller
    /// then replaces it as in any folder.
    private func writeInPlace(_ data: Data, as name: String, in folder: Int32,
                              path: String) throws(AtomicFileWriter.WriteError) -> Written?? {
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return nil }
            throw AtomicFileWriter.failure(path, "write")
        }
        return .some(try fill(descriptor, with: data, named: name, in: folder, path: path))
    }

    /// Writes `data` into the new file `name` open as `descriptor` and closes it; returns its
    /// state as written. On failure the file is removed, never left half written.
    private func fill(_ descriptor: Int32, with data: Data, named name: String, in folder: Int32,
                      path: String) throws(AtomicFileWriter.WriteError) -> Written? {
        do {
            try AtomicFileWriter.writeAll(data, to: descriptor, path: path)
        } catch {
            close(descriptor)
            unlinkat(folder, name, 0)
            throw error
        }
        let written = Written.of(descriptor)
        guard close(descriptor) == 0 else {
            let error = AtomicFileWriter.failure(path, "write")
            unlinkat(folder, name, 0)
            throw error
        }
        return written
    }

    /// Writes `data` under a temporary name in `folder` and renames it to `name`.
    private func writeRenaming(_ data: Data, as name: String, in folder: Int32,
                               path: String) throws(AtomicFileWriter.WriteError) -> Written? {
        let temporary = Self.split(AtomicFileWriter.temporaryPath(for: name)).name
        let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFileWriter.failure(path, "write") }
        let written = try fill(descriptor, with: data, named: temporary, in: folder, path: path)
        do {
            // Checked again: the destination may have been replaced while the data was written.
            _ = try replaceableSize(name, in: folder, path: path)
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
        guard renameat(folder, temporary, folder, name) == 0 else {
            let error = AtomicFileWriter.failure(path, "move into place")
            unlinkat(folder, temporary, 0)
            throw error
        }
        return written
    }

    /// The folder part (without its trailing `/`, or empty) and the name.
    /// Searches the UTF-8 bytes: `/` is one byte that is never part of another character, and
    /// a search by `Character` walks grapheme clusters, a tenth of writing a stored output.
    private static func split(_ path: String) -> (folder: String, name: String) {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        return (String(path[..<slash]), String(path[bytes.index(after: slash)...]))
    }
}
