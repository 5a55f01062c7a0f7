import RasterKit
/// How a batch writes its images.
///
/// - `png`: `<component>-<state>[-<W>x<H>][@<S>x].png` in the output directory.
/// - `xcassets`: an Xcode asset catalog, one image set per component, state and size, with
///   `resizing` slices for components that have caps.
/// - `ninepatch`: Android drawables in density folders (`drawable-xhdpi/…`): `.9.png` files with
///   stretch and content markers for components that have caps, plain `.png` files otherwise.
public enum ExportFormat: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case png, xcassets, ninepatch

    /// Whether the format can hold images at `scale`: any for PNG; 1x, 2x and 3x in an asset
    /// catalog; the Android densities (0.75, 1, 1.5, 2, 3, 4) for nine-patch drawables.
    public func supports(scale: Double) -> Bool {
        switch self {
        case .png: scale.isFinite && scale > 0
        case .xcassets: [1, 2, 3].contains(scale)
        case .ninepatch: NinePatchExport.density(for: scale) != nil
        }
    }

    /// The scales ``supports(scale:)`` accepts, for messages.
    public var supportedScales: String {
        switch self {
        case .png: "any scale greater than 0"
        case .xcassets: "1, 2 and 3"
        case .ninepatch: "0.75, 1, 1.5, 2, 3 and 4 (ldpi to xxxhdpi)"
        }
    }

    public var description: String { rawValue }
}
