import RasterKit
import Foundation
internal import Yams

/// A manifest as written, before states are resolved: what the parser reads and the resolver
/// turns into ``Manifest`` components.
struct ManifestDocument {
    var name: String?
    /// The limits its values are read and drawn under.
    var limits: ResourceLimits = .default
    var variables: [String: Node] = [:]
    /// The manifest's `dark:` and `highContrast:` overrides of its variables.
    var overrides: [Appearance: [String: Node]] = [:]
    var components: [ComponentSpec] = []
    var svgs: [Manifest.SVGEntry] = []
    /// The digest of the fonts it adds (`fonts:`, `fallbackFonts:`, `--font-dir`); nil for none.
    var fontsDigest: StableDigest?
}

/// One component as written: its layers still hold variable references.
struct ComponentSpec {
    var name: String
    var location: ManifestLocation?
    var layers: Node?
    var variables: [String: Node] = [:]
    /// The component's `dark:` and `highContrast:` overrides of its variables.
    var overrides: [Appearance: [String: Node]] = [:]
    /// `appearances:` as given: exactly the appearances besides light to export; nil to export
    /// those the manifest gives overrides for.
    var appearances: [Appearance]?
    /// Never empty: a component without `states` has one state named `default`.
    var states: [StateSpec] = []
    var sizes: [SizeSpec] = []
    var scales: [Double] = [1]
    var scalesLocation: ManifestLocation?
    var outputs: [ExportFormat] = [.png]
    /// `template: true`: an image the app tints, whose colour does not matter.
    var isTemplate = false
    /// `preserveVectors: true`: its asset catalog image sets hold one PDF instead of PNGs.
    var preservesVectors = false
    /// The caps a `use` of this component draws with: its own `caps`, else its first size's.
    var capsForUse: EdgeInsets?
    /// `post:` as written: read for each state, with its variables.
    var post: Node?
    /// `fallback:`: the component drawn when this one's render fails.
    var fallback: FallbackReference?
    /// `golden:`: how `rasterkit goldens check` judges its goldens.
    var golden: Manifest.GoldenSettings?
    /// `parameters:`: the values its renders take from outside (their defaults are among `variables`).
    var parameters: [Manifest.Parameter] = []
    /// `names:`: how a data batch names each record's outputs (`{slug}`).
    var names: String?

    /// A component named by `fallback:`, and where.
    struct FallbackReference {
        var name: String
        var node: Node
    }
}

/// One named state: the variables it sets, and its `dark:` and `highContrast:` overrides of them.
struct StateSpec {
    var name: String
    var variables: [String: Node]
    var overrides: [Appearance: [String: Node]] = [:]
}

extension ManifestDocument {
    /// Whether any appearance overrides are written anywhere: when none are, and no component
    /// lists `appearances:`, states are resolved in the light appearance only.
    var declaresAppearances: Bool {
        !overrides.isEmpty || components.contains { spec in
            !spec.overrides.isEmpty || spec.appearances?.isEmpty == false || spec.states.contains { !$0.overrides.isEmpty }
        }
    }
}

/// One size a component is exported at.
struct SizeSpec: Hashable {
    /// The size; an axis measured from the layers holds its minimum until it is measured.
    var size: Size
    /// The bounds of a width or height measured from the layers (`width: auto`).
    var measuredWidth: Manifest.MeasuredLength?
    var measuredHeight: Manifest.MeasuredLength?
    var caps: EdgeInsets?
    var content: EdgeInsets?
    /// `opticalInsets`: the visual edges inside the image (a shadow, a glow), for layout.
    var optical: EdgeInsets?
    var location: ManifestLocation?
}

/// Names that become parts of file names: letters, digits, `-`, `_` and `.`, not starting with `.`.
enum ManifestNames {
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
    }

    static let rule = "may only contain letters, digits, '-', '_' and '.', and may not start with '.'"
}
