import RasterKit

/// What a batch learned about each output while producing it, for the record of the run a
/// manifest run keeps in the store (``StoredRunRecord``): the render's key where it was
/// computed, and which outputs were written with their fallback and why.
final class BatchRunLog: Sendable {
    struct Entry: Sendable {
        var key: StableDigest?
        /// Written with the fallback's image.
        var fellBack = false
        /// The primary failed for a reason that may not recur, or that depends on the limits the
        /// run was given rather than on its inputs (a time, memory or size limit; cairo, libpng or
        /// librsvg running out of memory): such a run is not recorded, so the next one tries again.
        var mayNotRecur = false
    }

    /// A lock ThreadSanitizer can follow, like the batch's other shared counts.
    private let entries: Lock<[Entry]>

    init(count: Int) {
        entries = Lock(Array(repeating: Entry(), count: count))
    }

    func noteKey(_ key: StableDigest, at index: Int) {
        entries.withLock { $0[index].key = key }
    }

    func noteFallback(at index: Int, error: (any Error)?) {
        let mayNotRecur = error.map(Self.mayNotRecur) ?? true
        entries.withLock {
            $0[index].fellBack = true
            $0[index].mayNotRecur = mayNotRecur
        }
    }

    var snapshot: [Entry] { entries.withLock { $0 } }

    /// Whether `error` depends on the moment or the run's limits rather than the input's bytes.
    static func mayNotRecur(_ error: any Error) -> Bool {
        switch error {
        case RenderError.drawFailed(_, _, let underlying): mayNotRecur(underlying)
        case RenderError.timeLimitExceeded, RenderError.memoryBudgetExceeded, RenderError.cairo,
             RenderError.surfaceTooLarge, RenderError.limitExceeded: true
        case PNGError.tooLarge, PNGError.outOfMemory: true
        case SVGError.overLimit, SVGError.renderFailed: true
        default: false
        }
    }
}
