/// A component's render run through a chain of ``RasterProcessor``s: itself a ``Rasterizable``,
/// so it is cached, coalesced, stored on disk and nested like any component. Made by
/// ``Rasterizable/processed(_:)``.
///
/// Its key is the base component's key (type, render version and state) followed by each
/// processor's identifier and stored properties, so equal chains share one render and any
/// difference in a processor's parameters makes another. The base is requested through the
/// cache under its own key: ten processed variants of one state draw the base once.
///
/// The base is drawn at the requested size; each stage may change the image's size
/// (``RasterProcessors/Resize``, ``RasterProcessors/Crop``, ``RasterProcessors/Padding``), and the
/// render has the size the last stage gives it.
///
/// `Processed` is a value: the state of a value-type base is keyed as it was when the
/// `Processed` was made (the copy it holds cannot change; make a new one for a new state). A
/// class base is read on every key, so its changes are seen, as for any class component.
///
/// For a nine-slice base, stages that keep a render stretchable
/// (``RasterProcessor/keepsNineSliceStretchable``: ``RasterProcessors/Tint`` and
/// ``RasterProcessors/Opacity``) run on the minimum-frame render, which stays stretchable and
/// keyed without a size. One stage that does not (every other built-in) makes the chain run on
/// the render stretched to the requested size, with that size in the key.
public struct Processed<Base: Rasterizable>: Rasterizable, StateHashable, CustomStringConvertible {
    /// The component whose render is processed.
    public let base: Base
    /// The stages, applied in order.
    public let processors: [any RasterProcessor]
    /// The digest of the chain's identifiers and parameters: processors are immutable values,
    /// so it is computed once rather than on every key.
    private let chainDigest: StableDigest
    /// A processor whose state cannot be keyed refuses every key of the chain.
    private let chainFault: KeyFault?
    private let baseDigest: StateDigest
    private let keepsStretchable: Bool

    /// `base` processed by `processors`, in order.
    public init(_ base: Base, processors: [any RasterProcessor]) {
        self.base = base
        self.processors = processors
        baseDigest = StateDigest(of: base)
        var hasher = StateHasher()
        hasher.write(processors.count)
        for processor in processors {
            hasher.write(processor.identifier)
            KeyPlans.write(dynamic: processor, into: &hasher, depth: 0)
        }
        chainDigest = hasher.digest
        chainFault = hasher.fault
        keepsStretchable = processors.allSatisfy(\.keepsNineSliceStretchable)
    }

    /// The base's caps when every stage keeps a render stretchable; otherwise none, since the
    /// stages then run on the stretched render.
    public var capInsets: EdgeInsets? { keepsStretchable ? base.capInsets : nil }

    /// As the base.
    public var usesMinimumFrameForCaps: Bool { base.usesMinimumFrameForCaps }

    /// As the base: a base kept out of the disk store keeps its processed renders out too.
    public var diskCacheLifetime: Double? { base.diskCacheLifetime }

    /// Writes the base's key (type, render version, state and caps) and the chain's digest.
    /// A value-type base is digested when the `Processed` is made (see ``Processed`` above).
    public func hashState(into hasher: inout StateHasher) {
        baseDigest.write(for: base, into: &hasher)
        if let chainFault { hasher.fail(chainFault) }
        hasher.write(chainDigest.high)
        hasher.write(chainDigest.low)
    }

    /// Draws the processed render into `canvas`, scaled to `size` when a stage changed its size.
    public func draw(in canvas: Canvas, size: Size) throws {
        let geometry = try RenderGeometry(for: self, size: size, scale: canvas.scale)
        let image = try composeImage(drawSize: geometry.drawSize, scale: canvas.scale, environment: canvas.environment)
        canvas.draw(image, in: Rect(size: size))
    }

    /// The base, then each stage's identifier: `Badge(count: 3) → rasterkit.roundedCorners.v1`.
    public var description: String {
        ([String(describing: base)] + processors.map(\.identifier)).joined(separator: " → ")
    }
}

extension Rasterizable {
    /// This component's render run through `processors`, in order; cached under its own key, with
    /// the base render shared by every variant.
    ///
    /// ```swift
    /// let avatar = Avatar(user: user).processed(RasterProcessors.Circle(),
    ///                                           RasterProcessors.DropShadow(Shadow(color: .black.withAlpha(0.3))))
    /// let image = try rasterizer.image(for: avatar, size: Size(48), scale: 2)
    /// ```
    public func processed(_ processors: any RasterProcessor...) -> Processed<Self> {
        Processed(self, processors: processors)
    }
}

extension Processed {
    /// The same base with `more` stages appended, rather than a processed render of a processed
    /// render: only the final image is cached.
    public func processed(_ more: any RasterProcessor...) -> Processed<Base> {
        Processed(base, processors: processors + more)
    }
}
