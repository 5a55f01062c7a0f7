#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// Watches file descriptors that signal memory pressure, on one thread blocked in `poll(2)`,
/// and reports each signal's level. The process's shared monitor watches its cgroup (see
/// ``CgroupMemoryPressure``) and trims every registered ``RasterCache``; tests give a monitor
/// their own descriptors (a pipe standing in for a PSI trigger) to drive it.
final class MemoryPressureMonitor: Sendable {
    /// One descriptor to poll and how to turn a wake-up into a level.
    struct Source: Sendable {
        /// What it watches, for ``RasterCache/watchedMemoryPressureFiles``.
        var name: String
        var fd: Int32
        /// The `poll` events that mean "look": `POLLPRI` for PSI triggers and cgroup files.
        var events: Int16
        /// Whether a `POLLERR` means the source is gone (a PSI trigger whose cgroup was removed)
        /// rather than a change (kernfs files report changes as `POLLERR | POLLPRI`).
        var errorEndsSource: Bool
        /// Reads what changed after a wake-up: the level to report, or nil for a change that is
        /// not pressure.
        var onWake: @Sendable (Int32) -> MemoryPressureLevel?
    }

    let sourceNames: [String]
    private let stopSignal: StopSignal?
    private let isStopped = Atomic<Bool>(false)

    /// Starts watching `sources` (taking ownership of their descriptors) unless there are none.
    init(sources: [Source], handler: @escaping @Sendable (MemoryPressureLevel) -> Void) {
        sourceNames = sources.map(\.name)
        guard !sources.isEmpty, let stopSignal = StopSignal() else {
            stopSignal = nil
            for source in sources { close(source.fd) }
            return
        }
        self.stopSignal = stopSignal
        let thread = Thread { Self.watch(sources, stop: stopSignal, handler: handler) }
        thread.name = "RasterKit memory pressure"
        thread.start()
    }

    /// Ends the watching thread, which closes the sources' descriptors. The shared monitor is
    /// never stopped.
    func stop() {
        guard let stopSignal, !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopSignal.signal()
    }

    deinit {
        stop()
    }

    /// A pipe whose write wakes the watching thread. Both the monitor and the thread hold it,
    /// so its read end stays open until neither needs it: a stop after the thread has ended
    /// (every source gone) writes into a pipe still open, rather than raising `SIGPIPE`.
    private final class StopSignal: Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init?() {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return nil }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        /// Written once at most (``stop()`` guards it), so it never fills the pipe.
        func signal() {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }
    }

    private static func watch(_ sources: [Source], stop: StopSignal,
                              handler: @Sendable (MemoryPressureLevel) -> Void) {
        var descriptors = sources.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        descriptors.append(pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0))
        defer {
            for source in sources { close(source.fd) }
        }
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[sources.count].revents != 0 { return }
            for index in sources.indices where descriptors[index].revents != 0 {
                let revents = descriptors[index].revents
                descriptors[index].revents = 0
                let source = sources[index]
                // A source that is gone or closed is dropped: a negative descriptor is skipped by poll.
                if revents & Int16(POLLNVAL) != 0 || revents & Int16(POLLHUP) != 0 && revents & source.events == 0
                    || source.errorEndsSource && revents & Int16(POLLERR) != 0 {
                    descriptors[index].fd = -1
                    continue
                }
                if let level = source.onWake(source.fd) { handler(level) }
            }
            if descriptors.dropLast().allSatisfy({ $0.fd < 0 }) { return }
        }
    }

    /// The process's monitor: its cgroup's pressure files, reported to every cache registered
    /// with ``MemoryPressureRegistry``. Made on first use; never stopped.
    static let shared = MemoryPressureMonitor(sources: CgroupMemoryPressure.sources()) { level in
        MemoryPressureRegistry.shared.broadcast(level)
    }
}

/// The caches the shared monitor trims, held weakly so that registering keeps nothing alive.
final class MemoryPressureRegistry: Sendable {
    private struct WeakCache {
        weak var cache: RasterCache?
    }

    private let caches = Lock<[WeakCache]>([])

    static let shared = MemoryPressureRegistry()

    /// Trims `cache` whenever the shared monitor reports pressure; starts the monitor.
    func register(_ cache: RasterCache) {
        _ = MemoryPressureMonitor.shared
        caches.withLock { caches in
            caches.removeAll { $0.cache == nil }
            caches.append(WeakCache(cache: cache))
        }
    }

    /// Whether `cache` is registered (and alive).
    func isRegistered(_ cache: RasterCache) -> Bool {
        caches.withLock { caches in caches.contains { $0.cache === cache } }
    }

    /// Calls every live cache's ``RasterCache/handleMemoryPressure(level:)``, outside the lock.
    func broadcast(_ level: MemoryPressureLevel) {
        let live = caches.withLock { caches in caches.compactMap(\.cache) }
        for cache in live { cache.handleMemoryPressure(level: level) }
    }
}
