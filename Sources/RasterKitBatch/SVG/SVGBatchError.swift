import RasterKit
/// Why an SVG batch could not be planned; nothing has been rendered yet.
public enum SVGBatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An input does not exist.
    case inputNotFound(path: String)
    /// A folder input holds no `.svg` or `.svgz` file.
    case noSVGFiles(folder: String)
    /// A folder input could not be listed.
    case unreadableFolder(folder: String)
    /// Two inputs would write the same output file.
    case conflictingOutputs(output: String, first: String, second: String)
    /// Two inputs would write files whose paths differ only in case: one file on macOS and Windows.
    case outputsDifferOnlyInCase(output: String, other: String, first: String, second: String)
    /// An input's name makes an output path that would leave the output folder.
    case invalidOutputPath(reason: String)

    /// The problem, naming the file or folder.
    public var description: String {
        switch self {
        case .inputNotFound(let path): "no such file or folder: '\(path)'"
        case .noSVGFiles(let folder): "no .svg files in '\(folder)'"
        case .unreadableFolder(let folder): "cannot list the folder '\(folder)'"
        case let .conflictingOutputs(output, first, second):
            "'\(first)' and '\(second)' would both be written to '\(output)'; render them into separate --out folders"
        case let .outputsDifferOnlyInCase(output, other, first, second):
            "'\(first)' writes '\(other)' and '\(second)' writes '\(output)', which differ only in case "
                + "(one file on macOS and Windows); rename one or render them into separate --out folders"
        case .invalidOutputPath(let reason): reason
        }
    }
}
