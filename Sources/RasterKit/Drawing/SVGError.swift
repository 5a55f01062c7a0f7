/// Why an SVG could not be loaded or drawn. Messages from librsvg are kept word for word.
///
/// ```swift
/// do { _ = try SVGDocument(data: bytes) } catch { print(error) }   // "malformed SVG: …"
/// ```
public enum SVGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// librsvg could not parse the input (not XML, not SVG, or unsupported); `message` is librsvg's.
    case malformed(message: String, source: String?)
    /// The document has no usable size: zero, negative or unmeasurable width or height.
    case noIntrinsicSize(width: Double, height: Double, source: String?)
    /// librsvg failed while drawing the document; `message` is librsvg's.
    case renderFailed(message: String, source: String?)
    /// The document is over one of the ``ResourceLimits`` (its size, its size once its entities
    /// are expanded, or its text), so it was not handed to librsvg.
    case overLimit(what: String, limit: Int, unit: String, source: String?)
    /// Path data (``Path/init(svgPathData:)``) that does not follow SVG's path grammar: `offset`
    /// is where reading stopped, in characters from the start of `input`, and `message` what
    /// was expected there.
    case invalidPathData(offset: Int, message: String, input: String)

    /// What is wrong with the SVG, naming its source when known.
    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read SVG '\(path)': \(reason)"
        case let .malformed(message, source):
            "malformed SVG\(Self.naming(source)): \(message)"
        case let .noIntrinsicSize(width, height, source):
            "SVG\(Self.naming(source)) has no usable size (\(width.compactDescription)×\(height.compactDescription)): "
                + "give the root <svg> a positive width and height or a viewBox"
        case let .renderFailed(message, source):
            "librsvg could not draw the SVG\(Self.naming(source)): \(message)"
        case let .overLimit(what, limit, unit, source):
            "SVG\(Self.naming(source)) refused: \(what) is over the limit of \(limit) \(unit)"
        case let .invalidPathData(offset, message, input):
            "invalid SVG path data at offset \(offset): \(message) (in \"\(input.count > 60 ? String(input.prefix(60)) + "…" : input)\")"
        }
    }

    private static func naming(_ source: String?) -> String { source.map { " '\($0)'" } ?? "" }

    /// The same error naming `source`, when it does not name one yet.
    func naming(source: String) -> SVGError {
        switch self {
        case .malformed(let message, nil): .malformed(message: message, source: source)
        case let .noIntrinsicSize(width, height, nil): .noIntrinsicSize(width: width, height: height, source: source)
        case .renderFailed(let message, nil): .renderFailed(message: message, source: source)
        case let .overLimit(what, limit, unit, nil): .overLimit(what: what, limit: limit, unit: unit, source: source)
        default: self
        }
    }
}
