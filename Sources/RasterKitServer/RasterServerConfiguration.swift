import Foundation
import RasterKit

/// What a RasterKit render server serves and how much it may be made to spend: the manifest and
/// icon folder, the limits on each request, HTTP caching and the signing key.
///
/// ```swift
/// var configuration = RasterServerConfiguration(manifest: URL(fileURLWithPath: "showcase.yaml"))
/// configuration.maximumPixels = 1 << 20
/// ```
public struct RasterServerConfiguration: Sendable {
    /// The manifest whose components `/components/…` serves; nil for none.
    public var manifest: URL?
    /// The folder whose SVGs `/icons/…` serves; nil for none.
    public var icons: URL?
    /// Folders of fonts the manifest's text may use besides its own `fonts:` (`--font-dir`).
    public var fontDirectories: [URL] = []
    /// The most pixels one render may have (width × height × scale²); default 4 Mi.
    public var maximumPixels: Int = 4 << 20
    /// The longest side, in points, a request may ask for.
    public var maximumSide: Double = 8_192
    /// The largest scale a request may ask for (scales are more than 0 and at most this).
    public var maximumScale: Double = 4
    /// Seconds a response may be cached (`Cache-Control: max-age`) when its URL has no `v=`.
    public var maxAge: Int = 3_600
    /// Seconds a response whose URL carries `v=` may be cached; it is also marked `immutable`.
    public var versionedMaxAge: Int = 31_536_000
    /// The HMAC-SHA256 key signed URLs are checked with; nil serves unsigned URLs.
    public var signingKey: Data?
    /// How many renders that memory cannot serve may wait or draw at once; more are answered 503.
    public var renderQueueLimit: Int = 64
    /// Seconds a 503 asks the client to wait (`Retry-After`).
    public var retryAfterSeconds: Int = 1
    /// How often the manifest and icon folder are checked for changes, in seconds.
    public var reloadInterval: Double = 1
    /// Bytes of encoded responses (PNG, WebP) kept in memory, so a warm hit encodes nothing.
    public var encodedCacheLimit: Int = 64 << 20
    /// The most connections open at once; one more is answered `503` and closed. Keep it under
    /// the process's file descriptor limit (`rasterkit serve` lowers it to fit).
    public var maximumConnections: Int = 512
    /// Seconds a connection may stay idle — between requests, or sending a request head — before
    /// it is closed.
    public var idleTimeout: Double = 10
    /// Seconds a connection's responses may wait on its client in all — one that reads nothing,
    /// or reads a trickle — before the connection is closed.
    public var writeTimeout: Double = 30

    /// A configuration serving `manifest` and the SVGs in `icons`, with the default limits.
    public init(manifest: URL? = nil, icons: URL? = nil) {
        self.manifest = manifest
        self.icons = icons
    }

    /// The limits renders are drawn under: RasterKit's limits for untrusted input, with this
    /// configuration's pixel count.
    public var renderLimits: ResourceLimits {
        var limits = ResourceLimits.untrusted
        limits.pixels = PixelLimits(maximumSide: max(limits.pixels.maximumSide, Int(maximumSide * maximumScale)),
                                    maximumPixelCount: maximumPixels)
        return limits
    }
}
