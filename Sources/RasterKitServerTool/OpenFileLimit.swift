import Foundation

/// The process's open-file limit, as a server needs it: every connection is a file descriptor,
/// and the server must keep some for itself (the store, the manifest, the icons, the one it
/// accepts a connection with only to refuse it).
enum OpenFileLimit {
    /// Descriptors kept for everything but connections.
    static let reserve = 64

    /// Raises the soft limit to the hard one, and returns how many of `wanted` connections fit
    /// under it, leaving ``reserve`` free (at least one).
    static func connections(wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones.
        let available = limit.rlim_cur == rlim_t.max ? UInt64(Int.max) : UInt64(limit.rlim_cur)
        return max(1, min(wanted, Int(clamping: available) - reserve))
    }
}
