#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many processors this process may keep busy: the default number of concurrent draws,
/// batch jobs and diff workers.
///
/// The processors its CPU affinity allows (`Cpus_allowed_list` of `/proc/self/status`, which
/// `taskset` and container cpusets set), at most its cgroup's CPU quota rounded up (cgroup v2
/// `cpu.max`, else cgroup v1 `cpu.cfs_quota_us` over `cpu.cfs_period_us`), and at least 1: what
/// Foundation's `activeProcessorCount` weighs too, read with plain `read(2)` (see
/// ``KernelFiles``), as Foundation's reading cost a warm batch a quarter of a millisecond, twice.
@usableFromInline package enum Processors {
    /// The processors this process may use, worked out once.
    @usableFromInline package static let available: Int = {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let allowed = KernelFiles.text("/proc/self/status").flatMap(allowedCount(status:)) ?? online
        guard let quota = cgroupQuota() else { return max(1, allowed) }
        return max(1, min(allowed, quota))
    }()

    /// How many processors the `Cpus_allowed_list` line of `status` (the text of
    /// `/proc/<pid>/status`) lists, as in "0-3,8,10-11"; nil without a readable one.
    static func allowedCount(status: String) -> Int? {
        guard let list = KernelFiles.line(startingWith: "Cpus_allowed_list:", in: status) else { return nil }
        // Bytes, not characters: the list is ASCII, and this runs before every batch.
        var count = 0, low: Int?, number: Int?
        for byte in list.utf8 + [UInt8(ascii: ",")] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                let (shifted, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, shifted <= Int.max - digit else { return nil }
                number = shifted + digit
            case UInt8(ascii: "-"):
                guard low == nil, let first = number else { return nil }
                (low, number) = (first, nil)
            case UInt8(ascii: ","):
                guard let last = number else { return nil }
                guard (low ?? last) <= last else { return nil }
                count += last - (low ?? last) + 1
                (low, number) = (nil, nil)
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            default:
                return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// The whole processors a CPU quota of `quota` microseconds per `period` amounts to,
    /// rounded up; nil for no quota (`max`, or a negative quota in cgroup v1).
    static func quotaCount(quota: Substring, period: Substring) -> Int? {
        guard let quota = Int(quota), quota > 0, let period = Int(period), period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The cgroup CPU quota, in whole processors; nil when there is none.
    private static func cgroupQuota() -> Int? {
        if let directory = KernelFiles.cgroupDirectory, let max = KernelFiles.value(directory + "/cpu.max") {
            // "max 100000" or "150000 100000": the quota, then the period.
            let fields = max.split(separator: " ")
            return fields.count == 2 ? quotaCount(quota: fields[0], period: fields[1]) : nil
        }
        guard let quota = KernelFiles.value("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
              let period = KernelFiles.value("/sys/fs/cgroup/cpu/cpu.cfs_period_us") else { return nil }
        return quotaCount(quota: Substring(quota), period: Substring(period))
    }
}
