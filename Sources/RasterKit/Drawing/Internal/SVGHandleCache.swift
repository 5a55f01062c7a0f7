import Foundation

/// The librsvg handles the current thread parsed most recently. Handles never leave the
/// thread that made them; drawing one document at several sizes, or again and again, parses
/// it once per thread.
final class SVGHandleCache {
    /// Enough for a batch worker (one document at a time) and a screen of distinct icons.
    static let capacity = 8

    private struct Key: Hashable {
        let digest: StableDigest
        let baseDirectory: String?
    }

    /// Most recently used last.
    private var entries: [(key: Key, handle: LibrsvgHandle)] = []
    /// The font map last made this thread's Pango default (see ``SVGTextFonts``).
    var installedFontMap: AnyObject?

    /// This thread's handle for `document`, parsed now when it is not cached — after checking
    /// the document against `limits`, so that librsvg never sees one over them.
    static func handle(for document: SVGDocument, limits: ResourceLimits) throws(SVGError) -> LibrsvgHandle {
        try current().handle(for: document, limits: limits)
    }

    /// This thread's cache.
    static func current() -> SVGHandleCache {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<SVGHandleCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let made = SVGHandleCache()
        pthread_setspecific(threadKey, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    private func handle(for document: SVGDocument, limits: ResourceLimits) throws(SVGError) -> LibrsvgHandle {
        let key = Key(digest: document.digest, baseDirectory: document.externalReferences.baseDirectory?.path)
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.handle
        }
        guard document.data.count <= limits.maximumInputBytes else {
            throw .overLimit(what: "its size", limit: limits.maximumInputBytes, unit: "bytes", source: document.source)
        }
        try SVGInspection.check([UInt8](document.data), limits: limits, source: document.source)
        _ = LibrsvgHandle.firstParse
        let handle = try LibrsvgHandle(data: document.data, baseDirectory: document.externalReferences.baseDirectory)
        if entries.count >= SVGHandleCache.capacity { entries.removeFirst() }
        entries.append((key, handle))
        return handle
    }

    /// Drops this thread's handles (tests use it to force a fresh parse).
    func removeAll() { entries.removeAll() }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<SVGHandleCache>.fromOpaque(pointer).release()
        }
        return key
    }()
}
