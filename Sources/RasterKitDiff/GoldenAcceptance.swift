import Foundation
import RasterKit

/// A reviewer's verdict on a golden failure, carried out: accepting writes the failure's actual
/// image over its golden; rejecting keeps the golden. Either way the failure's artifacts go, so
/// the report stops listing it. Shared by `rasterkit goldens accept` and the review page of
/// `rasterkit report --serve`.
package enum GoldenAcceptance {
    /// Why a failure was not accepted, for the reviewer.
    package struct Refusal: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    /// Makes `failure`'s actual image its golden and removes the failure's artifacts; returns
    /// where the golden now is. A golden file must lie inside `goldensRoot` (seen through `..`
    /// and symbolic links); the render environment is recorded beside it. A locked golden
    /// (``GoldenLockfile``) is uploaded to its remote cache (`remote` makes the store of an
    /// address) and locked in its lockfile, which must be `lockfile` when one is given and a
    /// golden lockfile already when it exists. With `dryRun`, checks everything and writes
    /// nothing. Only mismatched, missing and unreadable goldens are accepted.
    package static func accept(_ failure: GoldenReport.Failure, goldensRoot: String, lockfile: String? = nil,
                               remote: (String?) -> GoldenRemote? = { _ in nil },
                               dryRun: Bool = false) throws(Refusal) -> String {
        guard let kind = failure.kind else {
            throw Refusal(reason: "its artifacts do not say what failed (written by an older RasterKit); run the test again")
        }
        guard kind.isAcceptable else {
            throw Refusal(reason: "it rendered differently each time, so there is no one image to accept; make it deterministic first")
        }
        if let lock = failure.lock {
            return try acceptLocked(failure, lock, allowedLockfile: lockfile, remote: remote, dryRun: dryRun)
        }
        guard failure.goldensRoot != nil, failure.golden.hasPrefix("/") else {
            throw Refusal(reason: "its golden (\(failure.golden)) is not a golden file this command writes")
        }
        guard let actual = failure.actual else {
            throw Refusal(reason: "its actual image is missing or unusable" + (failure.leftOut["actual.png"].map { " (\($0))" } ?? ""))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: goldensRoot, isDirectory: &isFolder), isFolder.boolValue else {
            throw Refusal(reason: "the goldens folder \(goldensRoot) does not exist (give it with --goldens)")
        }
        let root = PathContainment.canonical(goldensRoot)
        let golden = PathContainment.canonical(failure.golden)
        guard golden.hasSuffix(".png"), PathContainment.isInside(golden, root), golden != root else {
            throw Refusal(reason: "its golden \(failure.golden) is not inside the goldens folder \(goldensRoot)")
        }
        guard !dryRun else { return golden }
        do {
            // The bytes GoldenReport encoded anew from the decoded pixels: nothing of the
            // artifact file itself is copied. Folders below the root are made without following links.
            try AtomicFileWriter.write(actual, to: golden, below: root)
            try GoldenEnvironmentFile(goldenURL: URL(fileURLWithPath: golden)).record(RenderEnvironment.current())
        } catch {
            throw Refusal(reason: "cannot write \(golden): \(error)")
        }
        forget(failure)
        return golden
    }

    /// ``accept(_:goldensRoot:lockfile:remote:dryRun:)`` for a locked golden.
    private static func acceptLocked(_ failure: GoldenReport.Failure, _ lock: FailureSummary.LockReference,
                                     allowedLockfile: String?, remote: (String?) -> GoldenRemote?,
                                     dryRun: Bool) throws(Refusal) -> String {
        let path = PathContainment.canonical(lock.lockfile)
        if let allowedLockfile, path != PathContainment.canonical(allowedLockfile) {
            throw Refusal(reason: "its lockfile \(lock.lockfile) is not \(allowedLockfile)")
        }
        if let problem = GoldenLockfile.nameProblem(lock.name) { throw Refusal(reason: "its name cannot be locked: \(problem)") }
        let url = URL(fileURLWithPath: path)
        // Only a lockfile is ever rewritten: a path that holds anything else is refused, and
        // without `lockfile` none is created where the artifacts say.
        guard allowedLockfile != nil || FileManager.default.fileExists(atPath: path) else {
            throw Refusal(reason: "its lockfile \(lock.lockfile) does not exist; name it with --lock to create it")
        }
        do { _ = try GoldenLockfile(contentsOf: url) } catch { throw Refusal(reason: "\(error)") }
        guard let png = failure.actual, let pixels = try? RGBABitmap(pngData: png) else {
            throw Refusal(reason: "its actual image is missing or unusable" + (failure.leftOut["actual.png"].map { " (\($0))" } ?? ""))
        }
        let store = remote(lock.remote)
        let digest = pixels.pixelDigest
        let place = "\(path): \(lock.name) (pixels \(digest.hex)" + (store.map { ", PNG in \($0.url))" } ?? ", PNG stored nowhere: no remote cache)")
        guard !dryRun else { return place }
        do {
            try store?.upload(png, pixelDigest: digest)
            let session = try GoldenLockSession(url: url)
            session.lock(lock.name, key: lock.key, pixels: digest, environment: lock.environment ?? RenderEnvironment.current())
            try session.save()
        } catch {
            throw Refusal(reason: "cannot lock \(lock.name) in \(path): \(error)")
        }
        forget(failure)
        return place
    }

    /// Removes `failure`'s artifacts: a reviewer rejected the change (the golden stays, and the
    /// test fails again until the rendering is fixed), or accepted it.
    package static func forget(_ failure: GoldenReport.Failure) {
        try? FileManager.default.removeItem(atPath: failure.artifactsFolder)
    }
}
