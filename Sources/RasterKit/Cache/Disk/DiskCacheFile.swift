import Foundation

/// What lies at a store's path before SQLite opens it, judged from the file system and the
/// first 100 bytes only: enough to tell a RasterKit store (damaged or not) from a file that
/// RasterKit must never move, rewrite or write through.
enum DiskCacheFile {
    /// What the path holds.
    enum Kind: Equatable {
        case missing
        /// A zero-length file: what a store is for an instant while it is created.
        case empty
        /// RasterKit's application id is in the SQLite header: ours, however damaged the rest is.
        case store
        /// An SQLite database whose header has no application id: a store created but not yet
        /// checkpointed (the id is still in its WAL), or another program's. Its tables tell.
        case unclaimedDatabase
    }

    /// The first 16 bytes of every SQLite database.
    static let sqliteMagic = Array("SQLite format 3\0".utf8)
    /// Where the big-endian `PRAGMA application_id` sits in the database header.
    private static let applicationIDOffset = 68

    /// Classifies the file at `url`. Throws ``DiskCacheError`` with ``DiskCacheError/Refusal``
    /// for anything RasterKit must leave alone: a file that is neither empty, nor SQLite, nor
    /// ours; a device or other non-regular file; a `-wal`, `-shm` or
    /// `-journal` beside it that SQLite would follow to write elsewhere.
    static func examine(_ url: URL, checkingCompanions: Bool = true) throws -> Kind {
        try examine(path: url.path, checkingCompanions: checkingCompanions)
    }

    /// ``examine(_:checkingCompanions:)`` for a path.
    static func examine(path: String, checkingCompanions: Bool = true) throws -> Kind {
        if checkingCompanions { try checkCompanions(ofPath: path) }
        var info = stat()
        // A link to nothing is missing: SQLite creates the store where the link points, which
        // is where whoever made the link wanted it.
        guard stat(path, &info) == 0 else { return .missing }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DiskCacheError.notAStore(path: path, reason: "not a regular file")
        }
        if info.st_size == 0 { return .empty }
        let header = try Self.header(of: path)
        let identifier = applicationID(in: header)
        // The id survives damage to the rest of the header (a flipped magic byte, a bad page
        // size), so a store that was ours is still recognised and may be moved aside.
        if identifier == DiskCacheSchema.applicationID { return .store }
        guard header.starts(with: sqliteMagic) else {
            throw DiskCacheError.notAStore(path: path, reason: "not an SQLite database")
        }
        if let identifier, identifier != 0 {
            throw DiskCacheError.notAStore(
                path: path, reason: "another program's SQLite database, application id \(identifier)")
        }
        return .unclaimedDatabase
    }

    /// The first 100 bytes of the file at `path` (fewer when it is shorter), read with plain
    /// calls: `FileHandle` costs a warm run's first check of its store a tenth of a millisecond.
    private static func header(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw unreadable(path) }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        var filled = 0
        while filled < header.count {
            let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw unreadable(path) }
            if count == 0 { break }
            filled += count
        }
        return Array(header[..<filled])
    }

    private static func unreadable(_ path: String) -> DiskCacheError {
        DiskCacheError(operation: .open, resultCode: DiskCacheError.cannotOpen,
                       message: "cannot read the store: \(String(cString: strerror(errno)))", path: path)
    }

    /// Where `path` leads with every symbolic link in it followed, as SQLite resolves a store's
    /// path to name its companions: the real path when the file exists, else its folder's real
    /// path and its name, else `path` as it is.
    static func resolvedPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return resolvedPath("./" + path)
        }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let name = path[path.index(after: slash)...]
        let parent = String(cString: resolved)
        return parent.hasSuffix("/") ? parent + name : parent + "/" + name
    }

    /// The application id in an SQLite header, or nil when the header is too short to hold one.
    private static func applicationID(in header: [UInt8]) -> Int32? {
        guard header.count >= applicationIDOffset + 4 else { return nil }
        let bytes = header[applicationIDOffset..<applicationIDOffset + 4]
        return Int32(bitPattern: bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// The files SQLite keeps beside a database, by suffix.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Refuses companions SQLite would open and write through: it follows a symbolic link (and
    /// would create its target), and a hard link or a FIFO is someone else's file. They are
    /// not moved aside either: whoever made them may want them, and none of them is ours.
    static func checkCompanions(ofPath path: String) throws {
        // SQLite names the companions after the database's resolved path.
        let base = resolvedPath(path)
        for suffix in companionSuffixes {
            let companion = base + suffix
            var info = stat()
            guard lstat(companion, &info) == 0 else { continue }
            let problem: String? = switch info.st_mode & S_IFMT {
            case S_IFLNK: "is a symbolic link"
            case S_IFREG: info.st_nlink > 1 ? "has \(info.st_nlink) hard links" : nil
            default: "is not a regular file"
            }
            guard let problem else { continue }
            throw DiskCacheError(
                operation: .open, resultCode: DiskCacheError.cannotOpen,
                message: "\(companion) \(problem), which SQLite would write through to another file; "
                    + "RasterKit neither follows nor moves it. Remove it to use this store",
                path: path, refusal: .unsafeCompanionFile)
        }
    }
}
