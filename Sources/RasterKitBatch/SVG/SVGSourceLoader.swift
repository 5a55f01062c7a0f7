import RasterKit
import Foundation

/// Reads one SVG file for the outputs made from it. A batch keeps a file's outputs together on
/// one worker, so each thread remembers the last file it read: the file is read once for all
/// its sizes and scales, and a large batch holds only the files being worked on.
///
/// The document is not parsed here: its digest alone decides the cache key, so an output
/// served from the cache never pays for parsing; drawing parses it and reports its errors.
final class SVGSourceLoader: Sendable {
    private let path: String
    private let displayPath: String
    /// The file's folder when it may load files from there.
    private let baseDirectory: URL?

    init(path: String, displayPath: String, allowsExternalReferences: Bool) {
        self.path = path
        self.displayPath = displayPath
        baseDirectory = allowsExternalReferences
            ? URL(fileURLWithPath: path, isDirectory: false).deletingLastPathComponent() : nil
    }

    /// The file's stamp (see ``FileStamp``) for an output about to be made from it. The file
    /// is opened to be looked at, and kept open for this thread's next ``document()`` of this
    /// file, which then decides from that look whether to read it, and reads those very bytes.
    ///
    /// When this thread last read this very file, after a look that gave a stamp, that stamp is
    /// given again without looking: the next ``document()`` then serves what that read gave.
    /// Stamp and document still belong together (the look came before the read), so a file
    /// changed since is drawn again by the next run, whose stamp differs; the outputs of one
    /// file, which a worker makes one after the other, cost one look and one read.
    func stamp(settledFor settleTime: Double) -> String? {
        let recent = RecentDocument.current()
        if recent.loader === self, let stamp = recent.fileStamp {
            recent.looked = Look(loader: self, identity: recent.stamp, fileStamp: stamp, file: nil)
            return stamp
        }
        guard let file = try? OpenFile(path, naming: displayPath) else {
            recent.looked = nil
            return nil
        }
        let stamp = FileStamp.of(file.info, settledFor: settleTime)
        recent.looked = Look(loader: self, identity: Self.identity(file.info), fileStamp: stamp, file: file)
        return stamp
    }

    /// The document, read now unless this thread read it last and the file has not changed.
    func document() throws(SVGError) -> SVGDocument {
        let recent = RecentDocument.current()
        // The file's size and time say whether it changed since this thread read it; a look
        // taken for this output's stamp, just before, says it as well as a new one.
        let look: Look
        if let looked = recent.looked, looked.loader === self {
            look = looked
        } else if recent.loader === self {
            // Read last on this thread: a stat says whether to read it again, which is rare.
            var info = stat()
            look = Look(loader: self, identity: stat(path, &info) == 0 ? Self.identity(info) : [], fileStamp: nil, file: nil)
        } else {
            look = Look(loader: self, path: path, displayPath: displayPath)
        }
        recent.looked = nil
        if recent.loader === self, recent.stamp == look.identity, let result = recent.result { return try result.get() }
        let result = load(look.file)
        recent.loader = self
        recent.stamp = look.identity
        recent.fileStamp = look.fileStamp
        recent.result = result
        return try result.get()
    }

    /// What says a file changed: its size, modification time and inode.
    fileprivate static func identity(_ info: stat) -> [Int64] {
        [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ino)]
    }

    /// The document in `file`, opened when the file was looked at; read by path when it could not be.
    private func load(_ file: OpenFile?) -> Result<SVGDocument, SVGError> {
        Result { () throws(SVGError) in
            let data = if let file { try SVGDocument.readFile(file, naming: displayPath) }
                else { try SVGDocument.readFile(path, naming: displayPath) }
            let references = baseDirectory.map { SVGDocument.ExternalReferences.allowed(baseDirectory: $0) } ?? .blocked
            return SVGDocument(unvalidatedData: data, externalReferences: references, source: displayPath)
        }
    }
}

/// One look at a source file: what it was, and the file kept open to read what was looked at.
private struct Look {
    let loader: SVGSourceLoader
    /// ``SVGSourceLoader`` identity of the file, empty when it could not be opened.
    let identity: [Int64]
    /// The stamp the look gave, when it was taken for one.
    let fileStamp: String?
    /// The open file; nil when the look reused an earlier one, or the file could not be opened.
    let file: OpenFile?

    init(loader: SVGSourceLoader, identity: [Int64], fileStamp: String?, file: OpenFile?) {
        self.loader = loader
        self.identity = identity
        self.fileStamp = fileStamp
        self.file = file
    }

    /// A look taken now, for a document not stamped first.
    init(loader: SVGSourceLoader, path: String, displayPath: String) {
        let file = try? OpenFile(path, naming: displayPath)
        self.init(loader: loader, identity: file.map { SVGSourceLoader.identity($0.info) } ?? [], fileStamp: nil, file: file)
    }
}

/// The document the current thread read last, with the loader that read it, and the file the
/// thread last looked at for a stamp.
private final class RecentDocument {
    var loader: SVGSourceLoader?
    /// The file's identity when it was read, and its stamp when the look before the read gave one.
    var stamp: [Int64] = []
    var fileStamp: String?
    var result: Result<SVGDocument, SVGError>?
    /// The look the last ``SVGSourceLoader/stamp(settledFor:)`` took, for the next document. Its
    /// file stays open until then, or until the next look on this thread.
    var looked: Look?

    static func current() -> RecentDocument {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<RecentDocument>.fromOpaque(pointer).takeUnretainedValue()
        }
        let made = RecentDocument()
        pthread_setspecific(threadKey, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<RecentDocument>.fromOpaque(pointer).release()
        }
        return key
    }()
}
