/// A component RasterKit can draw and cache: it says which of its properties make up what is
/// drawn, and draws itself on a ``Canvas``. Each unique state is drawn once.
///
/// ```swift
/// struct Badge: Rasterizable {
///     var count: Int
///     var tint: Color
///     var accessibilityLabel: String            // not drawn, so not part of the state
///
///     static let stateKeyPaths: [PartialKeyPath<Badge> & Sendable] = [\.count, \.tint]
///
///     func draw(in canvas: Canvas, size: Size) throws {
///         canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(tint))
///         canvas.draw(text: "\(count)", in: Rect(size: size),
///                     style: TextStyle(font: "DejaVu Sans Bold 11", color: .white,
///                                      alignment: .center, verticalAlignment: .center))
///     }
/// }
/// ```
public protocol Rasterizable: Sendable {
    /// The properties that define what is drawn. Default: `[\Self.self]` — the whole value.
    static var stateKeyPaths: [PartialKeyPath<Self> & Sendable] { get }
    /// Bump when `draw` changes, so stored renders of the old code are never served.
    static var renderVersion: Int { get }
    /// Nine-slice caps in points; nil = not resizable.
    var capInsets: EdgeInsets? { get }
    /// Draw once at (left+right+1) × (top+bottom+1) points and stretch.
    var usesMinimumFrameForCaps: Bool { get }
    /// Seconds a render of this state is served from the disk store: nil for the store's
    /// default lifetime (30 days unless configured), 0 to keep it out of the store.
    var diskCacheLifetime: Double? { get }
    /// Draws the component into `canvas`, which is `size` points large.
    func draw(in canvas: Canvas, size: Size) throws
}

extension Rasterizable {
    /// The whole value: every stored property is part of the state.
    public static var stateKeyPaths: [PartialKeyPath<Self> & Sendable] { [\Self.self] }
    /// Version 0.
    public static var renderVersion: Int { 0 }
    /// Not resizable: drawn at every requested size.
    public var capInsets: EdgeInsets? { nil }
    /// Resizable components are drawn at their minimum frame and stretched.
    public var usesMinimumFrameForCaps: Bool { true }
    /// The store's default lifetime.
    public var diskCacheLifetime: Double? { nil }
}
