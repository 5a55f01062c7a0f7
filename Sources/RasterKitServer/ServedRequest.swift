import Hummingbird
import RasterKit

/// An HTTP render request resolved against one catalog: what to render, how, and how to make the
/// component when it must be hashed or drawn.
struct ServedRequest {
    let catalog: RenderCatalog
    /// The request in canonical form (route, names, size, scale, tint) for the identity memo.
    let memoKey: String
    let size: Size
    let query: RenderQuery
    let format: ServedFormat
    let http: Request
    let makeComponent: () throws(RequestError) -> any Rasterizable

    init(catalog: RenderCatalog, memoKey: String, size: Size, query: RenderQuery, format: ServedFormat, http: Request,
         makeComponent: @escaping () throws(RequestError) -> any Rasterizable) {
        self.catalog = catalog
        self.memoKey = memoKey
        self.size = size
        self.query = query
        self.format = format
        self.http = http
        self.makeComponent = makeComponent
    }
}
