import Foundation
import RasterKit
import RasterKitDiff

/// `rasterkit goldens check --lock`: the lockfile a check reads and records into, and what it
/// spared. A golden whose output has the locked key, in the locked environment, is not drawn; a
/// drawn one whose pixels have the locked digest passes without its PNG being fetched.
final class GoldenLockRun {
    let session: GoldenLockSession
    let remote: GoldenRemote?
    /// Whether the record mode writes goldens (`missing`, `failed`, `all`).
    let records: Bool
    /// `--record all`: every golden is drawn and written again.
    let redrawsAll: Bool
    private let environment = RenderEnvironment.current()
    private let environmentName: String
    /// Goldens not drawn: key and environment unchanged.
    private(set) var unchanged = 0
    /// Goldens drawn.
    private(set) var drawn = 0
    /// Drawn goldens whose pixels were the locked ones under another key or environment.
    private(set) var samePixels = 0

    init(lockfile: String, remote: GoldenRemote?, mode: RecordMode) throws(GoldenLockfileError) {
        session = try GoldenLockSession(url: URL(fileURLWithPath: lockfile))
        self.remote = remote
        records = [.missing, .failed, .all].contains(mode)
        redrawsAll = mode == .all
        environmentName = GoldenLockfile.environmentName(of: environment)
    }

    /// Whether `name` is locked to `key` in this environment, so drawing it would draw its golden.
    func isUnchanged(_ name: String, key: String?) -> Bool {
        guard !redrawsAll, let key, let locked = session.entry(name)?.entry, locked.key == key, locked.environment == environmentName else {
            drawn += 1
            return false
        }
        unchanged += 1
        return true
    }

    /// Whether `image`, drawn for `name`, has its locked pixels; then, when the mode records, its
    /// entry takes the new key and environment, so the next run does not draw it.
    func hasLockedPixels(_ name: String, key: String?, _ image: RasterImage) -> Bool {
        guard let locked = session.entry(name)?.entry else { return false }
        let pixels = RGBABitmap(image).pixelDigest
        guard locked.pixelDigest == pixels else { return false }
        samePixels += 1
        if records, let key { session.lock(name, key: key, pixels: pixels, environment: environment) }
        return true
    }

    /// Where `name`'s golden is kept in this run.
    func golden(_ name: String, key: String?) -> LockedGolden {
        LockedGolden(name: name, key: key ?? "-", lock: session, remote: remote)
    }

    /// Writes what was locked, and returns notes for the summary.
    func finish() throws -> [String] {
        let locked = session.unsavedCount
        try session.save()
        var notes = ["lock \(session.url.path): \(unchanged) unchanged and not drawn, \(drawn) drawn"]
        if locked > 0 {
            notes.append("\(locked) golden\(locked == 1 ? "" : "s") locked" + (remote == nil
                ? " without a remote cache: their PNGs are stored nowhere, so a later failure cannot show a diff (give --remote-cache)"
                : " (PNGs in \(remote!.url))"))
        }
        if samePixels > 0, !records {
            notes.append("\(samePixels) golden\(samePixels == 1 ? "" : "s") drew the locked pixels under a new key or environment; "
                + "a run that records (--record missing) locks the new keys so they are not drawn again")
        }
        return notes
    }
}
