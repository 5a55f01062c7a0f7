import Foundation
import RasterKit
import RasterKitBatch

/// `--contact-sheet`: every component state (and each SVG) once, read back from the files just
/// written, at its size in points, labelled with its file name.
enum RenderContactSheet {
    static let maximumImageSide = 400.0, scale = 2.0

    static func write(title: String, previews: [BatchPreview], from directory: URL, to destination: URL) throws {
        var items: [ContactSheet.Item] = []
        for preview in previews {
            // An output that failed has no file; the summary already says so.
            guard let data = try? FileReader.read(directory.path + "/" + preview.path) else { continue }
            // Each preview is scaled down as it is made and the full-size image dropped: a sheet
            // of a hundred 4096² renders would otherwise hold 6 GiB of pixels before drawing.
            let thumbnail = try ContactSheet.thumbnail(of: try image(from: data, preview), maximumSide: maximumImageSide,
                                                       scale: scale)
            items.append(ContactSheet.Item(label: preview.label, image: thumbnail))
        }
        let sheet = try ContactSheet(title: title, items: items, width: 1_400, maximumImageSide: maximumImageSide)
            .render(scale: scale)
        try AtomicFileWriter.write(try sheet.pngData(), to: destination.path)
    }

    /// The image as it looks in use: without a nine-patch's marker border, stretched to its size.
    private static func image(from data: Data, _ preview: BatchPreview) throws -> RasterImage {
        var image = try RasterImage(pngData: data).withScale(preview.scale)
        let scale = preview.scale
        if preview.hasNinePatchBorder {
            let bordered = image
            let inner = Size(width: Double(bordered.pixelWidth - 2) / scale, height: Double(bordered.pixelHeight - 2) / scale)
            image = try RasterImage(size: inner, scale: scale) { canvas in
                canvas.draw(bordered, in: Rect(x: -1 / scale, y: -1 / scale, width: bordered.size.width,
                                               height: bordered.size.height), interpolation: .nearest)
            }
        }
        if let caps = preview.capInsets {
            image = try image.withCapInsets(caps)
            if image.size != preview.size { image = try image.stretched(to: preview.size) }
        }
        return image
    }
}
