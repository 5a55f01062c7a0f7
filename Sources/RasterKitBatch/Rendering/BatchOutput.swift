import RasterKit
import Foundation

/// One file a batch writes: where it goes, what it was made from, how to render it and how
/// to encode the image.
///
/// An output made from a component, a size and a scale knows its render's cache key before
/// rendering: a batch then leaves it alone when its file is up to date, and otherwise copies the
/// bytes the render store kept from an earlier run (into any folder) instead of encoding again.
///
/// ```swift
/// let output = BatchOutput(path: "icons/star-48@2x.png", source: "star.svg", size: Size(48), scale: 2) {
///     SVGImage(star)
/// }
/// ```
public struct BatchOutput: Sendable {
    /// Where the file goes, relative to the batch's output directory, with `/` between folders.
    public var path: String { didSet { pathClaims = nil } }
    /// Set when `path` was claimed, with those of the other outputs carrying this token, without
    /// a conflict (see ``OutputPathClaimToken``).
    var pathClaims: (token: OutputPathClaimToken, ordinal: Int)?
    /// What the output was made from (an input file, usually): named when it fails.
    public var source: String
    /// Outputs with the same group run one after another on one worker, so work they share
    /// (reading and parsing one input) is done once; nil runs the output on its own.
    public var group: String?
    /// Renders the image, through the batch's rasterizer so unchanged renders come from its cache.
    /// Replacing it on an output made from a component makes it an output like any other: its
    /// key is no longer known before rendering.
    public var render: @Sendable (Rasterizer) throws -> RenderedImage { didSet { forgetComponent() } }
    /// Turns the image into the file's bytes. Replacing it on an output made from a component
    /// stops the store from serving bytes its encoder made.
    public var encode: @Sendable (RasterImage) throws -> Data { didSet { forgetComponent() } }
    /// Names the file's exact contents without rendering them (the render's cache key and
    /// the encoding, say): when the file already holds what this names, it is not made again.
    /// nil always renders.
    public var fingerprint: (@Sendable () throws -> String)? { didSet { forgetComponent() } }
    /// The key of the render, without rendering, for outputs made from a component.
    var renderKey: (@Sendable () throws -> CacheKey)?
    /// What that render must be (its pixel size, scale and caps, under the rasterizer's limits),
    /// for checking bytes the store kept or the remote store sent before they are written.
    var expectedRender: (@Sendable (ResourceLimits) throws -> ExpectedRender)?
    /// What `encode` is, for outputs made from a component: its identifier names the bytes the
    /// render store keeps for the next batch.
    var encoder: (any BatchEncoder)?
    /// Writes a vector document's bytes straight from the component, instead of `render` and
    /// `encode`; nil for images.
    var document: (@Sendable (Rasterizer) throws -> Data)?
    /// The name of those bytes (``vectorEncoding(_:)``), for listings.
    var vectorEncoding: String?
    /// Names, cheaply, the state of everything the fingerprint depends on (the source file's
    /// identity, size and times, and the output's parameters), or nil when that cannot be told
    /// without reading it. When it matches the stamp recorded with the output, the output is up
    /// to date without computing the fingerprint, which reads the source.
    var sourceStamp: (@Sendable () -> String?)?

    /// An output written to `path` (relative to the batch directory): the render of the component
    /// `component` makes, at `size` points and `scale`, encoded by `encoder`. `component` may be
    /// called more than once (for the key, then to render), from a worker thread.
    public init(path: String, source: String, group: String? = nil, size: Size, scale: Double,
                encoder: any BatchEncoder = PNGBatchEncoder(),
                component: @escaping @Sendable () throws -> any Rasterizable) {
        self.path = path
        self.source = source
        self.group = group
        self.encoder = encoder
        let renderKey: @Sendable () throws -> CacheKey = { try CacheKey.make(for: try component(), size: size, scale: scale) }
        self.renderKey = renderKey
        expectedRender = { limits in try ExpectedRender(for: try component(), size: size, scale: scale, limits: limits) }
        fingerprint = { Self.fingerprint(try renderKey(), encoding: encoder.identifier) }
        encode = { try encoder.encode($0) }
        render = { rasterizer in try Self.render(try component(), size: size, scale: scale, with: rasterizer) }
    }

    /// A vector document written to `path` (relative to the batch directory): `component` drawn
    /// at `size` points as a PDF or SVG (`Rasterizer.vectorDocument(of:size:format:)`), under a
    /// fingerprint of its key and the format. Its `render` is the same component in pixels at
    /// `Rasterizer.vectorRasterScale`, for callers that want an image of it.
    public init(path: String, source: String, group: String? = nil, size: Size, vector format: VectorFormat,
                component: @escaping @Sendable () throws -> any Rasterizable) {
        self.path = path
        self.source = source
        self.group = group
        let renderKey: @Sendable () throws -> CacheKey = { try CacheKey.make(for: try component(), size: size, scale: 1) }
        self.renderKey = renderKey
        let encoding = Self.vectorEncoding(format)
        vectorEncoding = encoding
        fingerprint = { Self.fingerprint(try renderKey(), encoding: encoding) }
        encode = BatchOutput.png
        render = { rasterizer in try Self.render(try component(), size: size, scale: Rasterizer.vectorRasterScale, with: rasterizer) }
        document = { rasterizer in try rasterizer.vectorDocument(of: try component(), size: size, format: format) }
    }

    /// `component` rendered on the calling thread; generic, so that a component given as
    /// `any Rasterizable` is opened into its own ``RenderRequest``.
    private static func render(_ component: some Rasterizable, size: Size, scale: Double,
                               with rasterizer: Rasterizer) throws -> RenderedImage {
        try rasterizer.render(RenderRequest(component, size: size, scale: scale))
    }

    /// The name of a vector document's bytes, in fingerprints and listings: `pdf1`, `svg1`.
    /// Bump when the document written for the same component would change.
    static func vectorEncoding(_ format: VectorFormat) -> String { "\(format.rawValue)1" }

    /// An output written to `path` (relative to the batch directory), made by `render`.
    public init(path: String, source: String, group: String? = nil,
                fingerprint: (@Sendable () throws -> String)? = nil,
                encode: @escaping @Sendable (RasterImage) throws -> Data = BatchOutput.png,
                render: @escaping @Sendable (Rasterizer) throws -> RenderedImage) {
        self.path = path
        self.source = source
        self.group = group
        self.fingerprint = fingerprint
        self.encode = encode
        self.render = render
    }

    /// After `render`, `encode` or `fingerprint` was replaced, the output's key and encoder no
    /// longer describe what it writes.
    private mutating func forgetComponent() {
        renderKey = nil
        expectedRender = nil
        encoder = nil
        document = nil
        vectorEncoding = nil
    }

    /// RasterKit's deterministic PNG encoding (``PNGBatchEncoder``): the default encoder.
    public static let png: @Sendable (RasterImage) throws -> Data = { try PNGBatchEncoder().encode($0) }

    /// A fingerprint for a render encoded by ``png``: its cache key and the encoder's identity.
    ///
    /// ```swift
    /// fingerprint: { BatchOutput.pngFingerprint(try rasterizer.cacheKey(for: badge, size: size, scale: 2)) }
    /// ```
    public static func pngFingerprint(_ key: CacheKey) -> String { fingerprint(key, encoding: PNGBatchEncoder().identifier) }

    /// The fingerprint of the render of `key` written by the encoder (or document writer) named
    /// `encoding`: what the batch index records, and what an up-to-date file is checked against.
    static func fingerprint(_ key: CacheKey, encoding: String) -> String { fingerprint(key.value, encoding: encoding) }

    /// The fingerprint of the render whose key's digest is `digest`, written by `encoding`.
    static func fingerprint(_ digest: StableDigest, encoding: String) -> String { "\(digest.hex)-\(encoding)" }
}
