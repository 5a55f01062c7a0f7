import Foundation

/// An SVG document: its bytes, checked once by librsvg, with their intrinsic size and a stable
/// digest. An immutable value that any thread may use; each thread that draws it parses its
/// own librsvg handle, so no librsvg object is ever shared.
///
/// References to other files (`<image href="photo.png">`, external `<use>`) are not loaded
/// unless a base directory is allowed; `data:` URLs always load.
///
/// ```swift
/// let star = try SVGDocument(contentsOf: URL(fileURLWithPath: "Examples/icons/star.svg"))
/// star.intrinsicSize                                   // 24×24
/// let png = try rasterizer.image(for: SVGImage(star, tint: .white), size: Size(48), scale: 2).pngData()
/// ```
public struct SVGDocument: Sendable, Hashable, CustomStringConvertible {
    /// What librsvg may load from outside the document.
    public enum ExternalReferences: Hashable, Sendable {
        /// Nothing outside the document loads; references to files are skipped when drawing.
        case blocked
        /// Files inside `baseDirectory`, or below it, load; relative references resolve against it.
        case allowed(baseDirectory: URL)

        /// The directory references resolve against, when any may load.
        public var baseDirectory: URL? {
            if case .allowed(let directory) = self { return directory }
            return nil
        }
    }

    /// The SVG (or gzip-compressed SVGZ) bytes.
    public let data: Data
    /// A 128-bit digest of `data`, the same in every process: the document's identity in cache keys.
    public let digest: StableDigest
    /// What librsvg may load from outside the document.
    public let externalReferences: ExternalReferences
    /// Where the bytes came from (a path, usually), for messages; not part of the identity.
    public let source: String?
    /// nil only for documents made by batches, which measure while drawing (see `init(unvalidatedData:)`).
    private var measuredSize: Size?
    /// Whether the bytes may hold `<text>`, which needs fonts set up before drawing. Scanned
    /// when drawing, not when the document is made: a batch makes a document for every file
    /// only to key it, and a render served from the store never draws.
    package var mayContainText: Bool { SVGDocument.mayContainText(data) }

    /// Parses `data` with librsvg to check it and measure it.
    ///
    /// - Throws: ``SVGError/malformed(message:source:)`` with librsvg's message for input that is
    ///   not SVG, ``SVGError/noIntrinsicSize(width:height:source:)`` for a document of zero size,
    ///   and ``SVGError/overLimit(what:limit:unit:source:)`` for one over `limits` (its size, its
    ///   size with entities expanded, its text), which is never handed to librsvg.
    public init(data: Data, externalReferences: ExternalReferences = .blocked, source: String? = nil,
                limits: ResourceLimits = .default) throws(SVGError) {
        self.init(unvalidatedData: data, externalReferences: externalReferences, source: source, measuredSize: nil)
        let size: Size
        do {
            // Parsed on this thread's handle cache, so drawing here next reuses the parse.
            size = try SVGHandleCache.handle(for: self, limits: limits).naturalSize
        } catch {
            throw source.map { error.naming(source: $0) } ?? error
        }
        measuredSize = size
    }

    /// Reads and parses the SVG file at `url`.
    ///
    /// ```swift
    /// let folder = url.deletingLastPathComponent()
    /// let logo = try SVGDocument(contentsOf: url, externalReferences: .allowed(baseDirectory: folder))
    /// ```
    public init(contentsOf url: URL, externalReferences: ExternalReferences = .blocked,
                limits: ResourceLimits = .default) throws(SVGError) {
        try self.init(data: try SVGDocument.readFile(url.path, naming: url.path, limits: limits),
                      externalReferences: externalReferences, source: url.path, limits: limits)
    }

    /// A document that has not been parsed yet: batches make these so that a render served
    /// from the cache never pays for parsing. Drawing parses it and reports its errors.
    package init(unvalidatedData data: Data, externalReferences: ExternalReferences, source: String?,
         measuredSize: Size? = nil, digest: StableDigest? = nil) {
        self.data = data
        self.digest = digest ?? SVGDocument.digest(of: data)
        if case .allowed(let directory) = externalReferences {
            self.externalReferences = .allowed(baseDirectory: directory.standardizedFileURL)
        } else {
            self.externalReferences = .blocked
        }
        self.source = source
        self.measuredSize = measuredSize
    }

    /// The same document, allowed to load files inside `baseDirectory`.
    public func allowingExternalReferences(from baseDirectory: URL) -> SVGDocument {
        SVGDocument(unvalidatedData: data, externalReferences: .allowed(baseDirectory: baseDirectory), source: source,
                    measuredSize: measuredSize, digest: digest)
    }

    /// The size the document gives itself, in SVG pixels (CSS pixels, 96 per inch): its
    /// `width` and `height`, else its viewBox, else the extent of what it draws — the size
    /// `rsvg-convert` gives it.
    public var intrinsicSize: Size {
        measuredSize ?? (try? SVGHandleCache.handle(for: self, limits: .default).naturalSize) ?? .zero
    }

    /// Where the document came from (or its size) and the first digits of its digest.
    public var description: String {
        "SVGDocument(\(source ?? "\(data.count) bytes") [\(digest.hex.prefix(8))…])"
    }

    /// Documents are equal when their bytes and external-reference policy are.
    public static func == (lhs: SVGDocument, rhs: SVGDocument) -> Bool {
        lhs.digest == rhs.digest && lhs.externalReferences == rhs.externalReferences && lhs.data == rhs.data
    }

    /// Hashes the digest: equal documents have equal digests.
    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    static func digest(of data: Data) -> StableDigest {
        var sip = SipHash128()
        // A domain prefix keeps SVG digests apart from every other digest RasterKit makes.
        sip.write(0x5356_4744_6F63_0001 as UInt64)
        data.withUnsafeBytes { sip.write($0) }
        return sip.finalize()
    }

    /// gzip-compressed documents cannot be scanned cheaply, so they count as having text.
    private static func mayContainText(_ data: Data) -> Bool {
        if data.starts(with: [0x1F, 0x8B]) { return true }
        // `<text`, or `:text` as in a prefixed `<svg:text`: each `<` and `:` found with memchr
        // (Data's own search is slow on Linux), then the four bytes after it compared.
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress, bytes.count >= 5 else { return false }
            let text = UInt32(littleEndian: 0x7478_6574) // "text"
            for mark in [UInt8(ascii: "<"), UInt8(ascii: ":")] {
                var offset = 0
                while offset + 5 <= bytes.count, let found = memchr(base + offset, Int32(mark), bytes.count - offset - 4) {
                    let index = base.distance(to: UnsafeRawPointer(found))
                    if UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 1, as: UInt32.self)) == text { return true }
                    offset = index + 1
                }
            }
            return false
        }
    }

    /// The bytes of the SVG file at `path`, named `name` in errors.
    package static func readFile(_ path: String, naming name: String,
                         limits: ResourceLimits = .default) throws(SVGError) -> Data {
        try reporting { () throws(FileReadError) in try FileReader.read(path, naming: name, limit: limits.maximumInputBytes) }
    }

    /// The bytes of the SVG file `file`, already open, named `name` in errors.
    package static func readFile(_ file: OpenFile, naming name: String,
                         limits: ResourceLimits = .default) throws(SVGError) -> Data {
        try reporting { () throws(FileReadError) in try FileReader.read(file, naming: name, limit: limits.maximumInputBytes) }
    }

    /// What `read` returns, its failure reported as an unreadable document.
    private static func reporting(_ read: () throws(FileReadError) -> Data) throws(SVGError) -> Data {
        do { return try read() } catch { throw .unreadable(path: error.path, reason: error.reason) }
    }
}
