import ArgumentParser
import Foundation
import RasterKit

/// One job per processor this process may use, worked out once: ArgumentParser evaluates an
/// option's default each time it makes the command, and each evaluation reads cgroup files.
enum DefaultJobs {
    static let count = Processors.available

    /// The most `--jobs` a command accepts. Each job is a thread with an 8 MiB stack and a
    /// render in flight; past a few per processor they only add memory and contention, and
    /// thousands hit the process limit. A fixed cap, not one per processor, so a command line
    /// that works on one machine works on the next; above it the command exits 2.
    static let maximum = 256

    /// Throws a usage error unless `jobs` is from 1 to ``maximum``.
    static func validate(_ jobs: Int) throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more, not \(jobs)") }
        guard jobs <= maximum else {
            throw ValidationError("--jobs \(jobs) is more than the \(maximum) this command allows; "
                                  + "the default is one per processor (\(count) here)")
        }
    }

    /// `--jobs`' help.
    static let help = ArgumentHelp("Outputs rendered at once, 1 to \(maximum); the default is one per processor.")
}
