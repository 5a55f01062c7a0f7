import Observation
import Synchronization

/// The headless counterpart of a raster view: it holds a component at a size and scale and
/// keeps `image` up to date as they change. Assigning a component whose state differs
/// regenerates; a result for an older state that arrives after a newer one is dropped. When
/// the component is an `@Observable` class, changing a property it draws from regenerates
/// too, with all changes of one turn coalesced into one regeneration. An `@Observable` class
/// keyed with the default key paths (its stored properties) is drawn once more on each update,
/// into a one-pixel surface, so that the properties its `draw` reads are watched.
///
/// ```swift
/// let host = RasterHost(component: Badge(count: 1), size: Size(24), scale: 2, rasterizer: rasterizer)
/// host.onImageUpdated = { image in upload(image) }
/// host.component = Badge(count: 2)      // regenerates in the background
/// for await image in host.images() { … }
/// ```
///
/// Callbacks run on no particular thread, and never hop to the main actor for you:
/// ``onWillRegenerate`` runs on the thread whose change started the regeneration (the one
/// assigning ``component``, ``size`` or ``scale``, or calling ``regenerate()``), or on a thread
/// of Swift's global concurrent executor for a change observed in an `@Observable` component;
/// ``onImageUpdated`` and ``images()`` deliver on the thread that made the image — the
/// changing thread when ``drawsSynchronously``, otherwise a thread of Swift's global
/// concurrent executor. Hop to the main actor inside the callback when a UI needs it. Set
/// ``observesChanges`` to false to regenerate only when asked.
public final class RasterHost<Component: Rasterizable>: Sendable {
    private struct State {
        var component: Component
        var size: Size
        var scale: Double
        var drawsSynchronously: Bool
        var isRasterized: Bool
        var observesChanges = true
        var placeholder: RasterImage?
        var image: RasterImage?
        var lastError: (any Error)?
        /// The key of the image shown or being made; nil forces the next update to regenerate.
        var key: CacheKey?
        /// Incremented per regeneration; only the newest one may publish.
        var generation = 0
        var pending: Task<Void, Never>?
        var observationScheduled = false
        var onWillRegenerate: (@Sendable (CacheKey) -> Void)?
        var onImageUpdated: (@Sendable (RasterImage) -> Void)?
        var streams: [Int: AsyncStream<RasterImage>.Continuation] = [:]
        var nextStream = 0
    }

    /// The rasterizer renders go through.
    public let rasterizer: Rasterizer
    private let state: Lock<State>

    /// A host for `component` at `size` and `scale` that starts rendering at once: on the render
    /// threads, or on the calling thread when `drawsSynchronously`; `placeholder` is shown until then.
    public init(component: Component, size: Size, scale: Double = 1, rasterizer: Rasterizer,
                drawsSynchronously: Bool = false, isRasterized: Bool = true, placeholder: RasterImage? = nil) {
        self.rasterizer = rasterizer
        state = Lock(State(component: component, size: size, scale: scale, drawsSynchronously: drawsSynchronously,
                            isRasterized: isRasterized, placeholder: placeholder))
        update(force: true)
    }

    deinit {
        let (task, streams) = state.withLock { ($0.pending, $0.streams.values) }
        task?.cancel()
        for stream in streams { stream.finish() }
    }

    // MARK: What is shown

    /// The component; assigning one whose state differs regenerates (while ``observesChanges``).
    public var component: Component {
        get { state.withLock { $0.component } }
        set { state.withLock { $0.component = newValue }; update(automatic: true) }
    }

    /// Size in points; changing it regenerates (unless a minimum-frame nine-slice component,
    /// or ``observesChanges`` is false).
    public var size: Size {
        get { state.withLock { $0.size } }
        set { state.withLock { $0.size = newValue }; update(automatic: true) }
    }

    /// Pixels per point; changing it regenerates while ``observesChanges``.
    public var scale: Double {
        get { state.withLock { $0.scale } }
        set { state.withLock { $0.scale = newValue }; update(automatic: true) }
    }

    /// Whether changes regenerate on their own (the default): assigning ``component``,
    /// ``size`` or ``scale``, and changes to an `@Observable` component's drawn properties.
    /// When false, the host keeps showing its image until ``regenerate()`` is called; turning
    /// it back on regenerates at once if the state changed meanwhile.
    public var observesChanges: Bool {
        get { state.withLock { $0.observesChanges } }
        set {
            state.withLock { $0.observesChanges = newValue }
            if newValue { update() }
        }
    }

    /// The key of the host's current component at its current size and scale: what the image
    /// shows once any regeneration under way (or, with ``observesChanges`` off, requested by
    /// ``regenerate()``) is done. Computed from the component's state each time it is read;
    /// throws ``StateKeyError`` for a state that cannot be keyed.
    public var cacheKey: CacheKey {
        get throws(StateKeyError) {
            let (component, size, scale) = state.withLock { ($0.component, $0.size, $0.scale) }
            return try rasterizer.cacheKey(for: component, size: size, scale: scale)
        }
    }

    /// Draw on the thread that changes the host, rather than on the render threads.
    public var drawsSynchronously: Bool {
        get { state.withLock { $0.drawsSynchronously } }
        set { state.withLock { $0.drawsSynchronously = newValue } }
    }

    /// When false the component is drawn live on every update, without the cache.
    public var isRasterized: Bool {
        get { state.withLock { $0.isRasterized } }
        set { state.withLock { $0.isRasterized = newValue }; update(force: true) }
    }

    /// Shown until the first image is ready.
    public var placeholder: RasterImage? {
        get { state.withLock { $0.placeholder } }
        set { state.withLock { $0.placeholder = newValue } }
    }

    /// The latest image, or the placeholder before there is one.
    public var image: RasterImage? { state.withLock { $0.image ?? $0.placeholder } }

    /// The error of the latest regeneration, if it failed, or the error a ``Fallback``'s primary
    /// threw when the image shown was made with its secondary.
    public var lastError: (any Error)? { state.withLock { $0.lastError } }

    /// Called before a regeneration that has to draw (not for one served from the cache), on
    /// the thread that started the regeneration.
    public var onWillRegenerate: (@Sendable (CacheKey) -> Void)? {
        get { state.withLock { $0.onWillRegenerate } }
        set { state.withLock { $0.onWillRegenerate = newValue } }
    }

    /// Called with each new image, on the thread that made it (see the type's discussion).
    public var onImageUpdated: (@Sendable (RasterImage) -> Void)? {
        get { state.withLock { $0.onImageUpdated } }
        set { state.withLock { $0.onImageUpdated = newValue } }
    }

    /// A stream of every image from now on, starting with the current one if there is one.
    public func images() -> AsyncStream<RasterImage> {
        AsyncStream { continuation in
            let (id, current) = state.withLock { state -> (Int, RasterImage?) in
                state.nextStream += 1
                state.streams[state.nextStream] = continuation
                return (state.nextStream, state.image)
            }
            if let current { continuation.yield(current) }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
            }
        }
    }

    /// Regenerates even though the state has not changed; the way to regenerate while
    /// ``observesChanges`` is false.
    public func regenerate() { update(force: true) }

    /// Waits for the regeneration under way, if any.
    public func settle() async {
        while let task = state.withLock({ $0.pending }) {
            await task.value
            if state.withLock({ $0.pending }) == task { return }
        }
    }

    // MARK: Regeneration

    /// Starts a regeneration when the key differs from the one shown (or when forced). An
    /// `automatic` update, from a change rather than a request, does nothing while the host
    /// does not observe changes.
    private func update(force: Bool = false, automatic: Bool = false) {
        let snapshot = state.withLock { state -> (Component, Size, Double, Bool, Bool)? in
            state.observationScheduled = false
            if automatic, !state.observesChanges { return nil }
            return (state.component, state.size, state.scale, state.drawsSynchronously, state.isRasterized)
        }
        guard let (component, size, scale, synchronous, rasterized) = snapshot else { return }
        // The key is read under observation tracking, so an @Observable component's state
        // properties are watched from here on. A key that reads an observable object's storage
        // (the default key paths of an @Observable class) goes around its observation, so the
        // draw runs once more, into one pixel, to watch the properties it reads.
        let tracksDraw = ComponentKeyPlan.shared(Component.self).takeUnretainedValue().readsObservableStorage
        let limits = rasterizer.limits
        let keyed = withObservationTracking {
            let key = Result { () throws(StateKeyError) in try rasterizer.cacheKey(for: component, size: size, scale: scale) }
            if tracksDraw { TracingDraw.run(component, size: size, limits: limits) }
            return key
        } onChange: { [weak self] in
            self?.scheduleObservedChange()
        }
        let key: CacheKey
        switch keyed {
        case .success(let made):
            key = made
        case .failure(let error):
            let generation = state.withLock { state in
                state.key = nil
                state.generation += 1
                state.pending?.cancel()
                state.pending = nil
                return state.generation
            }
            return publish(.failure(error), generation: generation)
        }
        let generation: Int? = state.withLock { state in
            guard force || !rasterized || state.key != key else { return nil }
            state.key = key
            state.generation += 1
            state.pending?.cancel()
            state.pending = nil
            return state.generation
        }
        guard let generation else { return }
        let drawsFresh = !rasterized || !rasterizer.cache.memory.contains(key)
        if drawsFresh { state.withLock { $0.onWillRegenerate }?(key) }
        if synchronous {
            publish(Result { try render(component, size: size, scale: scale, rasterized: rasterized) }, generation: generation)
            return
        }
        let task = Task { [weak self, rasterizer] in
            let result: Result<Rendered, any Error>
            if rasterized {
                do {
                    let rendered = try await rasterizer.render(RenderRequest(component, size: size, scale: scale, priority: .urgent))
                    result = .success(Rendered(image: rendered.image, fallbackError: rendered.fallbackError))
                } catch { result = .failure(error) }
            } else {
                result = Result { try RasterHost.drawLive(component, size: size, scale: scale, rasterizer: rasterizer) }
            }
            self?.publish(result, generation: generation)
        }
        state.withLock { state in
            if state.generation == generation { state.pending = task }
        }
    }

    /// An image and, when a ``Fallback`` inside it served its secondary, what the primary threw.
    private struct Rendered {
        var image: RasterImage
        var fallbackError: (any Error)?
    }

    private func render(_ component: Component, size: Size, scale: Double, rasterized: Bool) throws -> Rendered {
        guard rasterized else { return try RasterHost.drawLive(component, size: size, scale: scale, rasterizer: rasterizer) }
        let rendered = try rasterizer.render(RenderRequest(component, size: size, scale: scale))
        return Rendered(image: rendered.image, fallbackError: rendered.fallbackError)
    }

    private static func drawLive(_ component: Component, size: Size, scale: Double, rasterizer: Rasterizer) throws -> Rendered {
        let environment = DrawEnvironment(limits: rasterizer.limits, memory: rasterizer.memory)
        let (image, fallback) = try environment.children.trackingFallbacks {
            try RenderGeometry(for: component, size: size, scale: scale).draw(component, scale: scale, environment: environment)
        }
        return Rendered(image: image, fallbackError: fallback?.error)
    }

    /// Shows a result unless a newer regeneration has started since; cancellations of an
    /// outdated regeneration are not errors. An image made with a fallback is shown, and the
    /// primary's error kept as `lastError`.
    private func publish(_ result: Result<Rendered, any Error>, generation: Int) {
        let delivery = state.withLock { state -> (RasterImage, (@Sendable (RasterImage) -> Void)?, [AsyncStream<RasterImage>.Continuation])? in
            guard state.generation == generation else { return nil }
            state.pending = nil
            switch result {
            case .success(let rendered):
                state.image = rendered.image
                state.lastError = rendered.fallbackError
                return (rendered.image, state.onImageUpdated, Array(state.streams.values))
            case .failure(let error):
                if !(error is CancellationError) {
                    state.lastError = error
                    state.key = nil  // a later update retries
                }
                return nil
            }
        }
        guard let (image, callback, streams) = delivery else { return }
        callback?(image)
        for stream in streams { stream.yield(image) }
    }

    /// Observation calls this on the first change to a watched property (before the change
    /// lands); later changes in the same turn find a regeneration already scheduled.
    private func scheduleObservedChange() {
        let alreadyScheduled = state.withLock { state in
            defer { state.observationScheduled = true }
            return state.observationScheduled
        }
        guard !alreadyScheduled else { return }
        Task { [weak self] in self?.update(automatic: true) }
    }
}
