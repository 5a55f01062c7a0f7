import Foundation
import RasterKit

/// Where a golden is kept, for ``GoldenCheck``: a PNG file in the goldens folder
/// (``GoldenFile``), or an entry of a golden lockfile whose PNG is in the remote cache
/// (``LockedGolden``).
package protocol GoldenStorage {
    /// How messages name the golden: its path, or `Goldens.lock.json: badge/unread@2x`.
    var location: String { get }
    /// The golden's pixels; nil when there is no golden. Throws when there is one that cannot be read.
    func expected() throws -> RGBABitmap?
    /// Keeps `png` (whose pixels are `pixels`) as the golden, recorded in `environment`.
    func record(_ png: [UInt8], pixels: RGBABitmap, environment: RenderEnvironment) throws
    /// The first lines of a failure message when the golden was recorded in another environment
    /// than `current`; nil when it was not, or that is not known.
    func environmentNote(current: RenderEnvironment) -> String?
    /// How failure artifacts name the golden, for `rasterkit goldens accept`.
    func describe(into summary: inout FailureSummary)
}

/// A golden PNG file inside a goldens folder, with `environment.json` beside it.
package struct GoldenFile: GoldenStorage {
    package let url: URL
    /// The goldens folder `url` lies in: nothing is accepted outside it.
    package let goldensDirectory: URL

    package init(url: URL, goldensDirectory: URL) {
        self.url = url
        self.goldensDirectory = goldensDirectory
    }

    package var location: String { url.path }

    package func expected() throws -> RGBABitmap? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try RGBABitmap(pngData: Data(contentsOf: url))
    }

    package func record(_ png: [UInt8], pixels: RGBABitmap, environment: RenderEnvironment) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(png).write(to: url, options: .atomic)
        } catch {
            throw GoldenError.cannotWrite(path: url.path, reason: "\(error)")
        }
        let file = GoldenEnvironmentFile(goldenURL: url)
        do { try file.record(environment) } catch { throw GoldenError.cannotWrite(path: file.url.path, reason: "\(error)") }
    }

    package func environmentNote(current: RenderEnvironment) -> String? {
        GoldenEnvironmentFile(goldenURL: url).mismatchNote(current: current)
    }

    package func describe(into summary: inout FailureSummary) {
        summary.golden = url.path
        summary.goldensRoot = goldensDirectory.path
    }
}

/// A golden locked in a golden lockfile (``GoldenLockfile``): its entry names the digest of its
/// pixels, and the remote cache holds its PNG under that digest.
package struct LockedGolden: GoldenStorage {
    /// The golden's name in the lockfile.
    package let name: String
    /// The fingerprint of the output as rendered now: what the entry gets when it is recorded.
    package let key: String
    package let lock: GoldenLockSession
    /// Where its PNG is fetched from and recorded to; nil when no remote cache was given.
    package let remote: GoldenRemote?

    package init(name: String, key: String, lock: GoldenLockSession, remote: GoldenRemote?) {
        self.name = name
        self.key = key
        self.lock = lock
        self.remote = remote
    }

    package var location: String { "\(lock.url.path): \(name)" }

    package func expected() throws -> RGBABitmap? {
        guard let (entry, _) = lock.entry(name) else { return nil }
        // Asked only once the drawn pixels differ from the locked ones: to compare within the
        // tolerance and show the difference.
        guard let remote else {
            throw GoldenRemote.Failure(reason: "the pixels differ from the locked ones, and the locked PNG (pixels \(entry.pixels)) "
                + "is in a remote cache, which none was given for (--remote-cache or RASTERKIT_REMOTE_CACHE)")
        }
        do { return try remote.fetch(entry.pixelDigest) } catch {
            throw GoldenRemote.Failure(reason: "the pixels differ from the locked ones, and " + error.reason)
        }
    }

    package func record(_ png: [UInt8], pixels: RGBABitmap, environment: RenderEnvironment) throws {
        let digest = pixels.pixelDigest
        try remote?.upload(Data(png), pixelDigest: digest)
        lock.lock(name, key: key, pixels: digest, environment: environment)
    }

    package func environmentNote(current: RenderEnvironment) -> String? {
        guard let recorded = lock.entry(name)?.environment else { return nil }
        let differences = recorded.differences(now: current)
        guard !differences.isEmpty else { return nil }
        return "The render environment changed since \(name) was locked: " + differences.joined(separator: "; ") + ".\n"
            + "If the new versions are expected, review the difference and accept it; otherwise debug the rendering.\n"
    }

    package func describe(into summary: inout FailureSummary) {
        summary.golden = location
        summary.lock = FailureSummary.LockReference(lockfile: lock.url.path, name: name, key: key, remote: remote?.url,
                                                   environment: RenderEnvironment.current())
    }
}
