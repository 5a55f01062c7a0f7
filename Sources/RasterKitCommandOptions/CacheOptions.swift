import ArgumentParser
import Foundation
import Logging
import RasterKit
import RasterKitArguments
import RasterKitRemoteCache

/// `--cache PATH | --no-cache` and `--remote-cache URL`, shared by the commands that render: the
/// one place a command's rasterizer, its disk store and its remote store are set up and flushed.
package struct CacheOptions: ParsableArguments {
    /// No flags given: the default store, no remote store.
    package init() {}

    /// `--cache PATH | --no-cache`: the render store.
    @OptionGroup package var store: StoreOptions

    /// `--cache`: the render store's path; nil for the default store.
    package var cache: String? { store.cache }

    /// `--no-cache`: no render store, and every output rendered again.
    package var noCache: Bool { store.noCache }

    /// `--remote-cache URL` and `--remote-timeout SECONDS`.
    @OptionGroup package var remote: RemoteOptions

    @Flag(name: .customLong("remote-required"),
          help: "Exit with status 1 when the remote cache failed: a lookup or an upload failed, or renders were not uploaded.")
    package var remoteRequired = false

    /// Seconds a run waits at its end for its uploads to the remote cache.
    package static let uploadWaitLimit: Double = 30

    /// The remote cache's URL: `--remote-cache`, else `RASTERKIT_REMOTE_CACHE`; nil for none
    /// (and with `--no-cache`, which renders everything again).
    package var remoteURL: URL? {
        noCache ? nil : remote.url
    }

    /// Usage mistakes found before anything renders, so they exit with 2 rather than failing
    /// every output: both flags at once, an empty path, a path whose folder is missing.
    package func validate() throws {
        try store.validate()
        if remote.remoteCache != nil && noCache { throw ValidationError("--remote-cache and --no-cache cannot be used together") }
        try remote.validate()
    }

    /// Exits with status 1 after a run whose remote cache failed, with `--remote-required`.
    package func requireRemote(_ remote: RemoteCacheStatistics?) throws {
        guard remoteRequired, let remote, remote.hasFailures else { return }
        throw ExitStatus.partialFailure
    }

    /// Bytes of decoded renders a batch keeps in memory.
    package static let batchMemoryLimit = StoreOptions.batchMemoryLimit

    /// Whether a run will probably draw most of its outputs: without a store, or with a store
    /// that does not exist yet (a first run).
    package var isLikelyToDraw: Bool {
        noCache || !storeExists
    }

    /// Whether the disk store's file exists.
    private var storeExists: Bool { store.storeExists }

    /// The cache, made on another thread from now, when its store already exists (see
    /// `BackgroundValue`); nil when there is none yet (it is made, and the store created, only
    /// when the run needs it) or no store is used.
    package func openExistingStoreInBackground() -> BackgroundValue<RasterCache>? {
        guard !noCache, storeExists else { return nil }
        let options = self
        return BackgroundValue { options.makeCache() }
    }

    /// The cache a batch looks for the record of an identical run in before loading anything
    /// (``makeCache(memoryLimit:)``), when there can be one: the disk store exists, or a remote
    /// store is given. Nil otherwise, so a run whose manifest turns out broken creates no store.
    package func makeCacheForStoredRuns() -> RasterCache? {
        guard !noCache, storeExists || remoteURL != nil else { return nil }
        return makeCache()
    }

    /// Whether outputs already written and unchanged may be left alone.
    package var reusesUpToDateOutputs: Bool { store.reusesUpToDateOutputs }

    /// The rasterizer a batch renders with, made when the first output needs rendering: renders
    /// come from and go to the disk store at `--cache` (or the default store), unless `--no-cache`,
    /// and each is held to `limits`. A store that cannot be opened (full disk, read-only, a refused
    /// `-wal`) costs the disk tier only: one warning, and the batch renders with memory alone, as
    /// with `--no-cache`. `rasterkit serve` keeps more in memory than a batch (`memoryLimit`).
    package func makeRasterizer(limits: ResourceLimits, memoryLimit: Int = Self.batchMemoryLimit, cache: RasterCache? = nil) -> Rasterizer {
        Rasterizer(cache: cache ?? makeCache(memoryLimit: memoryLimit), limits: limits)
    }

    /// The cache of ``makeRasterizer(limits:memoryLimit:cache:)``: memory, the disk store unless
    /// `--no-cache` (a store that cannot be opened is reported once and left out), and the remote
    /// store when one is given.
    package func makeCache(memoryLimit: Int = Self.batchMemoryLimit) -> RasterCache {
        store.makeCache(memoryLimit: memoryLimit, remote: makeRemote(), remoteOptions: Self.remoteOptions, tool: "rasterkit")
    }

    /// The remote tier's options: objects signed with `RASTERKIT_REMOTE_CACHE_KEY` when it is set.
    package static var remoteOptions: RemoteCacheOptions { RemoteOptions.cacheOptions }

    /// The remote store at ``remoteURL`` with `--remote-timeout`, or nil.
    package func makeRemote() -> RemoteCache? {
        remoteURL.flatMap { remote.makeStore(at: $0) }
    }
}
