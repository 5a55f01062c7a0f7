import Foundation

/// A component drawn in place of another when that one's render fails: an avatar whose photo
/// cannot be read shows initials. Made by ``Rasterizable/fallback(_:retryAfter:)``.
///
/// A request renders `primary` through the cache, under the primary's own key. When its draw
/// throws (a bad SVG, a missing file, a surface over the pixel limits), `secondary` is rendered
/// at the same size and scale instead, and the result says so: ``RenderedImage/origin`` is
/// ``RenderedImage/Origin/fallback`` and ``RenderedImage/fallbackError`` holds the error, which
/// ``RenderStatistics/fallbacks`` counts and ``RasterHost/lastError`` shows.
///
/// A fallback render is never stored where the primary's render would be: the secondary is
/// cached under its own key only, and nothing is stored under this pair's key. The rasterizer
/// remembers the failure in memory only, for `retryInterval` seconds, so requests in between are
/// served the secondary without trying the primary again; the first request after that retries it.
/// Cancellation and the render's time limit are not failures of the primary: they end the
/// request as they would any other.
public struct Fallback<Primary: Rasterizable, Secondary: Rasterizable>: Rasterizable, StateHashable, CustomStringConvertible {
    /// The component drawn when it can be.
    public let primary: Primary
    /// The component drawn when `primary` fails.
    public let secondary: Secondary
    /// Seconds a failed primary is not retried; its requests are served `secondary` meanwhile.
    public let retryInterval: Double
    private let primaryDigest: StateDigest
    private let secondaryDigest: StateDigest

    /// `primary`, or `secondary` when `primary` fails; a failed primary is retried after
    /// `retryInterval` seconds (not negative; a NaN counts as 0).
    public init(_ primary: Primary, secondary: Secondary, retryInterval: Double = 30) {
        self.primary = primary
        self.secondary = secondary
        self.retryInterval = retryInterval.isNaN ? 0 : max(0, retryInterval)
        primaryDigest = StateDigest(of: primary)
        secondaryDigest = StateDigest(of: secondary)
    }

    /// Kept out of the disk store: a successful render is stored under the primary's own key.
    public var diskCacheLifetime: Double? { 0 }

    /// The primary's caps when the secondary has the same (both then render at the minimum frame
    /// and stay stretchable); otherwise none, and both are served at the requested size.
    public var capInsets: EdgeInsets? {
        guard let caps = primary.capInsets, caps == secondary.capInsets,
              primary.usesMinimumFrameForCaps == secondary.usesMinimumFrameForCaps else { return nil }
        return caps
    }

    /// As the primary.
    public var usesMinimumFrameForCaps: Bool { primary.usesMinimumFrameForCaps }

    /// Writes both components' keys (type, render version and state); the retry interval does
    /// not change what is drawn.
    public func hashState(into hasher: inout StateHasher) {
        primaryDigest.write(for: primary, into: &hasher)
        secondaryDigest.write(for: secondary, into: &hasher)
    }

    /// Draws the primary's render into `canvas`, or the secondary's when the primary fails.
    public func draw(in canvas: Canvas, size: Size) throws {
        let image = try composeImage(drawSize: size, scale: canvas.scale, environment: canvas.environment)
        canvas.draw(image, in: Rect(size: size))
    }

    /// `primary, or else secondary`.
    public var description: String { "\(primary), or else \(secondary)" }
}

extension Rasterizable {
    /// This component, or `other` at the same size and scale when this one's render throws; a
    /// failed render is retried after `retryAfter` seconds, not on every request.
    ///
    /// ```swift
    /// let avatar = Photo(url: user.photoURL).fallback(Initials(name: user.name))
    /// let rendered = try rasterizer.render(avatar, size: Size(48), scale: 2)
    /// if rendered.origin == .fallback { log(rendered.fallbackError) }
    /// ```
    public func fallback<Other: Rasterizable>(_ other: Other, retryAfter: Double = 30) -> Fallback<Self, Other> {
        Fallback(self, secondary: other, retryInterval: retryAfter)
    }
}

extension Fallback: ComposedRendering {
    /// The primary's render unless it failed within the retry interval or fails now; otherwise
    /// the secondary's, with the failure noted for the render being made.
    func composeImage(drawSize: Size, scale: Double, environment: DrawEnvironment) throws -> RasterImage {
        let rasterizer = environment.nestedRenderer as? Rasterizer
        let records = rasterizer?.fallbackRecords
        let primaryKey = try CacheKey.digest(for: primary, size: drawSize, scale: scale)
        if let failure = records?.failure(of: primaryKey) {
            rasterizer?.counters.count(.fallbacks)
            return try serveSecondary(after: failure, drawSize: drawSize, scale: scale, environment: environment)
        }
        do {
            var image = try environment.renderComponent(primary, size: drawSize, scale: scale)
            // A nine-slice primary comes back at its minimum frame: unless the pair is stretchable
            // itself, both outcomes have the size asked for.
            if capInsets == nil, image.capInsets != nil,
               abs(image.size.width - drawSize.width) > 1e-9 || abs(image.size.height - drawSize.height) > 1e-9 {
                image = try image.stretched(to: drawSize)
            }
            return image
        } catch {
            if FallbackEvent.endsRequest(error) { throw error }
            let failure = FallbackEvent(error: error, retryAt: .now + .seconds(retryInterval))
            records?.recordFailure(failure, of: primaryKey)
            rasterizer?.counters.count(.fallbacks)
            return try serveSecondary(after: failure, drawSize: drawSize, scale: scale, environment: environment)
        }
    }

    private func serveSecondary(after failure: FallbackEvent, drawSize: Size, scale: Double,
                                environment: DrawEnvironment) throws -> RasterImage {
        var image = try environment.renderComponent(secondary, size: drawSize, scale: scale)
        if capInsets == nil, image.capInsets != nil,
           abs(image.size.width - drawSize.width) > 1e-9 || abs(image.size.height - drawSize.height) > 1e-9 {
            image = try image.stretched(to: drawSize)
        }
        // Noted after the secondary's own render, which is stored under its key as usual.
        environment.children.noteFallback(failure)
        return image
    }
}
