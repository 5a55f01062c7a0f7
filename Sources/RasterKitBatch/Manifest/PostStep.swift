import RasterKit
import Foundation
internal import Yams

/// One built-in post-processing stage as a manifest's `post:` and `rasterkit svg --post` write
/// it: a name and its parameters, in points. ``processor`` is the `RasterProcessor` it stands for.
///
/// ```yaml
/// post:
///   - roundedCorners: 8
///   - tint: "#2F6FEB"
///   - padding: [4, 8]
///   - dropShadow: {color: "#0000004D", offset: [0, 2], blur: 4}
///   - circle
/// ```
public enum PostStep: Hashable, Sendable, CustomStringConvertible {
    /// `resize: 24`, `resize: [32, 24]` or `resize: {size: [32, 24], mode: aspectFill}` (mode: aspectFit by default).
    case resize(Size, ContentMode)
    /// `crop: [x, y, width, height]`.
    case crop(Rect)
    /// `roundedCorners: 8`.
    case roundedCorners(Double)
    /// `circle`.
    case circle
    /// `tint: "#2F6FEB"`.
    case tint(Color)
    /// `opacity: 0.5`.
    case opacity(Double)
    /// `gaussianBlur: 4` or `gaussianBlur: {radius: 4, edges: extend}`.
    case gaussianBlur(Double, RasterProcessors.GaussianBlur.Edges)
    /// `padding: 4`, `[vertical, horizontal]`, `[top, left, bottom, right]` or a mapping of edges.
    case padding(EdgeInsets)
    /// `dropShadow: {color, offset: [x, y], blur}`.
    case dropShadow(Shadow)

    /// The names a manifest spells the stages with.
    public static let names = ["resize", "crop", "roundedCorners", "circle", "tint", "opacity", "gaussianBlur",
                               "padding", "dropShadow"]

    /// The built-in processor this step stands for.
    public var processor: any RasterProcessor {
        switch self {
        case let .resize(size, mode): RasterProcessors.Resize(size: size, contentMode: mode)
        case .crop(let rect): RasterProcessors.Crop(rect: rect)
        case .roundedCorners(let radius): RasterProcessors.RoundedCorners(radius: radius)
        case .circle: RasterProcessors.Circle()
        case .tint(let color): RasterProcessors.Tint(color: color)
        case .opacity(let value): RasterProcessors.Opacity(value)
        case let .gaussianBlur(radius, edges): RasterProcessors.GaussianBlur(radius: radius, edges: edges)
        case .padding(let insets): RasterProcessors.Padding(insets)
        case .dropShadow(let shadow): RasterProcessors.DropShadow(shadow)
        }
    }

    /// The step as the processor's identifier names it.
    public var description: String { processor.identifier }

    /// Reads one step written as `--post` takes it: `circle`, `roundedCorners: 4`,
    /// `tint: #2F6FEB` (a colour needs no quotes here), `padding: [4, 8]`. Values are checked
    /// against `limits`.
    ///
    /// - Throws: ``ManifestError`` naming `option` and the column of what is wrong.
    public static func parse(_ text: String, option: String = "--post",
                             limits: ResourceLimits = .default) throws(ManifestError) -> PostStep {
        let problems = ManifestProblems(file: option)
        let reader = ManifestReader(problems: problems, files: ManifestFiles(directory: URL(fileURLWithPath: ".")),
                                    limits: limits)
        guard text.utf8.count <= 4_096 else {
            problems.add("a step is at most 4096 bytes long", at: nil)
            throw ManifestError(problems: problems.problems)
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: quotingColor(in: text), .basic)
        } catch {
            problems.add("cannot read \"\(text)\": expected a name such as circle, or name: value such as roundedCorners: 4",
                         at: nil)
            throw ManifestError(problems: problems.problems)
        }
        guard let node, let step = reader.postStep(node, option), problems.isEmpty else {
            if problems.isEmpty { problems.add("\(option) has no value", at: nil) }
            throw ManifestError(problems: problems.problems)
        }
        return step
    }

    /// `tint: #2F6FEB` with the colour quoted: on a command line nobody means the `#` to start a
    /// YAML comment.
    private static func quotingColor(in text: String) -> String {
        guard let colon = text.firstIndex(of: ":") else { return text }
        let value = text[text.index(after: colon)...].drop { $0 == " " }
        guard value.hasPrefix("#"), !value.contains("\"") else { return text }
        return text[...colon] + " \"" + value + "\""
    }
}
