import Foundation
import RasterKit

/// A golden lockfile as one run uses it: read once when the run starts, its entries looked up as
/// goldens are checked, and the entries the run records written back by ``save()`` — merged into
/// the file as it is then, so goldens locked meanwhile (by a review) are kept.
package final class GoldenLockSession: Sendable {
    package let url: URL
    private let state: Lock<(lockfile: GoldenLockfile, recorded: [String: (key: String, pixels: StableDigest, environment: RenderEnvironment)])>

    /// Reads the lockfile at `url` (an empty lock when there is none yet).
    package init(url: URL) throws(GoldenLockfileError) {
        self.url = url
        state = Lock((try GoldenLockfile(contentsOf: url), [:]))
    }

    /// `name`'s entry and the environment it was recorded in, or nil when it is not locked.
    package func entry(_ name: String) -> (entry: GoldenLockfile.Entry, environment: RenderEnvironment?)? {
        state.withLock { $0.lockfile.entry(name) }
    }

    /// Locks `name` to `key` and `pixels`, recorded in `environment`, until ``save()``.
    package func lock(_ name: String, key: String, pixels: StableDigest, environment: RenderEnvironment) {
        state.withLock { state in
            state.lockfile.lock(name, key: key, pixels: pixels, environment: environment)
            state.recorded[name] = (key, pixels, environment)
        }
    }

    /// How many goldens were locked since the last save.
    package var unsavedCount: Int { state.withLock { $0.recorded.count } }

    /// Writes what was locked since the last save into the file; nothing when nothing was.
    package func save() throws {
        let recorded = state.withLock { state in
            defer { state.recorded = [:] }
            return state.recorded
        }
        guard !recorded.isEmpty else { return }
        do {
            try GoldenLockfile.update(at: url) { lockfile in
                for (name, entry) in recorded {
                    lockfile.lock(name, key: entry.key, pixels: entry.pixels, environment: entry.environment)
                }
            }
        } catch {
            throw GoldenError.cannotWrite(path: url.path, reason: "\(error)")
        }
    }
}
