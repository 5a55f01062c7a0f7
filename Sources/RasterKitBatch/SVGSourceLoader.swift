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
    /// is looked at once for both: the look is kept for this thread's next ``document()`` of
    /// this file, which then decides from it whether to read the file again.
    ///
    /// When this thread last read this very file, after a look that gave a stamp, that stamp is
    /// given again without looking: the next ``document()`` then serves what that read gave.
    /// Stamp and document still belong together (the look came before the read), so a file
    /// changed since is drawn again by the next run, whose stamp differs; the outputs of one
    /// file, which a worker makes one after the other, cost one look and one read.
    func stamp(settledFor settleTime: Double) -> String? {
        let recent = RecentDocument.current()
        if recent.loader === self, let stamp = recent.fileStamp {
            recent.looked = (self, recent.stamp, stamp)
            return stamp
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            recent.looked = nil
            return nil
        }
        let stamp = FileStamp.of(info, settledFor: settleTime)
        recent.looked = (self, Self.identity(info), stamp)
        return stamp
    }

    /// The document, read now unless this thread read it last and the file has not changed.
    func document() throws(SVGError) -> SVGDocument {
        let recent = RecentDocument.current()
        // The file's size and time say whether it changed since this thread read it; a look
        // taken for this output's stamp, just before, says it as well as a new one.
        let identity: [Int64], fileStamp: String?
        if let looked = recent.looked, looked.loader === self {
            (identity, fileStamp) = (looked.identity, looked.fileStamp)
        } else {
            var info = stat()
            (identity, fileStamp) = (stat(path, &info) == 0 ? Self.identity(info) : [], nil)
        }
        recent.looked = nil
        if recent.loader === self, recent.stamp == identity, let result = recent.result { return try result.get() }
        let result = load()
        recent.loader = self
        recent.stamp = identity
        recent.fileStamp = fileStamp
        recent.result = result
        return try result.get()
    }

    /// What says a file changed: its size, modification time and inode.
    private static func identity(_ info: stat) -> [Int64] {
        [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ino)]
    }

    private func load() -> Result<SVGDocument, SVGError> {
        Result { () throws(SVGError) in
            let data = try SVGDocument.readFile(path, naming: displayPath)
            let references = baseDirectory.map { SVGDocument.ExternalReferences.allowed(baseDirectory: $0) } ?? .blocked
            return SVGDocument(unvalidatedData: data, externalReferences: references, source: displayPath)
        }
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
    /// The look the last ``SVGSourceLoader/stamp(settledFor:)`` took, for the next document.
    var looked: (loader: SVGSourceLoader, identity: [Int64], fileStamp: String?)?

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
