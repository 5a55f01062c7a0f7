import Foundation
import RasterKit
import Synchronization

/// The SVGs of an icon folder, indexed by their path inside it without `.svg` (`arrows/left`).
/// Requests are looked up in this index and never joined to the folder's path, so no request
/// path can name a file outside it (`..`, encoded dots and symbolic links included); and a file
/// is opened step by step from the folder without following a symbolic link (see
/// `OpenFile(relativePath:under:)`), so one swapped in after the index was made — for a file or
/// for a folder on its path — is refused, never followed out of the folder.
final class IconFolder: Sendable {
    /// The folder, as given.
    let directory: URL
    /// Icon name → the file's path inside the folder.
    let files: [String: String]
    /// Documents read so far: read on first request and kept until the folder changes (the
    /// whole index is replaced then).
    // Synchronization's Mutex rather than the package's Lock: with Lock, Swift 6.3's optimizer
    // crashes on this class's throwing initializer in release builds (CopyPropagation,
    // "Found ownership error").
    private let documents = Mutex<[String: SVGDocument]>([:])
    /// The largest SVG file read.
    private let limits: ResourceLimits

    /// Indexes every `.svg` below `directory`, skipping hidden files and folders.
    init(directory: URL, limits: ResourceLimits) throws(ServerSetupError) {
        self.directory = directory
        self.limits = limits
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ServerSetupError("the icon folder \(directory.path) does not exist or is not a folder")
        }
        files = Self.index(directory)
    }

    /// The document of icon `name`: nil when the folder has no such icon.
    func document(named name: String) throws(SVGError) -> SVGDocument? {
        if let known = documents.withLock({ $0[name] }) { return known }
        guard let relative = files[name] else { return nil }
        // Not parsed here: the digest alone makes the key, so a cached render never pays for
        // parsing; a malformed file fails when it is drawn.
        let file: OpenFile
        do {
            file = try OpenFile(relativePath: relative, under: directory.standardizedFileURL.path, naming: name + ".svg")
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
        let data = try SVGDocument.readFile(file, naming: name + ".svg", limits: limits)
        let document = SVGDocument(unvalidatedData: data, externalReferences: .blocked, source: name + ".svg")
        documents.withLock { $0[name] = document }
        return document
    }

    /// The path and modification stamp of every file and folder below `directory`, to notice changes.
    static func stamps(of directory: URL) -> [String: FileChangeStamp] {
        var stamps: [String: FileChangeStamp] = [:]
        let root = directory.standardizedFileURL.path
        stamps[root] = FileChangeStamp(path: root)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return stamps }
        while let relative = walker.nextObject() as? String {
            let path = root + "/" + relative
            stamps[path] = FileChangeStamp(path: path)
        }
        return stamps
    }

    private static func index(_ directory: URL) -> [String: String] {
        let root = directory.standardizedFileURL.path
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        while let relative = walker.nextObject() as? String {
            let parts = relative.split(separator: "/")
            // Hidden files and folders (an editor's swap files, .git) are not icons.
            if parts.contains(where: { $0.hasPrefix(".") }) {
                if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { walker.skipDescendants() }
                continue
            }
            guard relative.lowercased().hasSuffix(".svg"),
                  (walker.fileAttributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
            files[String(relative.dropLast(4))] = relative
        }
        return files
    }
}

/// A file's size and modification time: a change of either means the file changed.
struct FileChangeStamp: Hashable, Sendable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The stamp of `path` now; all zero when it cannot be read.
    init(path: String) {
        var info = stat()
        // The link itself, not what it points to: a file swapped for a link is a change.
        guard lstat(path, &info) == 0 else {
            size = -1; seconds = 0; nanoseconds = 0
            return
        }
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
