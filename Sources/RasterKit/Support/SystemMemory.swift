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
        guard let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
              let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let path = "/sys/fs/cgroup" + String(line.dropFirst(3)) + "/memory.max"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
