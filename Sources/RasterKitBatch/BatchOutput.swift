import RasterKit
import Foundation

/// One file a batch writes: where it goes, what it was made from, how to render it and how
/// to encode the image.
///
/// ```swift
/// let output = BatchOutput(path: "icons/star-48@2x.png", source: "star.svg") { rasterizer in
///     try rasterizer.render(SVGImage(star), size: Size(48), scale: 2)
/// }
/// ```
public struct BatchOutput: Sendable {
    /// Where the file goes, relative to the batch's output directory, with `/` between folders.
    public var path: String
    /// What the output was made from (an input file, usually): named when it fails.
    public var source: String
    /// Outputs with the same group run one after another on one worker, so work they share
    /// (reading and parsing one input) is done once; nil runs the output on its own.
    public var group: String?
    /// Renders the image, through the batch's rasterizer so unchanged renders come from its cache.
    public var render: @Sendable (Rasterizer) throws -> RenderedImage
    /// Turns the image into the file's bytes.
    public var encode: @Sendable (RasterImage) throws -> Data
    /// Names the file's exact contents without rendering them (the render's cache key and
    /// the encoding, say): when the file already holds what this names, it is not made again.
    /// nil always renders.
    public var fingerprint: (@Sendable () throws -> String)?
    /// Whether `encode` is ``png``, whose bytes are a PNG of exactly the rendered pixels: the
    /// batch then gives them to the disk store too, which need not encode the render again.
    var encodesRenderAsPNG = false
    /// Names, cheaply, the state of everything the fingerprint depends on (the source file's
    /// identity, size and times, and the output's parameters), or nil when that cannot be told
    /// without reading it. When it matches the stamp recorded with the output, the output is up
    /// to date without computing the fingerprint, which reads the source.
    var sourceStamp: (@Sendable () -> String?)?

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

    /// RasterKit's deterministic PNG encoding: the default encoder.
    public static let png: @Sendable (RasterImage) throws -> Data = { try $0.pngData() }

    /// A fingerprint for a render encoded by ``png``: its cache key and the encoder's identity.
    ///
    /// ```swift
    /// fingerprint: { BatchOutput.pngFingerprint(rasterizer.cacheKey(for: badge, size: size, scale: 2)) }
    /// ```
    public static func pngFingerprint(_ key: CacheKey) -> String { "\(key.digest)-png\(pngEncoderVersion)" }

    /// Changes whenever ``png`` would write other bytes for the same pixels.
    static let pngEncoderVersion = 1
}
