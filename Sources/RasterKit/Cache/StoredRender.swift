import Foundation

/// A render as a ``RenderStore`` keeps it: its pixels, its PNG, or both, with the components
/// drawn inside it.
///
/// A render on its way to a store has its pixels (just drawn) and often its PNG too (fetched
/// from the remote store, or written by a batch), which the store then keeps instead of encoding
/// the pixels again; a render read back from a store is usually its PNG alone.
public struct StoredRender: Sendable {
    /// The pixels, when the store holds them decoded (a render not yet written), or nil.
    public let image: RasterImage?
    /// The render's PNG as RasterKit writes it (scale and cap insets in its text chunks), or nil
    /// when only the pixels are held. Never nil when ``image`` is.
    public let png: Data?
    /// The identifier of the encoder that wrote ``png`` when a batch wrote those bytes to a file
    /// (it may copy them as they are), or nil for the store's own encoding.
    public let pngEncoding: String?
    /// The type and render version of every component drawn inside the render: a store serves
    /// none whose children have since changed version.
    public let children: [ComponentVersion]
    /// When a ``DiskCache`` stored it (seconds since 1970), so that discarding it spares a render
    /// another process stored since; nil from any other store.
    let storedAt: Double?

    /// A render held as its pixels, and as `png` when it has already been encoded (by the encoder
    /// named `pngEncoding`; nil for RasterKit's own).
    public init(image: RasterImage, png: Data? = nil, pngEncoding: String? = nil, children: [ComponentVersion] = []) {
        self.init(image: image, png: png, pngEncoding: pngEncoding, children: children, storedAt: nil)
    }

    /// A render held only as `png`, as RasterKit writes it.
    public init(png: Data, pngEncoding: String? = nil, children: [ComponentVersion] = []) {
        self.init(image: nil, png: png, pngEncoding: pngEncoding, children: children, storedAt: nil)
    }

    init(image: RasterImage?, png: Data?, pngEncoding: String?, children: [ComponentVersion], storedAt: Double?) {
        precondition(image != nil || png != nil, "a stored render has its pixels or its PNG")
        self.image = image
        self.png = png
        self.pngEncoding = pngEncoding
        self.children = children
        self.storedAt = storedAt
    }
}
