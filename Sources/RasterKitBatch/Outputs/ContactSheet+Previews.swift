import RasterKit
import Foundation

extension ContactSheet {
    /// The largest side of an image on a manifest's contact sheet, in points, and its scale.
    static let previewSide = 400.0, previewScale = 2.0

    /// A manifest's contact sheet: every preview of `previews` once, labelled with its file's
    /// name, at its size in points. Each image is taken from `thumbnails` (made while the batch
    /// ran, see ``PreviewCollector``) or, for an output the batch left up to date, read back
    /// from its file in `directory`; an output that failed has neither and is left out.
    static func manifestSheet(title: String, previews: [BatchPreview], thumbnails: [String: RasterImage],
                              directory: URL) throws -> RasterImage {
        var items: [Item] = []
        for preview in previews {
            let thumbnail: RasterImage
            if let made = thumbnails[preview.path] {
                thumbnail = made
            } else {
                // A file that cannot be read back (it failed, or was changed) is left off the sheet.
                guard let data = try? FileReader.read(directory.path + "/" + preview.path),
                      let image = try? Self.image(ofFile: data, at: preview.path) else { continue }
                thumbnail = try Self.thumbnail(of: image, for: preview)
            }
            items.append(Item(label: preview.label, image: thumbnail, appearance: preview.appearance))
        }
        return try ContactSheet(title: title, items: items, width: 1_400, maximumImageSide: previewSide)
            .render(scale: previewScale)
    }

    /// The image a batch wrote to `path`: a PNG, or a WebP decoded by libwebp (without the scale
    /// and caps a PNG carries; the preview supplies them).
    static func image(ofFile data: Data, at path: String) throws -> RasterImage {
        guard path.hasSuffix(".webp") else { return try RasterImage(pngData: data) }
        return try RasterImage(pngData: try WebPBatchEncoder.decode(data).pngData())
    }

    /// `image`, the file of `preview`, as it looks in use (without a nine-patch's marker border,
    /// stretched to its size), scaled down to a thumbnail at once: a sheet of a hundred 4096²
    /// renders would otherwise hold gigabytes of pixels before drawing.
    static func thumbnail(of image: RasterImage, for preview: BatchPreview) throws -> RasterImage {
        var image = try image.withScale(preview.scale)
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
        return try thumbnail(of: image, maximumSide: previewSide, scale: previewScale)
    }
}

/// Thumbnails of a plan's previews, made by the workers from the images they hold anyway, so a
/// contact sheet does not read back and decode the files just written.
final class PreviewCollector: Sendable {
    private let wanted: [String: BatchPreview]
    private let made = Lock<[String: RasterImage]>([:])

    init(_ previews: [BatchPreview]) {
        wanted = Dictionary(previews.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the output at `path` is shown on the sheet.
    func wants(_ path: String) -> Bool { wanted[path] != nil }

    /// Keeps the thumbnail of `render`, the image encoded into the file at `path` (before any
    /// nine-patch border was added), when the sheet shows it. A thumbnail that cannot be made is
    /// left to the sheet, which reads the file.
    func keep(_ path: String, render: RasterImage) {
        guard var preview = wanted[path] else { return }
        preview.hasNinePatchBorder = false
        store(path, try? ContactSheet.thumbnail(of: render, for: preview))
    }

    /// Keeps the thumbnail of the file at `path` from its bytes, when the sheet shows it.
    func keep(_ path: String, fileBytes: Data) {
        guard let preview = wanted[path] else { return }
        store(path, try? ContactSheet.thumbnail(of: try ContactSheet.image(ofFile: fileBytes, at: path), for: preview))
    }

    private func store(_ path: String, _ thumbnail: RasterImage?) {
        guard let thumbnail else { return }
        made.withLock { $0[path] = thumbnail }
    }

    /// The thumbnails made, by output path.
    var thumbnails: [String: RasterImage] { made.withLock { $0 } }
}
