import RasterKit

extension Rasterizer {
    /// ``Rasterizer/cacheKey(for:size:scale:)`` of a state a test knows can be keyed: a
    /// refusal (``StateKeyError``) is a broken test, which stops with the error.
    package func key<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1) -> CacheKey {
        do { return try cacheKey(for: component, size: size, scale: scale) } catch { preconditionFailure("\(error)") }
    }
}
