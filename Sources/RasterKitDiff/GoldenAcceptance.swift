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

    /// Writes `failure`'s actual image over its golden, which must lie inside `goldensRoot`
    /// (seen through `..` and symbolic links), records the render environment beside it and
    /// removes the failure's artifacts; returns the golden's path. With `dryRun`, checks
    /// everything and writes nothing. Only mismatched and missing goldens are accepted.
    package static func accept(_ failure: GoldenReport.Failure, goldensRoot: String, dryRun: Bool = false) throws(Refusal) -> String {
        guard let kind = failure.kind else {
            throw Refusal(reason: "its artifacts do not say what failed (written by an older RasterKit); run the test again")
        }
        guard kind.isAcceptable else {
            throw Refusal(reason: "it rendered differently each time, so there is no one image to accept; make it deterministic first")
        }
        guard failure.goldensRoot != nil, failure.golden.hasPrefix("/") else {
            throw Refusal(reason: "its golden (\(failure.golden)) is not a golden file this command writes")
        }
        guard let actual = failure.actual else {
            throw Refusal(reason: "its actual image is missing or unusable" + (failure.leftOut["actual.png"].map { " (\($0))" } ?? ""))
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

    /// Removes `failure`'s artifacts: a reviewer rejected the change (the golden stays, and the
    /// test fails again until the rendering is fixed), or accepted it.
    package static func forget(_ failure: GoldenReport.Failure) {
        try? FileManager.default.removeItem(atPath: failure.artifactsFolder)
    }
}
