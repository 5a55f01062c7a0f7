import RasterKit
import Foundation

/// Builds a plan of items in one format: what every format shares (checked and claimed paths,
/// shards, previews, outputs keyed before rendering); the format's ``OutputLayout`` decides
/// names, folders and encoders.
struct BatchPlanBuilder {
    let format: ExportFormat
    /// `<name>.xcassets`.
    let catalog: String
    let shard: Shard
    /// The quality of lossy WebP files; nil for lossless.
    var webpQuality: Int?
    var plan = BatchPlan()
    /// Who claimed each path, to report two items writing one file.
    private var claims = OutputPathClaims()

    init(format: ExportFormat, catalog: String, shard: Shard) {
        self.format = format
        self.catalog = catalog
        self.shard = shard
    }

    /// Adds every file of `item` in this builder's format.
    mutating func add(_ item: BatchItem) throws(BatchPlanError) {
        let scales = item.scales.uniqued()
        let layout = format.layout
        for scale in scales where !layout.supports(scale: scale) {
            throw .unsupportedScale(format: format, scale: scale, item: item.source)
        }
        let previewScale = BatchPreview.scale(among: scales)
        for size in item.sizes.uniqued() {
            try layout.add(item, size: size, scales: scales, previewScale: previewScale, to: &self)
        }
    }

    /// Adds the image at `path`: `variant` (of `item` in `appearance`) at `size` and `scale`,
    /// encoded by `encoder`, and the item's preview when `preview` (its file has a nine-patch
    /// border when `hasNinePatchBorder`).
    mutating func addImage(_ path: String, _ item: BatchItem, _ variant: BatchItem.Variant, _ size: Size,
                           _ scale: Double, encoder: any BatchEncoder, preview: Bool, appearance: Appearance = .light,
                           hasNinePatchBorder: Bool = false) throws(BatchPlanError) {
        let source = item.source(in: appearance)
        _ = try Self.pixelSize(of: variant.component, size: size, scale: scale, source: source)
        let component = variant.component
        plan.outputs.append(BatchOutput(path: path, source: source, size: size, scale: scale, encoder: encoder) {
            component
        })
        if preview {
            let label = String(path.split(separator: "/").last ?? Substring(path))
            var preview = BatchPreview(source: source, label: label, path: path, size: size, scale: scale,
                                       capInsets: component.capInsets, hasNinePatchBorder: hasNinePatchBorder)
            preview.appearance = appearance
            plan.previews.append(preview)
        }
    }

    /// Gives `path` to `item` (in `appearance`), or throws when another item has it (or one
    /// differing only in case).
    mutating func claim(_ path: String, by item: BatchItem, in appearance: Appearance = .light) throws(BatchPlanError) {
        try claims.claim(path, by: item.source(in: appearance))
    }

    /// The pixels a render of `component` takes (its minimum frame when it has caps), checked;
    /// `source` names the item in the error.
    static func pixelSize(of component: any Rasterizable, size: Size, scale: Double,
                          source: String) throws(BatchPlanError) -> (width: Int, height: Int) {
        do {
            let geometry = try RenderGeometry(for: component, size: size, scale: scale)
            return try PixelGeometry.pixelSize(for: geometry.drawSize, scale: scale, limits: .default)
        } catch {
            throw .invalidSize(item: source, reason: "\(error)")
        }
    }
}
