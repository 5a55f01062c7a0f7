import RasterKit
/// A component described by data — a manifest's component in one state — instead of Swift
/// code: its state is its resolved layer tree, so the rasterizer's keys, caches and nesting
/// apply unchanged. Two components (or states) that resolve to the same layers share one key
/// and one render; changing one state changes only that state's keys.
///
/// ```swift
/// let chip = DeclarativeComponent(layers: [
///     .shape(ShapeLayer(shape: .roundedRect(CornerRadii(all: 999)), fill: .color(try Color(hex: "#E8F0FE")))),
///     .text(TextLayer(text: "Beta", style: TextStyle(font: "DejaVu Sans Bold 12", alignment: .center,
///                                                   verticalAlignment: .center))),
/// ])
/// let image = try rasterizer.image(for: chip, size: Size(width: 64, height: 24), scale: 2)
/// ```
public struct DeclarativeComponent: Rasterizable, StateHashable, CustomStringConvertible {
    /// What is drawn, bottom first.
    public var layers: [Layer]
    /// Nine-slice caps in points: drawn once at the minimum frame and stretched.
    public var capInsets: EdgeInsets?
    /// Where it came from (`button/pressed`), for messages and keys' descriptions; not part of
    /// the state, so equal layers share a render whatever their names.
    public var name: String

    /// A component drawing `layers`, resizable when `capInsets` are given.
    public init(layers: [Layer], capInsets: EdgeInsets? = nil, name: String = "") {
        self.layers = layers
        self.capInsets = capInsets
        self.name = name
    }

    /// Bumped whenever layers draw differently, so renders of the old drawing are never served.
    public static var renderVersion: Int { 2 }

    /// Draws the layers in order, the first at the bottom, in a rectangle of `size`.
    public func draw(in canvas: Canvas, size: Size) throws {
        try LayerRenderer(canvas: canvas).draw(layers, in: Rect(size: size))
    }

    /// The layer tree (caps are added to the key by the rasterizer).
    public func hashState(into hasher: inout StateHasher) {
        layers.hashState(into: &hasher)
    }

    /// The name, if any, and the number of layers.
    public var description: String {
        let count = "\(layers.count) layer\(layers.count == 1 ? "" : "s")"
        return name.isEmpty ? count : "\(name), \(count)"
    }

    /// Components are equal when their layers and caps are; the name is not compared.
    public static func == (lhs: DeclarativeComponent, rhs: DeclarativeComponent) -> Bool {
        lhs.layers == rhs.layers && lhs.capInsets == rhs.capInsets
    }
}

extension DeclarativeComponent: Hashable {
    /// Hashes the layers and caps, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(layers)
        hasher.combine(capInsets)
    }
}
