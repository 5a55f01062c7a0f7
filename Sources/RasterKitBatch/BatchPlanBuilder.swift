import RasterKit
import Foundation

/// Lays out the files of items in one format: names, folders, encoders, fingerprints and shards.
struct BatchPlanBuilder {
    let format: ExportFormat
    /// `<name>.xcassets`.
    let catalog: String
    let shard: Shard
    var plan = BatchPlan()
    /// Who claimed each path, to report two items writing one file.
    private var claims = OutputPathClaims()

    init(format: ExportFormat, catalog: String, shard: Shard) {
        self.format = format
        self.catalog = catalog
        self.shard = shard
    }

    mutating func add(_ item: BatchItem) throws(BatchPlanError) {
        let scales = item.scales.uniqued()
        for scale in scales where !format.supports(scale: scale) {
            throw .unsupportedScale(format: format, scale: scale, item: item.source)
        }
        let previewScale = BatchPreview.scale(among: scales)
        for size in item.sizes.uniqued() {
            let variant = item.variant(size)
            let base = item.baseName(for: size)
            switch format {
            case .png:
                for scale in scales {
                    let path = BatchItem.pngName(base, scale: scale)
                    try claim(path, by: item)
                    guard shard.includes(path) else { continue }
                    try addImage(path, item, variant, size, scale, ninePatch: false, preview: scale == previewScale)
                }
            case .xcassets:
                try addImageSet(base, item, variant, size, scales, previewScale: previewScale)
            case .ninepatch:
                let isResizable = variant.component.capInsets != nil
                for scale in scales {
                    let folder = "drawable-" + (NinePatchExport.density(for: scale) ?? "nodpi")
                    let path = folder + "/" + NinePatchExport.resourceName(base) + (isResizable ? ".9.png" : ".png")
                    try claim(path, by: item)
                    guard shard.includes(path) else { continue }
                    try addImage(path, item, variant, size, scale, ninePatch: isResizable, preview: scale == previewScale)
                }
            }
        }
    }

    /// One image set: its PNGs and its `Contents.json` belong to one shard together.
    private mutating func addImageSet(_ base: String, _ item: BatchItem, _ variant: BatchItem.Variant, _ size: Size,
                                      _ scales: [Double], previewScale: Double) throws(BatchPlanError) {
        let folder = "\(catalog)/\(base).imageset"
        try claim(folder, by: item)
        guard shard.includes(folder) else { return }
        var images: [XCAssetsExport.Image] = []
        for scale in scales.sorted() {
            let name = BatchItem.pngName(base, scale: scale)
            var slices: XCAssetsExport.Slices?
            if let caps = variant.component.capInsets {
                let pixels = try Self.pixelSize(of: variant.component, size: size, scale: scale, item: item)
                slices = XCAssetsExport.slices(caps: caps, scale: scale, pixelWidth: pixels.width, pixelHeight: pixels.height)
            }
            images.append(XCAssetsExport.Image(filename: name, scale: scale, slices: slices))
            try addImage(folder + "/" + name, item, variant, size, scale, ninePatch: false, preview: scale == previewScale)
        }
        plan.files.append(BatchFile(path: folder + "/Contents.json", contents: XCAssetsExport.imageSetContents(images),
                                    source: item.source))
    }

    private mutating func addImage(_ path: String, _ item: BatchItem, _ variant: BatchItem.Variant, _ size: Size,
                                   _ scale: Double, ninePatch: Bool, preview: Bool) throws(BatchPlanError) {
        _ = try Self.pixelSize(of: variant.component, size: size, scale: scale, item: item)
        let component = variant.component
        let encoder: any BatchEncoder = ninePatch
            ? NinePatchBatchEncoder(contentInsets: variant.contentInsets) : PNGBatchEncoder()
        plan.outputs.append(BatchOutput(path: path, source: item.source, size: size, scale: scale, encoder: encoder) {
            component
        })
        if preview {
            let label = String(path.split(separator: "/").last ?? Substring(path))
            plan.previews.append(BatchPreview(source: item.source, label: label, path: path, size: size, scale: scale,
                                              capInsets: component.capInsets, hasNinePatchBorder: ninePatch))
        }
    }

    private mutating func claim(_ path: String, by item: BatchItem) throws(BatchPlanError) {
        let checked: OutputPath
        do { checked = try OutputPath(path) } catch { throw .invalidOutputPath(item: item.source, reason: error.description) }
        do {
            try claims.claim(checked, by: item.source)
        } catch {
            switch error {
            case let .taken(_, owner):
                throw .conflictingOutputs(path: path, first: owner, second: item.source)
            case let .caseClash(_, other, owner):
                throw .outputsDifferOnlyInCase(path: path, other: other.rawValue, first: owner, second: item.source)
            }
        }
    }

    /// The pixels a render of `component` takes (its minimum frame when it has caps), checked.
    static func pixelSize(of component: any Rasterizable, size: Size, scale: Double,
                          item: BatchItem) throws(BatchPlanError) -> (width: Int, height: Int) {
        do {
            let geometry = try RenderGeometry(for: component, size: size, scale: scale)
            return try PixelGeometry.pixelSize(for: geometry.drawSize, scale: scale, limits: .default)
        } catch {
            throw .invalidSize(item: item.source, reason: "\(error)")
        }
    }
}
