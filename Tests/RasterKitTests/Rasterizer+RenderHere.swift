import RasterKit

extension Rasterizer {
    /// `render(_:)` on the calling thread, for async tests: there Swift picks the async overload,
    /// and these tests mean the synchronous one (which draws on the caller's thread at once).
    func renderHere<Component: Rasterizable>(_ request: RenderRequest<Component>) throws -> RenderedImage {
        try render(request)
    }
}
