/// What a canvas needs from the render that owns it: where nested components go, how deep
/// the nesting is, and whether the render has been cancelled.
final class DrawEnvironment {
    /// Renders nested components; nil draws them directly, uncached.
    let nestedRenderer: (any NestedRendering)?
    /// How many components enclose this draw (0 for a top-level one).
    let depth: Int
    /// Components drawn inside this render, reported to the disk store with their versions.
    let children: ChildRecorder
    /// Checked between nested children; true stops the render with `CancellationError`.
    let isCancelled: @Sendable () -> Bool
    /// What the render may allocate and how long it may take.
    let limits: ResourceLimits
    /// When the render must stop, from `limits.timeLimit`; shared by its nested children.
    let deadline: ContinuousClock.Instant?
    /// The pixel memory the render's surfaces reserve, shared by every render of one rasterizer.
    let memory: MemoryBudget
    /// Whether the canvas is a vector document (PDF, SVG): nested components are then drawn
    /// into it as vectors, at their full size, rather than pasted as cached renders.
    let isVector: Bool
    /// The nested components a vector document has drawn inline, shared by every level of it:
    /// nothing is cached in a document, so a component that uses another twice, nested 30 deep,
    /// would otherwise draw a billion times.
    let vectorDraws: VectorDrawCount

    init(nestedRenderer: (any NestedRendering)? = nil, depth: Int = 0, children: ChildRecorder = ChildRecorder(),
         limits: ResourceLimits = .default, memory: MemoryBudget? = nil, deadline: ContinuousClock.Instant? = nil,
         isVector: Bool = false, vectorDraws: VectorDrawCount = VectorDrawCount(),
         isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.nestedRenderer = nestedRenderer
        self.isVector = isVector
        self.vectorDraws = vectorDraws
        self.depth = depth
        self.children = children
        self.limits = limits
        self.memory = memory ?? MemoryBudget(limit: limits.memoryBudget)
        self.deadline = deadline ?? limits.timeLimit.map { ContinuousClock.now + .seconds($0) }
        self.isCancelled = isCancelled
    }

    /// The environment of a component nested one level deeper.
    func nested() -> DrawEnvironment {
        DrawEnvironment(nestedRenderer: nestedRenderer, depth: depth + 1, children: children, limits: limits,
                        memory: memory, deadline: deadline, isVector: isVector, vectorDraws: vectorDraws, isCancelled: isCancelled)
    }

    /// Counts one nested component drawn inline into a vector document; throws past
    /// ``ResourceLimits/maximumSVGUseCopies``, the bound on copies a document may make.
    func countVectorDraw() throws {
        vectorDraws.count += 1
        guard vectorDraws.count <= limits.maximumSVGUseCopies else {
            throw RenderError.limitExceeded(what: "nested components drawn into one vector document",
                                            value: "more than \(limits.maximumSVGUseCopies)", limit: "\(limits.maximumSVGUseCopies)")
        }
    }

    /// Throws once the render has been cancelled or has run out of time.
    func checkContinuing() throws {
        if isCancelled() { throw CancellationError() }
        if let deadline, ContinuousClock.now > deadline, let seconds = limits.timeLimit {
            throw RenderError.timeLimitExceeded(seconds: seconds)
        }
    }
}

/// The types and render versions of the components nested inside one render.
final class ChildRecorder {
    private(set) var versions: [ComponentVersion] = []
    /// The first fallback served inside the render being made: such a render is not cached,
    /// so that its primary is retried (see ``Fallback``).
    private(set) var fallback: FallbackEvent?

    func noteFallback(_ event: FallbackEvent) {
        if fallback == nil { fallback = event }
    }

    /// Runs `body` with the fallbacks served inside it kept apart from the enclosing render's
    /// (which still learns of them), and returns the first of them.
    func trackingFallbacks<Result>(_ body: () throws -> Result) rethrows -> (Result, FallbackEvent?) {
        let enclosing = fallback
        fallback = nil
        defer { fallback = enclosing ?? fallback }
        let result = try body()
        return (result, fallback)
    }

    func record(_ version: ComponentVersion) {
        if !versions.contains(version) { versions.append(version) }
    }

    func record(contentsOf others: [ComponentVersion]) {
        for version in others { record(version) }
    }
}

/// A component type and the render version it had when a render was made.
public struct ComponentVersion: Hashable, Sendable, Codable {
    /// The component's fully qualified type name.
    public var typeName: String
    /// The type's ``Rasterizable/renderVersion`` when the render was made.
    public var renderVersion: Int

    /// A type name and the render version it had.
    public init(typeName: String, renderVersion: Int) {
        self.typeName = typeName
        self.renderVersion = renderVersion
    }
}

/// The part of a rasterizer a canvas uses to draw nested components.
protocol NestedRendering: AnyObject, Sendable {
    func renderNested<Component: Rasterizable>(_ component: Component, size: Size, scale: Double,
                                                environment: DrawEnvironment) throws -> RasterImage
}

/// How many nested components one vector document has drawn (see ``DrawEnvironment/vectorDraws``).
final class VectorDrawCount {
    var count = 0
}
