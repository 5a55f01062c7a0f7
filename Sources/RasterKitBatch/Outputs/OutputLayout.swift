import RasterKit

/// How one output format lays out an item's files: their names and folders, their encoders, and
/// the small files that describe them. Each format is one small conforming type
/// (``PNGLayout``, ``AssetCatalogLayout``, ``NinePatchLayout``); ``ExportFormat`` names them in
/// manifests and on the command line, and ``BatchPlanBuilder`` does what all of them share
/// (claiming paths, shards, previews).
protocol OutputLayout: Sendable {
    /// Whether the format can hold images at `scale`.
    func supports(scale: Double) -> Bool
    /// The scales ``supports(scale:)`` accepts, for messages.
    var supportedScales: String { get }
    /// Files written once for a whole plan, whatever its items (an asset catalog's root
    /// `Contents.json`), before the items' files.
    func planFiles(catalog: String, catalogName: String) -> [BatchFile]
    /// Adds the files of `item` at `size` (one item, one size, every scale) to `builder`.
    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError)
}

extension OutputLayout {
    /// Most formats write nothing beside their images.
    func planFiles(catalog: String, catalogName: String) -> [BatchFile] { [] }
}

extension ExportFormat {
    /// The type that lays this format's files out.
    var layout: any OutputLayout {
        switch self {
        case .png: PNGLayout()
        case .xcassets: AssetCatalogLayout()
        case .ninepatch: NinePatchLayout()
        case .webp: WebPLayout()
        case .pdf: VectorLayout(format: .pdf)
        case .svg: VectorLayout(format: .svg)
        }
    }
}

/// `<component>-<state>[-<appearance>][-<W>x<H>][@<S>x].png` in the output folder, at any scale.
struct PNGLayout: OutputLayout {
    func supports(scale: Double) -> Bool { scale.isFinite && scale > 0 }
    var supportedScales: String { "any scale greater than 0" }

    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        try builder.addFlatFiles(item, size: size, scales: scales, previewScale: previewScale,
                                 extension: "png", encoder: item.pngEncoder)
    }
}

/// An Xcode asset catalog: one image set per component, state and size, with every scale and
/// appearance and, for components with caps, Xcode's `resizing` slices. An image set's PNGs and
/// `Contents.json` go to one shard together.
struct AssetCatalogLayout: OutputLayout {
    func supports(scale: Double) -> Bool { [1, 2, 3].contains(scale) }
    var supportedScales: String { "1, 2 and 3" }

    func planFiles(catalog: String, catalogName: String) -> [BatchFile] {
        [BatchFile(path: catalog + "/Contents.json", contents: XCAssetsExport.catalogContents(), source: catalogName)]
    }

    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        let folder = "\(builder.catalog)/\(item.baseName(for: size)).imageset"
        try builder.claim(folder, by: item)
        guard builder.shard.includes(folder) else { return }
        if item.preservesVectors { return try addVectorImageSet(item, size: size, folder: folder, to: &builder) }
        var images: [XCAssetsExport.Image] = []
        // Xcode lists each scale's appearances together: 1x, 1x dark, 2x, 2x dark, …
        for scale in scales.sorted() {
            for appearance in item.appearances {
                let variant = item.variant(size, in: appearance)
                let name = BatchItem.pngName(item.baseName(for: size, in: appearance), scale: scale)
                var slices: XCAssetsExport.Slices?
                if let caps = variant.component.capInsets {
                    let pixels = try BatchPlanBuilder.pixelSize(of: variant.component, size: size, scale: scale,
                                                                source: item.source(in: appearance))
                    slices = XCAssetsExport.slices(caps: caps, scale: scale, pixelWidth: pixels.width,
                                                   pixelHeight: pixels.height)
                }
                var image = XCAssetsExport.Image(filename: name, scale: scale, slices: slices, appearance: appearance)
                image.alignment = variant.opticalInsets.map { XCAssetsExport.alignment($0, scale: scale) }
                images.append(image)
                try builder.addImage(folder + "/" + name, item, variant, size, scale, encoder: item.pngEncoder,
                                     preview: scale == previewScale, appearance: appearance)
            }
        }
        let contents = XCAssetsExport.imageSetContents(images, isTemplate: item.isTemplate)
        builder.plan.files.append(BatchFile(path: folder + "/Contents.json", contents: contents, source: item.source))
    }
}

extension AssetCatalogLayout {
    /// An image set of single-scale PDFs, one per appearance, that Xcode keeps as vectors.
    private func addVectorImageSet(_ item: BatchItem, size: Size, folder: String,
                                   to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        var images: [XCAssetsExport.Image] = []
        for appearance in item.appearances {
            let name = item.baseName(for: size, in: appearance) + ".pdf"
            images.append(XCAssetsExport.Image(filename: name, scale: nil, slices: nil, appearance: appearance))
            try builder.addDocument(folder + "/" + name, item, item.variant(size, in: appearance), size, format: .pdf,
                                    appearance: appearance)
        }
        let contents = XCAssetsExport.imageSetContents(images, isTemplate: item.isTemplate, preservesVectors: true)
        builder.plan.files.append(BatchFile(path: folder + "/Contents.json", contents: contents, source: item.source))
    }
}

/// Android drawables in density folders (`drawable-xhdpi/…`, dark ones in
/// `drawable-night-xhdpi/…`), named as Android resources: a `.9.png` with stretch and content
/// markers for a component with caps, a plain `.png` otherwise. Android has no qualifier for
/// high contrast, so that appearance is not written.
struct NinePatchLayout: OutputLayout {
    func supports(scale: Double) -> Bool { NinePatchExport.density(for: scale) != nil }
    var supportedScales: String { "0.75, 1, 1.5, 2, 3 and 4 (ldpi to xxxhdpi)" }

    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        let base = NinePatchExport.resourceName(item.baseName(for: size))
        for appearance in item.appearances {
            guard let qualifier = appearance.androidQualifier else { continue }
            let variant = item.variant(size, in: appearance)
            let isResizable = variant.component.capInsets != nil
            let encoder: any BatchEncoder = isResizable
                ? NinePatchBatchEncoder(contentInsets: variant.contentInsets, opticalInsets: variant.opticalInsets)
                : PNGBatchEncoder()
            for scale in scales {
                let folder = "drawable-" + qualifier + (NinePatchExport.density(for: scale) ?? "nodpi")
                let path = folder + "/" + base + (isResizable ? ".9.png" : ".png")
                try builder.claim(path, by: item, in: appearance)
                guard builder.shard.includes(path) else { continue }
                try builder.addImage(path, item, variant, size, scale, encoder: encoder, preview: scale == previewScale,
                                     appearance: appearance, hasNinePatchBorder: isResizable)
            }
        }
    }
}

extension BatchItem {
    /// The encoder of this item's PNG files: a template's keeps only the alpha.
    var pngEncoder: any BatchEncoder { isTemplate ? TemplatePNGBatchEncoder() : PNGBatchEncoder() }
}

/// `<component>-<state>[-<appearance>][-<W>x<H>][@<S>x].webp` in the output folder, at any
/// scale: lossless, or lossy at the plan's WebP quality.
struct WebPLayout: OutputLayout {
    func supports(scale: Double) -> Bool { PNGLayout().supports(scale: scale) }
    var supportedScales: String { PNGLayout().supportedScales }

    func add(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
             to builder: inout BatchPlanBuilder) throws(BatchPlanError) {
        try builder.addFlatFiles(item, size: size, scales: scales, previewScale: previewScale,
                                 extension: "webp", encoder: WebPBatchEncoder(quality: builder.webpQuality))
    }
}

extension BatchPlanBuilder {
    /// The files of formats that put every image straight in the output folder, one per
    /// appearance and scale, named `<base>[@<S>x].<extension>`.
    mutating func addFlatFiles(_ item: BatchItem, size: Size, scales: [Double], previewScale: Double,
                               extension fileExtension: String, encoder: any BatchEncoder) throws(BatchPlanError) {
        for appearance in item.appearances {
            let variant = item.variant(size, in: appearance), base = item.baseName(for: size, in: appearance)
            for scale in scales {
                let path = BatchItem.fileName(base, scale: scale, extension: fileExtension)
                try claim(path, by: item, in: appearance)
                guard shard.includes(path) else { continue }
                try addImage(path, item, variant, size, scale, encoder: encoder, preview: scale == previewScale,
                             appearance: appearance)
            }
        }
    }
}
