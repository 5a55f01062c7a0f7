/// One request for a component's image: the component in its current state, the size in
/// points and the scale it is drawn at, how the request uses the cache tiers, and how soon an
/// asynchronous request wants it — as Nuke's `ImageRequest` carries a URL with its options.
///
/// A ``Rasterizer`` serves a request three ways: `try rasterizer.render(request)` on the calling
/// thread, `try await rasterizer.render(request)` on RasterKit's render threads, and
/// ``Rasterizer/cachedRender(_:)`` from the cache alone.
///
/// ```swift
/// let request = RenderRequest(badge, size: Size(width: 120, height: 32), scale: 2)
/// let now = try rasterizer.render(request)                      // on this thread
/// let later = try await rasterizer.render(request)              // on the render threads
/// let fresh = try rasterizer.render(request.with(options: .reloadIgnoringCachedData))
/// let stored = try rasterizer.cachedRender(request)             // nil when no tier holds it
/// ```
public struct RenderRequest<Component: Rasterizable>: Sendable {
    /// The component, whose current state selects the cached image.
    public var component: Component
    /// The size in points.
    public var size: Size
    /// Pixels per point.
    public var scale: Double
    /// How this request reads and writes the cache tiers (components nested in it use the cache
    /// as usual).
    public var options: RenderOptions
    /// How soon an asynchronous request wants its draw; a synchronous one draws at once.
    public var priority: RenderPriority

    /// A request for `component` at `size` points and `scale`, using the cache as usual, urgent.
    public init(_ component: Component, size: Size, scale: Double = 1, options: RenderOptions = [],
                priority: RenderPriority = .urgent) {
        self.component = component
        self.size = size
        self.scale = scale
        self.options = options
        self.priority = priority
    }

    /// This request with `options` instead of its own.
    public func with(options: RenderOptions) -> RenderRequest {
        var request = self
        request.options = options
        return request
    }

    /// This request at `priority` instead of its own.
    public func with(priority: RenderPriority) -> RenderRequest {
        var request = self
        request.priority = priority
        return request
    }

    /// The request's drawing geometry; throws ``RenderError`` for a size, scale or cap insets no
    /// surface can have.
    func geometry() throws -> RenderGeometry {
        try RenderGeometry(for: component, size: size, scale: scale)
    }

    /// The key the request's image is cached under.
    func key() throws(StateKeyError) -> CacheKey {
        try CacheKey.make(for: component, size: size, scale: scale)
    }
}
