/// How content with a size of its own (an SVG's intrinsic size) is placed in a rectangle.
///
/// ```swift
/// ContentMode.aspectFit.frame(forContentOfSize: Size(width: 20, height: 10), in: Rect(size: Size(40)))
/// // (0, 10) 40×20
/// ```
public enum ContentMode: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Scaled uniformly to fit inside the rectangle, centred; the rest stays transparent.
    case aspectFit
    /// Scaled uniformly to cover the rectangle, centred; what overflows is clipped.
    case aspectFill
    /// Scaled on each axis to fill the rectangle exactly (`rsvg-convert -w N -h N`).
    case stretch
    /// Drawn at its own size (one SVG pixel per point), centred; what overflows is clipped.
    case center

    /// Where content of size `content` lands for `rect`: inside it, covering it, or centred on it.
    public func frame(forContentOfSize content: Size, in rect: Rect) -> Rect {
        guard content.isDrawable else { return rect }
        let scaleX = rect.width / content.width, scaleY = rect.height / content.height
        let width: Double, height: Double
        switch self {
        case .stretch: return rect
        case .aspectFit:
            let scale = min(scaleX, scaleY)
            (width, height) = (content.width * scale, content.height * scale)
        case .aspectFill:
            let scale = max(scaleX, scaleY)
            (width, height) = (content.width * scale, content.height * scale)
        case .center:
            (width, height) = (content.width, content.height)
        }
        return Rect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
    }

    /// The mode's name, as manifests spell it.
    public var description: String { rawValue }
}

extension ContentMode {
    /// A content mode by name, as manifests, `rasterkit` flags and Swift spell it (`aspectFit`);
    /// the hyphenated spelling of command-line habit (`aspect-fit`) and any letter case are read
    /// as the same name. Nil for anything else.
    public init?(parsing text: String) {
        let folded = text.lowercased().filter { $0 != "-" }
        guard let mode = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        self = mode
    }
}
