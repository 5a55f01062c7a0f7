import RasterKit
import Foundation

/// Everything a batch of items writes in one format, for one shard: the images to render, the
/// small files that describe them (an asset catalog's `Contents.json`), and which image shows
/// each item on a contact sheet.
///
/// ```swift
/// var plan = try BatchPlan(items: items, format: .xcassets, catalogName: "Assets", shard: try Shard(parsing: "0/2"))
/// plan.append(try BatchPlan(items: items, format: .png))
/// let summary = BatchRenderer(rasterizer: Rasterizer()).run(plan, into: outputDirectory)
/// ```
public struct BatchPlan: Sendable {
    /// The images to render, each into its own file.
    public var outputs: [BatchOutput] = []
    /// Files written as they are, before the images.
    public var files: [BatchFile] = []
    /// One image per item and size that shows it best (2x when there is one, else the largest scale).
    public var previews: [BatchPreview] = []
    /// Every file and folder the plan was made from, with its ``FileStamp`` taken before it
    /// was read; nil when that is not known (a plan not made from a manifest file, or an input
    /// changed too recently to be stamped).
    var inputStamps: [String: String]?
    /// Every file and folder the plan was made from, as absolute paths in the order they were
    /// read: the manifest, each file it names, each folder an `svgs:` entry searched and each
    /// SVG file found. A change to any of them may change the outputs, so these are what a build
    /// system declares as the run's inputs. Empty for a plan not made from a manifest file.
    public internal(set) var inputPaths: [String] = []

    /// An empty plan.
    public init() {}

    /// Every item at every size and scale in `format`, keeping only the work that belongs to
    /// `shard`: single files in PNG and nine-patch, whole image sets (their PNGs and their
    /// `Contents.json` together) in asset catalogs, so the shards' files never overlap.
    ///
    /// `webpQuality` makes `webp` files lossy at that quality (1–100); nil keeps them lossless.
    public init(items: [BatchItem], format: ExportFormat, catalogName: String = "Assets",
                shard: Shard = .whole, webpQuality: Int? = nil) throws(BatchPlanError) {
        var builder = BatchPlanBuilder(format: format, catalog: "\(catalogName).xcassets", shard: shard)
        builder.webpQuality = webpQuality
        for file in format.layout.planFiles(catalog: builder.catalog, catalogName: catalogName) where shard.includes(file.path) {
            builder.plan.files.append(file)
        }
        for item in items { try builder.add(item) }
        self = builder.plan
    }

    /// Adds another plan's work; a file both plans write (a catalog's root) is written once,
    /// and an item both plans show (in two formats) is previewed once.
    public mutating func append(_ other: BatchPlan) {
        outputs += other.outputs
        let paths = Set(files.map(\.path))
        files += other.files.filter { !paths.contains($0.path) }
        let shown = Set(previews.map { [$0.source, $0.size.description] })
        previews += other.previews.filter { !shown.contains([$0.source, $0.size.description]) }
        inputPaths = (inputPaths + other.inputPaths).uniqued()
    }
}

/// A small file a batch writes as it is (not rendered): an asset catalog's `Contents.json`.
public struct BatchFile: Hashable, Sendable {
    /// Relative to the output directory.
    public var path: String
    /// The bytes written.
    public var contents: Data
    /// Named when writing it fails.
    public var source: String

    /// `contents` written to `path`.
    public init(path: String, contents: Data, source: String) {
        self.path = path
        self.contents = contents
        self.source = source
    }
}

/// Which output shows an item at one size, for a contact sheet.
public struct BatchPreview: Hashable, Sendable {
    /// The item (or SVG file) shown.
    public var source: String
    /// The file's name.
    public var label: String
    /// The file, relative to the output directory.
    public var path: String
    /// The size the item is shown at, in points (a resizable render is stretched to it).
    public var size: Size
    /// Pixels per point of the file.
    public var scale: Double
    /// The caps of a resizable render, which the file shows at its minimum frame.
    public var capInsets: EdgeInsets?
    /// Whether the file is a `.9.png`, whose one-pixel marker border is not part of the image.
    public var hasNinePatchBorder: Bool
    /// The appearance the file is for; a contact sheet shows dark ones on a dark tile.
    public var appearance: Appearance = .light

    /// The scale a preview is shown at: 2x when there is one, sharp on the sheet at its size in
    /// points, else the largest.
    static func scale(among scales: [Double]) -> Double { scales.contains(2) ? 2 : scales.max() ?? 1 }
}

/// Why a batch — a manifest's items, a folder of SVGs, one shard of either — cannot be planned;
/// nothing has been rendered. Each case names the item, file or text at fault, and the
/// description says what would be accepted; a caller reports it and stops.
public enum BatchPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The format cannot hold an image at this scale.
    case unsupportedScale(format: ExportFormat, scale: Double, item: String)
    /// Two items (or input files) would write the same file.
    case conflictingOutputs(path: String, first: String, second: String)
    /// Two items would write files whose paths differ only in case: one file on macOS and Windows.
    case outputsDifferOnlyInCase(path: String, other: String, first: String, second: String)
    /// `path`, the output of `item` (the path itself when checked alone, by ``OutputPath``),
    /// would not stay inside the output folder: `reason` says why.
    case invalidOutputPath(item: String, path: String, reason: String)
    /// A size, scale or set of caps that cannot be rendered.
    case invalidSize(item: String, reason: String)
    /// An input file or folder does not exist.
    case inputNotFound(path: String)
    /// A folder input holds no `.svg` or `.svgz` file.
    case noSVGFiles(folder: String)
    /// A folder input could not be listed.
    case unreadableFolder(folder: String)
    /// A shard that does not exist (see ``Shard``), as given: `reason` says why.
    case invalidShard(String, reason: String)

    /// The problem, naming the item or output it concerns.
    public var description: String {
        switch self {
        case let .unsupportedScale(format, scale, item):
            "\(item): \(format) cannot hold \(scale.compactDescription)x images; it takes \(format.supportedScales)"
        case let .conflictingOutputs(path, first, second):
            "'\(first)' and '\(second)' would both be written to '\(path)'; rename one"
        case let .outputsDifferOnlyInCase(path, other, first, second):
            "'\(first)' writes '\(other)' and '\(second)' writes '\(path)', which differ only in case "
                + "(one file on macOS and Windows); rename one"
        case let .invalidOutputPath(item, path, reason):
            (item == path ? "" : "\(item): ") + "output path '\(path)' must be relative and stay inside the output folder: \(reason)"
        case let .invalidSize(item, reason):
            "\(item): \(reason)"
        case .inputNotFound(let path): "no such file or folder: '\(path)'"
        case .noSVGFiles(let folder): "no .svg files in '\(folder)'"
        case .unreadableFolder(let folder): "cannot list the folder '\(folder)'"
        case let .invalidShard(text, reason): "shard '\(text)': \(reason)"
        }
    }
}

extension BatchPlanError {
    /// This error with `item` named as the owner of the output path it refuses; any other error
    /// as it is.
    func naming(item: String) -> BatchPlanError {
        guard case let .invalidOutputPath(_, path, reason) = self else { return self }
        return .invalidOutputPath(item: item, path: path, reason: reason)
    }
}
