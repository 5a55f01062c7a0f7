import RasterKit

/// A card that nests other components: a stretched `Panel`, a `Glyph`, a title, a `Badge`
/// and a `Button`, each drawn once and cached under its own key.
public struct Card: Rasterizable {
    public var title: String
    public var subtitle: String
    public var glyph: Glyph.Name
    public var unread: Int
    public var action: String

    public init(title: String, subtitle: String, glyph: Glyph.Name, unread: Int = 0, action: String = "Open") {
        self.title = title
        self.subtitle = subtitle
        self.glyph = glyph
        self.unread = unread
        self.action = action
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let bounds = Rect(size: size).insetBy(dx: 6, dy: 6)
        canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.12), offset: Point(x: 0, y: 2), blur: 8)) {
            canvas.fill(Path(roundedRect: bounds, cornerRadius: 12), with: .color(.white))
        }
        try canvas.draw(Panel(), in: bounds)
        let tile = Rect(x: bounds.minX + 16, y: bounds.minY + 16, width: 44, height: 44)
        canvas.fill(Path(roundedRect: tile, cornerRadius: 10), with: .color(Palette.lighter(Palette.blue, 0.88)))
        try canvas.draw(Glyph(glyph, color: Palette.blue), in: tile.insetBy(dx: 10, dy: 10))
        if unread > 0 {
            try canvas.draw(Badge(count: unread), in: Rect(x: tile.maxX - 12, y: tile.minY - 8, width: unread > 9 ? 28 : 20, height: 20))
        }
        let textX = tile.maxX + 14
        canvas.draw(text: title, in: Rect(x: textX, y: tile.minY + 2, width: bounds.maxX - textX - 16, height: 20),
                    style: TextStyle(font: "DejaVu Sans Bold 15", color: Palette.ink, wrapping: .none, maxLines: 1))
        canvas.draw(text: subtitle, in: Rect(x: textX, y: tile.minY + 24, width: bounds.maxX - textX - 16, height: 36),
                    style: TextStyle(font: "DejaVu Sans 12", color: Palette.slate, maxLines: 2))
        let buttonWidth = 96.0
        try canvas.draw(Button(title: action, style: .primary),
                        in: Rect(x: bounds.maxX - 16 - buttonWidth, y: bounds.maxY - 16 - 36, width: buttonWidth, height: 36))
    }
}
