#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// The cgroup v2 files that say this process's memory is under pressure.
///
/// - `memory.pressure` with PSI triggers (Linux 5.2+): one for "some" tasks stalled on memory
///   for 150 ms within 2 s (a warning), one for "full" stalls, every task at once (critical).
///   The 2 s window is what unprivileged processes may ask for since Linux 6.5; a kernel or a
///   container that refuses the trigger (`EPERM`, a read-only `/sys`) leaves it out.
/// - `memory.events`, polled for changes: a rise in `high` is a warning; in `max`, `oom` or
///   `oom_kill` critical.
///
/// Without a cgroup v2 hierarchy (cgroup v1, no `/sys/fs/cgroup`, not Linux) there is nothing
/// to watch, and the caches are trimmed only when ``RasterCache/handleMemoryPressure(level:)``
/// is called.
enum CgroupMemoryPressure {
    /// The sources for this process's cgroup, or for `directory` when given.
    static func sources(directory: String? = nil) -> [MemoryPressureMonitor.Source] {
        guard let directory = directory ?? ownDirectory() else { return [] }
        var sources: [MemoryPressureMonitor.Source] = []
        let pressure = directory + "/memory.pressure"
        for (trigger, level) in [("some 150000 2000000", MemoryPressureLevel.warning), ("full 150000 2000000", .critical)] {
            if let source = psiTrigger(path: pressure, trigger: trigger, level: level) { sources.append(source) }
        }
        if let events = eventsSource(path: directory + "/memory.events") { sources.append(events) }
        return sources
    }

    /// This process's cgroup v2 directory, from the `0::` line of `/proc/self/cgroup`.
    static func ownDirectory() -> String? {
        guard let directory = KernelFiles.cgroupDirectory else { return nil }
        return access(directory + "/memory.events", F_OK) == 0 ? directory : nil
    }

    /// A PSI trigger on `path`: the kernel signals `POLLPRI` when the stall crosses it.
    static func psiTrigger(path: String, trigger: String, level: MemoryPressureLevel) -> MemoryPressureMonitor.Source? {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        // The kernel wants the terminating NUL too.
        let written = trigger.withCString { write(fd, $0, strlen($0) + 1) }
        guard written > 0 else {
            close(fd)
            return nil
        }
        return MemoryPressureMonitor.Source(name: "\(path) (\(trigger))", fd: fd, events: Int16(POLLPRI),
                                            errorEndsSource: true, onWake: { _ in level })
    }

    /// `memory.events`, whose changes kernfs reports as `POLLPRI`.
    static func eventsSource(path: String) -> MemoryPressureMonitor.Source? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let counter = MemoryEventsCounter(fd: fd)
        return MemoryPressureMonitor.Source(name: path, fd: fd, events: Int16(POLLPRI), errorEndsSource: false) { _ in
            counter.nextLevel()
        }
    }
}

/// Reads a `memory.events` file from its start each time, and says what rose since last time.
final class MemoryEventsCounter: Sendable {
    private let fd: Int32
    private let last: Lock<[String: Int]>

    /// Counts from `fd` (which the caller keeps open) as they are now.
    init(fd: Int32) {
        self.fd = fd
        last = Lock(Self.read(fd))
    }

    /// The level the counts that rose since the last call stand for, or nil.
    func nextLevel() -> MemoryPressureLevel? {
        let now = Self.read(fd)
        let previous = last.withLock { last in
            defer { last = now }
            return last
        }
        func rose(_ name: String) -> Bool { (now[name] ?? 0) > (previous[name] ?? 0) }
        if rose("max") || rose("oom") || rose("oom_kill") { return .critical }
        if rose("high") { return .warning }
        return nil
    }

    /// `name count` lines, read with `pread` from offset 0 (kernfs files are re-read that way).
    static func read(_ fd: Int32) -> [String: Int] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return [:] }
        var counts: [String: Int] = [:]
        for line in String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Int(fields[1]) { counts[String(fields[0])] = value }
        }
        return counts
    }
}
