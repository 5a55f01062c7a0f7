import RasterKit

/// A system appearance an asset is exported for. Every item has the `light` (default)
/// appearance; a manifest component gains `dark` and `highContrast` ones from `dark:` and
/// `highContrast:` maps of variable overrides (in the manifest, the component or a state), or
/// from its `appearances:` list.
///
/// Where each format puts them:
/// - `png`, `webp`: the appearance after the state in the name, `chip-selected-dark@2x.png`;
/// - `xcassets`: in the same image set, with an `appearances` entry (`luminosity: dark`,
///   `contrast: high`), as Xcode writes it;
/// - `ninepatch`: dark drawables in `drawable-night-<density>/`. Android has no resource
///   qualifier for high contrast, so high-contrast variants are not written there.
public enum Appearance: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The default appearance: no overrides, no suffix.
    case light
    /// Dark mode: `dark:` overrides.
    case dark
    /// Increased contrast: `highContrast:` overrides.
    case highContrast

    /// The appearances a manifest may name: every one but the default.
    public static let variants: [Appearance] = [.dark, .highContrast]

    /// The key of its overrides in a manifest (`dark`, `highContrast`); nil for `light`.
    var overridesKey: String? { self == .light ? nil : rawValue }

    /// What file names carry after the state: "" for `light`, else `-<name>`.
    var fileSuffix: String { self == .light ? "" : "-" + rawValue }

    /// The image entry's `appearances` in an asset catalog's `Contents.json`; nil for `light`.
    var catalogEntry: (appearance: String, value: String)? {
        switch self {
        case .light: nil
        case .dark: ("luminosity", "dark")
        case .highContrast: ("contrast", "high")
        }
    }

    /// The Android resource qualifier it maps to ("" for `light`); nil where Android has none.
    var androidQualifier: String? {
        switch self {
        case .light: ""
        case .dark: "night-"
        case .highContrast: nil
        }
    }

    public var description: String { rawValue }

    /// The appearance a misspelt key most likely meant (`Dark`, `high-contrast`, `highcontrast`),
    /// or nil when `key` is not close to any: such keys in a state are reported, not taken as
    /// variables, so a typo cannot silently drop an appearance.
    static func misspelt(_ key: String) -> Appearance? {
        let folded = String(key.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != " " })
        return variants.first { $0.rawValue.lowercased() == folded && $0.rawValue != key }
    }
}
