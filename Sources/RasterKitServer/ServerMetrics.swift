import CoreMetrics
import Foundation
import Prometheus
import RasterKit
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of its own
/// (not the process-wide `MetricsSystem`, so a user's application and several servers in one
/// test process do not mix): requests by route and status, responses by origin, draw times,
/// and at each scrape the rasterizer's statistics and the bytes its caches hold.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Counters by their label and dimensions, made once: a warm hit must not build one.
    private let counters = Mutex<[CounterKey: CoreMetrics.Counter]>([:])

    private struct CounterKey: Hashable {
        let label: String
        let first: String
        let second: Int
    }
    private let drawTime: CoreMetrics.Timer

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Draws take from a tenth of a millisecond (a small icon) to seconds (a large shadow).
        factory.durationHistogramBuckets["rasterkit_draw_seconds"] = [
            .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        drawTime = CoreMetrics.Timer(label: "rasterkit_draw_seconds", factory: factory)
    }

    /// Counts a response of `route` (`components`, `icons`, `health`, `metrics`) with `status`.
    func countRequest(route: String, status: Int) {
        counter(CounterKey(label: "rasterkit_http_requests_total", first: route, second: status)) {
            [("route", route), ("status", String(status))]
        }.increment()
    }

    /// Counts a render response by where its image came from (`memory`, `disk`, `drawn`, …).
    func countRender(origin: String) {
        counter(CounterKey(label: "rasterkit_renders_total", first: origin, second: 0)) { [("origin", origin)] }.increment()
    }

    /// Records how long a draw took.
    func recordDraw(_ duration: Duration) {
        drawTime.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The Prometheus text exposition, with the current rasterizer statistics and cache sizes.
    func exposition(statistics: RenderStatistics, memoryBytes: Int, encodedBytes: Int, queued: Int) -> String {
        let gauges: [(String, Int, String)] = [
            ("rasterkit_rasterizer_draws", statistics.draws, "Renders drawn since the server started"),
            ("rasterkit_rasterizer_memory_hits", statistics.memoryHits, "Renders the rasterizer served from memory"),
            ("rasterkit_rasterizer_disk_hits", statistics.diskHits, "Renders served from the disk store"),
            ("rasterkit_rasterizer_remote_hits", statistics.remoteHits, "Renders served from the remote store"),
            ("rasterkit_rasterizer_coalesced", statistics.coalesced, "Requests that joined a render under way"),
            ("rasterkit_rasterizer_failures", statistics.failures, "Draws that failed"),
            ("rasterkit_rasterizer_evictions", statistics.evictions, "Renders evicted from memory"),
            ("rasterkit_cache_memory_bytes", memoryBytes, "Bytes of decoded renders in memory"),
            ("rasterkit_cache_encoded_bytes", encodedBytes, "Bytes of encoded responses in memory"),
            ("rasterkit_render_queue_outstanding", queued, "Renders waiting or drawing now"),
        ]
        for (name, value, help) in gauges {
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help)).set(Double(value))
        }
        return registry.emitToString()
    }

    private func counter(_ key: CounterKey, dimensions: () -> [(String, String)]) -> CoreMetrics.Counter {
        counters.withLock { counters in
            if let known = counters[key] { return known }
            let made = CoreMetrics.Counter(label: key.label, dimensions: dimensions(), factory: factory)
            counters[key] = made
            return made
        }
    }
}
