import Foundation
import Hummingbird
import Logging
import RasterKit
import RasterKitBatch
import ServiceLifecycle
import Synchronization

/// Renders manifest components and SVG icons for HTTP requests: the work behind the routes
/// ``RasterKitRoutes`` mounts. It owns the catalog of what can be rendered (reloaded when the
/// manifest or icon folder changes), the rasterizer and its cache tiers, the bounded render
/// queue, the signing check and the metrics. As a `Service`, its `run()` watches the inputs for
/// changes until graceful shutdown; add it to the application's services.
///
/// ```swift
/// let service = try RasterRenderService(configuration: RasterServerConfiguration(manifest: manifestURL))
/// let router = Router()
/// RasterKitRoutes(service: service).register(on: router)
/// var app = Application(router: router)
/// app.addServices(service)
/// try await app.runService()
/// ```
public final class RasterRenderService: Service, Sendable {
    /// The configuration it was made with.
    public let configuration: RasterServerConfiguration
    /// The rasterizer renders are drawn and cached with.
    public let rasterizer: Rasterizer
    let metrics = ServerMetrics()
    let admission: RenderAdmission
    let encoded: EncodedResponseCache
    let signer: URLSigner?
    // Synchronization's Mutex rather than the package's Lock: with Lock, Swift 6.3's optimizer
    // crashes on this class's throwing initializer in release builds (CopyPropagation,
    // "Found ownership error").
    private let catalog: Mutex<RenderCatalog>
    private let reloads = Atomic<Int>(0)
    /// The inputs' stamps when they last failed to load: not tried (nor logged) again until they change.
    private let failedStamps = Mutex<[String: FileChangeStamp]?>(nil)
    private let logger: Logger

    /// Loads the manifest and icon folder; renders with `rasterizer`, by default one with a
    /// 256 MiB memory cache and the configuration's limits.
    ///
    /// - Throws: ``ServerSetupError`` for a manifest with problems or a missing icon folder.
    public init(configuration: RasterServerConfiguration, rasterizer: Rasterizer? = nil,
                logger: Logger = Logger(label: "RasterKitServer")) throws(ServerSetupError) {
        guard configuration.manifest != nil || configuration.icons != nil else {
            throw ServerSetupError("nothing to serve: give a manifest, an icon folder, or both")
        }
        self.configuration = configuration
        self.rasterizer = rasterizer ?? Rasterizer(cache: RasterCache(memoryLimit: 256 << 20), limits: configuration.renderLimits)
        admission = RenderAdmission(limit: configuration.renderQueueLimit)
        encoded = EncodedResponseCache(limit: configuration.encodedCacheLimit)
        signer = configuration.signingKey.map { URLSigner(key: $0) }
        catalog = Mutex(try RenderCatalog(configuration: configuration))
        self.logger = logger
    }

    /// How many times the inputs were reloaded after a change.
    public var reloadCount: Int { reloads.load(ordering: .relaxed) }

    /// Watches the manifest and icon folder every `reloadInterval` seconds and swaps in a new
    /// catalog when they change, until graceful shutdown or cancellation. A change that does not
    /// load (a manifest with problems) is logged and the last good catalog goes on serving.
    public func run() async throws {
        let interval = Duration.milliseconds(Int(max(0.01, configuration.reloadInterval) * 1_000))
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                self.reloadIfChanged()
            }
        }
    }

    /// Reloads now when an input changed; returns whether a new catalog is in place.
    @discardableResult
    func reloadIfChanged() -> Bool {
        let current = catalog.withLock { $0 }
        let now = RenderCatalog.currentStamps(configuration: configuration)
        // A broken manifest is reported once per change, not at every look.
        guard now != current.stamps, failedStamps.withLock({ $0 }) != now else { return false }
        do {
            let fresh = try RenderCatalog(configuration: configuration)
            catalog.withLock { $0 = fresh }
            failedStamps.withLock { $0 = nil }
            reloads.add(1, ordering: .relaxed)
            logger.info("reloaded the manifest and icons")
            return true
        } catch {
            failedStamps.withLock { $0 = now }
            logger.error("not reloaded, still serving the previous version (reported once until the inputs change again): \(error)")
            return false
        }
    }

    /// The catalog requests are served from now.
    var currentCatalog: RenderCatalog { catalog.withLock { $0 } }

    /// The response to `GET /metrics`.
    func metricsText() -> String {
        metrics.exposition(statistics: rasterizer.statistics, memoryBytes: rasterizer.cache.memory.statistics.totalCost,
                           encodedBytes: encoded.bytes, queued: admission.outstanding)
    }
}
