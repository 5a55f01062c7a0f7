import Foundation
import RasterKit
import Synchronization

/// Tells the remote store, ahead of the workers, which renders a batch is about to look up.
///
/// Workers look up one output at a time, so with a remote store each waited a round trip per
/// render: on loopback a batch served entirely from the remote store was barely faster than
/// drawing. This walks the outputs on a thread of its own, in the order the workers claim them,
/// skipping those whose files are up to date, and hands their keys to the cache, which fetches
/// them many at once (see `RasterCache.prefetchFromRemote`). Without a remote store it stops at
/// the first output that needs the rasterizer, before the workers start.
final class BatchRemotePrefetch: Sendable {
    private let isStopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let source: LazyRasterizer

    private init(source: LazyRasterizer) {
        self.source = source
    }

    /// Starts walking `outputs` in `order` (the work units' groups, as the workers claim them).
    /// Finds the first output that needs rendering here, before the workers start, and makes
    /// the rasterizer for it; nil when none does or the cache has no remote store.
    static func start(_ outputs: [BatchOutput], order: [[Int]], index: BatchOutputIndex?,
                      source: LazyRasterizer) -> BatchRemotePrefetch? {
        let sequence = order.lazy.flatMap { $0 }.map { outputs[$0] }
        // A remote that is failing (its breaker open, say after the run's pack lookup was
        // refused) is not walked for: the walk's keys and disk checks would only take processor
        // time and store connections from the workers.
        guard let first = sequence.firstIndex(where: { key(of: $0, index: index) != nil }),
              let cache = try? source.get().cache, cache.isAskingRemote else { return nil }
        // From here, a worker's lookup that runs ahead of the walk is not fetched again.
        cache.beginRemotePrefetch()
        let prefetch = BatchRemotePrefetch(source: source)
        let rest = Array(sequence[first...])
        let thread = Thread {
            defer { prefetch.finished.signal() }
            prefetch.walk(rest, index: index, cache: cache)
        }
        thread.name = "RasterKit.BatchRenderer.prefetch"
        thread.start()
        return prefetch
    }

    /// Stops the walk, waits for it, and drops what was fetched and not looked up.
    func finish() {
        isStopped.store(true, ordering: .relaxed)
        finished.wait()
        source.made?.cache.endRemotePrefetch()
    }

    /// The key `output` will look up, or nil when it looks up none: a vector document (drawn), an
    /// output without an encoder (no stored bytes), or a file that is up to date.
    private static func key(of output: BatchOutput, index: BatchOutputIndex?) -> CacheKey? {
        guard output.document == nil, let encoder = output.encoder, let key = try? output.renderKey?() else { return nil }
        if let index, index.isUpToDate(output.path, fingerprint: BatchOutput.fingerprint(key, encoding: encoder.identifier)) { return nil }
        return key
    }

    private func walk(_ outputs: [BatchOutput], index: BatchOutputIndex?, cache: RasterCache) {
        var keys: [CacheKey] = []
        for output in outputs {
            guard !isStopped.load(ordering: .relaxed) else { return }
            guard let key = Self.key(of: output, index: index) else { continue }
            keys.append(key)
            // Handed over in small groups, so the first requests leave before the walk ends.
            if keys.count == Self.groupSize {
                cache.prefetchFromRemote(keys)
                keys.removeAll(keepingCapacity: true)
            }
        }
        if !keys.isEmpty { cache.prefetchFromRemote(keys) }
    }

    /// Keys handed to the cache at a time.
    static let groupSize = 16
}
