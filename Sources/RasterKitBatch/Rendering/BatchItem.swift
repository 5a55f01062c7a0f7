import RasterKit
/// One component in one state, to be rendered at several sizes and scales: what a manifest
/// component's state becomes, and what Swift code gives ``BatchRenderer`` directly.
///
/// ```swift
/// let items = Button.State.allCases.map { state in
///     BatchItem(name: "button", state: state.rawValue, component: Button(title: "Continue", state: state),
///               sizes: [Size(width: 160, height: 44)], scales: [1, 2, 3])
/// }
/// let summary = try BatchRenderer(rasterizer: Rasterizer()).run(items, format: .png, into: outputDirectory)
/// // button-normal.png, button-normal@2x.png, button-normal@3x.png, button-pressed.png, …
/// ```
public struct BatchItem: Sendable {
    /// What one size of an item renders: the component, and for nine-patch files the area its
    /// content goes in.
    public struct Variant: Sendable {
        /// What is drawn at this size.
        public var component: any Rasterizable
        /// nil: inside the caps.
        public var contentInsets: EdgeInsets?
        /// The image's visual edges inside it, in points: layout-bound ticks in a nine-patch,
        /// `alignment-insets` in an asset catalog; nil for none.
        public var opticalInsets: EdgeInsets?

        /// `component`, with its nine-patch content area when it differs from its caps, and its
        /// optical insets when it has them.
        public init(component: any Rasterizable, contentInsets: EdgeInsets? = nil, opticalInsets: EdgeInsets? = nil) {
            self.component = component
            self.contentInsets = contentInsets
            self.opticalInsets = opticalInsets
        }
    }

    /// The component's name, the first part of every file name.
    public var name: String
    /// The state's name, the second part.
    public var state: String
    /// Sizes in points; with more than one, file names carry `-<W>x<H>`.
    public var sizes: [Size]
    /// Pixels per point.
    public var scales: [Double]
    /// Named when an output fails.
    public var source: String
    /// The component (and content insets) for each size.
    public var variant: @Sendable (Size) -> Variant
    /// A template image, which an app tints: its PNG files keep only the alpha (black with
    /// alpha, ``TemplatePNGBatchEncoder``) and an asset catalog marks it
    /// `template-rendering-intent: template`. Android drawables are written as they are.
    public var isTemplate = false
    /// In an asset catalog, one PDF per appearance (drawn at the size in points, any scale)
    /// marked `"preserves-vector-representation": true`, instead of a PNG per scale: Xcode then
    /// keeps the vectors and renders whatever size the app asks for.
    public var preservesVectors = false
    /// The appearances it is exported in, `light` first (see ``Appearance`` for where each
    /// format puts them).
    public private(set) var appearances: [Appearance] = [.light]
    /// The component (and content insets) for each size in each appearance; nil when the item
    /// has only the light one, ``variant``.
    private var appearanceVariant: (@Sendable (Size, Appearance) -> Variant)?

    /// `component` at every size and scale. Its caps (`Rasterizable/capInsets`) make it
    /// resizable: slices in asset catalogs, markers in nine-patch files.
    public init(name: String, state: String = "default", component: some Rasterizable, sizes: [Size],
                scales: [Double] = [1], contentInsets: EdgeInsets? = nil, source: String? = nil) {
        self.init(name: name, state: state, sizes: sizes, scales: scales, source: source) { _ in
            Variant(component: component, contentInsets: contentInsets)
        }
    }

    /// An item whose component depends on the size (say, caps that differ per size).
    public init(name: String, state: String = "default", sizes: [Size], scales: [Double] = [1], source: String? = nil,
                variant: @escaping @Sendable (Size) -> Variant) {
        self.name = name
        self.state = state
        self.sizes = sizes
        self.scales = scales
        self.source = source ?? "\(name)/\(state)"
        self.variant = variant
    }

    /// An item exported in several appearances (`[.light, .dark]`, say), whose component depends
    /// on the size and the appearance. `light` is always exported, first.
    public init(name: String, state: String = "default", sizes: [Size], scales: [Double] = [1],
                appearances: [Appearance], source: String? = nil,
                variant: @escaping @Sendable (Size, Appearance) -> Variant) {
        self.init(name: name, state: state, sizes: sizes, scales: scales, source: source) { variant($0, .light) }
        self.appearances = [.light] + appearances.filter { $0 != .light }.uniqued()
        appearanceVariant = self.appearances.count > 1 ? variant : nil
    }

    /// What this item draws at `size` in `appearance`.
    public func variant(_ size: Size, in appearance: Appearance) -> Variant {
        guard appearance != .light, let appearanceVariant else { return variant(size) }
        return appearanceVariant(size, appearance)
    }

    /// The item as failures and conflicts name it in `appearance`: `chip/selected (dark)`.
    func source(in appearance: Appearance) -> String {
        appearance == .light ? source : "\(source) (\(appearance))"
    }

    /// `<name>-<state>`, then the appearance (`-dark`, none for light), then `-<W>x<H>` when the
    /// item has several sizes: the name of every file (and, in light, image set) made for `size`.
    public func baseName(for size: Size, in appearance: Appearance = .light) -> String {
        let base = "\(name)-\(state)" + appearance.fileSuffix
        guard Set(sizes).count > 1 else { return base }
        return base + "-\(size.width.compactDescription)x\(size.height.compactDescription)"
    }

    /// `<base>.png` at 1x, `<base>@<S>x.png` otherwise.
    public static func pngName(_ base: String, scale: Double) -> String {
        fileName(base, scale: scale, extension: "png")
    }

    /// `<base>.<extension>` at 1x, `<base>@<S>x.<extension>` otherwise.
    public static func fileName(_ base: String, scale: Double, extension fileExtension: String) -> String {
        (scale == 1 ? base : base + "@\(scale.compactDescription)x") + "." + fileExtension
    }
}
