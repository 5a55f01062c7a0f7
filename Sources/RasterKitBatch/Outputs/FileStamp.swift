import RasterKit
import Foundation

/// A file's (or folder's) identity and state as `stat` tells it, cheaply: device, inode, size,
/// modification and change times. When a stamp is unchanged, so is what the file holds — unless
/// the file changed within one tick of the file system's clock at the same size, which is why a
/// file changed less than `settleTime` seconds ago gets no stamp (git's "racily clean" rule).
/// A folder's times change when an entry is added, removed or renamed in it.
///
/// The settle time is for file systems that keep times to the second (or two, as FAT). One that
/// keeps nanoseconds (ext4, XFS, Btrfs, tmpfs) stamps a write with the kernel's clock, which
/// ticks at least every 10 ms: a file left alone for ``fineSettleTime`` has a time no later
/// write can share. So a run started just after a checkout can still be recorded.
enum FileStamp {
    /// How long a file must have been left alone before its stamp is trusted, in seconds, on a
    /// file system whose times have no fraction of a second.
    static let defaultSettleTime: Double = 5
    /// The same where the times have nanoseconds: one and a half ticks of the slowest kernel
    /// clock (100 Hz).
    static let fineSettleTime: Double = 0.015

    /// The stamp of `path` (links followed), or nil when it cannot be read or changed less than
    /// `settleTime` seconds ago.
    static func of(_ path: String, settledFor settleTime: Double) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return of(info, settledFor: settleTime)
    }

    /// The stamp of a file already looked at with `stat`.
    static func of(_ info: stat, settledFor settleTime: Double) -> String? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return of(info, settledFor: settleTime, now: Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9)
    }

    /// ``of(_:settledFor:)`` at the time `now` (seconds since 1970).
    static func of(_ info: stat, settledFor settleTime: Double, now: Double) -> String? {
        guard unsettledFor(info, settledFor: settleTime, now: now) <= 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):"
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }
}

extension FileStamp {
    /// ``of(_:settledFor:)-(stat,_)`` for an input about to be read: a file changed less than
    /// ``fineSettleTime`` ago, on a file system that keeps nanoseconds, is waited for (that long
    /// at most) and looked at again rather than left without a stamp. A run started right after
    /// a checkout or a copy then still stamps every input, and so records itself in the store
    /// for the next job's fresh checkout; the wait is once, not per file, as they age together.
    static func waitingToSettle(_ path: String, _ info: stat, settledFor settleTime: Double) -> String? {
        if let stamp = of(info, settledFor: settleTime) { return stamp }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wait = unsettledFor(info, settledFor: settleTime, now: Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9)
        // Longer waits are coarse file systems (seconds) and times in the future (a clock ahead).
        guard wait > 0, wait <= fineSettleTime else { return nil }
        usleep(UInt32(wait * 1_000_000) + 1)
        var again = stat()
        guard stat(path, &again) == 0 else { return nil }
        return of(again, settledFor: settleTime)
    }

    /// How much longer the file `info` describes must be left alone before its stamp is
    /// trusted at the time `now`; zero or less when it already is.
    fileprivate static func unsettledFor(_ info: stat, settledFor settleTime: Double, now: Double) -> Double {
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) * 1e-9
        let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) * 1e-9
        // A file system that drops fractions of a second leaves both at 0; one that keeps them
        // leaves both at 0 one time in a billion, when the coarse rule is merely slower.
        let keepsNanoseconds = info.st_mtim.tv_nsec != 0 || info.st_ctim.tv_nsec != 0
        let settle = keepsNanoseconds ? min(settleTime, fineSettleTime) : settleTime
        return settle - (now - max(modified, changed))
    }
}

/// A file as a batch left it: its size and modification time. When both are unchanged, the
/// file is still the one written.
struct FileState: Hashable, Sendable {
    var byteCount: Int64
    var modified: Int64

    /// The state of the regular file at `path` (links followed); nil when there is none.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        byteCount = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    init(byteCount: Int64, modified: Int64) {
        self.byteCount = byteCount
        self.modified = modified
    }
}

/// The files and folders a run read, each stamped just before it was read: when every stamp is
/// still the same, the run would read the same bytes again. One input that could not be
/// stamped (changed too recently, or unreadable) makes the set incomplete, and then it vouches
/// for nothing. Filled while a manifest loads and plans, on one thread.
final class InputStamps {
    let settleTime: Double
    private(set) var stamps: [String: String] = [:]
    private(set) var isComplete = true
    /// Every path noted, stamped or not, in the order first noted: what a build system must
    /// watch (`BatchPlan.inputPaths`).
    private(set) var paths: [String] = []
    private var noted: Set<String> = []

    init(settleTime: Double = FileStamp.defaultSettleTime) {
        self.settleTime = settleTime
    }

    /// Stamps `path`; call it before reading the file (or listing the folder), so a change
    /// made while it is read shows as a different stamp next time.
    func note(_ path: String) {
        guard stamps[path] == nil else { return }
        remember(path)
        var info = stat()
        guard stat(path, &info) == 0 else {
            isComplete = false
            return
        }
        note(path, info)
    }

    /// Notes a file whose `stat` the caller already has.
    func note(_ path: String, _ info: stat) {
        guard stamps[path] == nil else { return }
        remember(path)
        guard let stamp = FileStamp.waitingToSettle(path, info, settledFor: settleTime) else {
            isComplete = false
            return
        }
        stamps[path] = stamp
    }

    private func remember(_ path: String) {
        if noted.insert(path).inserted { paths.append(path) }
    }

    /// Every stamp, or nil when some input had none.
    var completeStamps: [String: String]? { isComplete ? stamps : nil }
}
