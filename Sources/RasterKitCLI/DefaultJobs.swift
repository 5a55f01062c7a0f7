import Foundation

/// One job per processor this process may use, worked out once: ArgumentParser evaluates an
/// option's default each time it makes the command, and each evaluation reads cgroup files.
enum DefaultJobs {
    static let count = ProcessInfo.processInfo.activeProcessorCount
}
