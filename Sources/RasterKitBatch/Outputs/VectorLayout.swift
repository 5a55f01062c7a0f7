import RasterKit

/// `<component>-<state>[-<appearance>][-<W>x<H>].pdf` (or `.svg`) in the output folder: one
/// vector document per size and appearance, at the size in points. A vector has no scale, so an
/// item's scales (any are accepted) make no more files; nine-slice components are drawn at their
/// full size. Vector files are not on the contact sheet, which shows pixels.
struct VectorLayout: OutputLayout {
    let format: VectorFormat

    func supports(scale: Double) -> Bool { scale.isFinite && scale > 0 }
    var supportedScales: String { "any scale greater than 0 (a vector document has none)" }

    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        for appearance in item.appearances {
            let variant = item.variant(size, in: appearance)
            let path = item.baseName(for: size, in: appearance) + "." + format.rawValue
            try builder.claim(path, by: item, in: appearance)
            guard builder.shard.includes(path) else { continue }
            try builder.addDocument(path, item, variant, size, format: format, appearance: appearance)
        }
    }
}

extension BatchPlanBuilder {
    /// Adds the vector document at `path`: `variant` (of `item` in `appearance`) at `size` points.
    mutating func addDocument(_ path: String, _ item: BatchItem, _ variant: BatchItem.Variant, _ size: Size,
                              format: VectorFormat, appearance: Appearance) throws(BatchPlanError) {
        let source = item.source(in: appearance)
        // Checked as a render at the scale its pixels are embedded at would be.
        _ = try Self.pixelSize(of: variant.component, size: size, scale: Rasterizer.vectorRasterScale, source: source)
        let component = variant.component
        plan.outputs.append(BatchOutput(path: path, source: source, size: size, vector: format) { component })
    }
}
