import Foundation

/// How much memory the process may use: its cgroup's `memory.max` when one is set (containers,
/// CI runners, systemd services), else the machine's physical memory.
enum SystemMemory {
    static let available: Int? = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard let cgroup = cgroupLimit() else { return physical > 0 ? physical : nil }
        return physical > 0 ? min(cgroup, physical) : cgroup
    }()

    /// The cgroup v2 limit of this process, or nil for "max" or no cgroup.
    private static func cgroupLimit() -> Int? {
        guard let directory = KernelFiles.cgroupDirectory,
              let text = KernelFiles.value(directory + "/memory.max") else { return nil }
        return Int(text)
    }
}
