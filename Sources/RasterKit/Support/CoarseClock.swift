#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A monotonic clock cheap enough for the memory cache's hit path: `CLOCK_MONOTONIC_COARSE` is
/// read from the vDSO without a system call, and its ticks (about 17 ms) are coarse enough that
/// a hot entry's last-use time changes, and so is written, rarely.
enum CoarseClock {
    /// Nanoseconds are shifted right by this much: one tick is 2^24 ns, about 16.8 ms.
    private static let shift: Int64 = 24

    /// The current tick.
    @inline(__always)
    static func tick() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return (Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)) >> shift
    }

    /// A tick and the wall-clock time read together, to turn other ticks into dates.
    struct Reading {
        let tick: Int64
        let wallClock: Date

        init() {
            tick = CoarseClock.tick()
            wallClock = Date()
        }

        /// The wall-clock time of `other`, a tick read earlier in this process.
        func date(ofTick other: Int64) -> Date {
            let seconds = Double((tick - other) << CoarseClock.shift) / 1e9
            return wallClock.addingTimeInterval(-seconds)
        }
    }
}
