import RasterKit
import Foundation

/// A labelled overview of many images on one PNG, for reviewing a batch at a glance: images
/// flow in rows at their size in points (large ones scaled down), each over a light
/// checkerboard that shows its transparency, with its label underneath.
///
/// ```swift
/// let sheet = try ContactSheet(title: "Buttons", items: images.map { ContactSheet.Item(label: $0.name, image: $0.image) })
///     .render(scale: 2)
/// ```
public struct ContactSheet: Sendable {
    /// One image and its caption.
    public struct Item: Sendable {
        /// The caption under the image.
        public var label: String
        /// The image shown, at its size in points unless larger than the sheet allows.
        public var image: RasterImage
        /// The appearance the image is for: a dark one is shown on a dark tile, as it is seen.
        public var appearance: Appearance
        /// An image and its caption, on a tile for `appearance`.
        public init(label: String, image: RasterImage, appearance: Appearance = .light) {
            self.label = label
            self.image = image
            self.appearance = appearance
        }
    }

    /// The heading at the top of the sheet.
    public var title: String
    /// The images, in the order they are laid out.
    public var items: [Item]
    /// The widest the sheet may be, in points.
    public var width: Double
    /// The largest an image is shown, in points; larger ones are scaled down.
    public var maximumImageSide: Double

    /// A sheet of `items`, at most `width` points wide, showing no image larger than
    /// `maximumImageSide` points; call `render(scale:)` to draw it.
    public init(title: String, items: [Item], width: Double = 1_200, maximumImageSide: Double = 320) {
        self.title = title
        self.items = items
        self.width = width
        self.maximumImageSide = maximumImageSide
    }

    /// `image` as the sheet shows it: no larger than `maximumSide` points a side and `scale`
    /// pixels a point. Callers that make many items scale each one down as it is made, so a
    /// sheet of large renders holds only small previews rather than every full-size image at once.
    public static func thumbnail(of image: RasterImage, maximumSide: Double, scale: Double) throws -> RasterImage {
        let factor = min(1, maximumSide / max(image.size.width, image.size.height))
        let size = Size(width: image.size.width * factor, height: image.size.height * factor)
        let pixels = (size.width * scale).rounded(.up) * (size.height * scale).rounded(.up)
        guard pixels < Double(image.pixelWidth * image.pixelHeight) else { return image }
        return try RasterImage(size: size, scale: scale) { canvas in
            canvas.draw(image, in: Rect(size: size), interpolation: .good)
        }
    }

    private static let padding = 16.0, labelHeight = 28.0, minimumCell = 88.0
    private static let labelStyle = TextStyle(font: "DejaVu Sans Mono 9", color: Color(white: 0.35),
                                              alignment: .center, maxLines: 2)

    /// The colours of a tile: its card, its checkerboard's two squares, its caption.
    private struct Tile {
        var card: Color, lightSquare: Color, darkSquare: Color, label: Color

        static let light = Tile(card: .white, lightSquare: Color(white: 0.98), darkSquare: Color(white: 0.91),
                                label: Color(white: 0.35))
        static let dark = Tile(card: Color(white: 0.14), lightSquare: Color(white: 0.2), darkSquare: Color(white: 0.16),
                               label: Color(white: 0.75))

        /// The tile an image for `appearance` is shown on.
        static func of(_ appearance: Appearance) -> Tile { appearance == .dark ? dark : light }
    }

    /// Where each item goes: its image rect and label rect, in points.
    private struct Placement { var image: Rect, label: Rect, cell: Rect }

    private func layout() -> (placements: [Placement], height: Double) {
        var placements: [Placement] = []
        let padding = Self.padding
        var x = padding, y = 64.0, rowHeight = 0.0
        for item in items {
            var size = item.image.size
            let factor = min(1, maximumImageSide / max(size.width, size.height))
            size = Size(width: size.width * factor, height: size.height * factor)
            let cellWidth = max(size.width, Self.minimumCell) + padding
            let cellHeight = size.height + Self.labelHeight + padding
            if x + cellWidth > width - padding, x > padding {
                x = padding
                y += rowHeight
                rowHeight = 0
            }
            let cell = Rect(x: x, y: y, width: cellWidth - padding / 2, height: cellHeight - padding / 2)
            let image = Rect(x: cell.midX - size.width / 2, y: cell.minY + 6, width: size.width, height: size.height)
            let label = Rect(x: cell.minX + 2, y: image.maxY + 4, width: cell.width - 4, height: Self.labelHeight)
            placements.append(Placement(image: image, label: label, cell: cell))
            x += cellWidth
            rowHeight = max(rowHeight, cellHeight)
        }
        return (placements, y + rowHeight + padding)
    }

    /// Draws the sheet.
    public func render(scale: Double = 1) throws -> RasterImage {
        let (placements, height) = layout()
        return try RasterImage(size: Size(width: width, height: max(height, 96)), scale: scale) { canvas in
            canvas.fillAll(with: .color(Color(white: 0.97)))
            canvas.draw(text: title, in: Rect(x: Self.padding, y: 16, width: width - 2 * Self.padding, height: 24),
                        style: TextStyle(font: "DejaVu Sans Bold 18", color: Color(white: 0.1)))
            canvas.draw(text: "\(items.count) image\(items.count == 1 ? "" : "s")",
                        in: Rect(x: Self.padding, y: 40, width: width - 2 * Self.padding, height: 16),
                        style: TextStyle(font: "DejaVu Sans 11", color: Color(white: 0.45)))
            for (item, placement) in zip(items, placements) {
                let tile = Tile.of(item.appearance)
                canvas.fill(Path(roundedRect: placement.cell, cornerRadius: 6), with: .color(tile.card))
                drawCheckerboard(in: placement.image, tile: tile, on: canvas)
                canvas.draw(item.image, in: placement.image, interpolation: .good)
                var labelStyle = Self.labelStyle
                labelStyle.color = tile.label
                canvas.draw(text: item.label, in: placement.label, style: labelStyle)
            }
        }
    }

    private func drawCheckerboard(in rect: Rect, tile: Tile, on canvas: Canvas) {
        let square = 6.0
        var light = Path(), dark = Path()
        var row = 0
        var y = rect.minY
        while y < rect.maxY {
            var column = 0
            var x = rect.minX
            while x < rect.maxX {
                let tile = Rect(x: x, y: y, width: min(square, rect.maxX - x), height: min(square, rect.maxY - y))
                if (row + column) % 2 == 0 { light.addRect(tile) } else { dark.addRect(tile) }
                x += square
                column += 1
            }
            y += square
            row += 1
        }
        canvas.fill(light, with: .color(tile.lightSquare))
        canvas.fill(dark, with: .color(tile.darkSquare))
    }
}
