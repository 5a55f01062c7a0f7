import RasterKit
/// The running counts of a batch, shared by its workers.
final class BatchTally: Sendable {
    enum Outcome {
        case drawn, cached
        /// Written with the fallback's image: the component failed, and is tried again by the
        /// next run that renders.
        case fellBack
        case failure(String)
    }

    private struct Counts {
        var done = 0, drawn = 0, cached = 0, fellBack = 0
        var failures: [BatchSummary.Failure] = []
    }

    private let total: Int
    /// Workers hand the counts to each other after every output: a lock ThreadSanitizer can follow.
    private let counts = Lock(Counts())
    private let progress: (@Sendable (BatchProgress) -> Void)?
    private let elapsed: @Sendable () -> Double

    init(total: Int, progress: (@Sendable (BatchProgress) -> Void)?, elapsed: @escaping @Sendable () -> Double) {
        self.total = total
        self.progress = progress
        self.elapsed = elapsed
    }

    /// Counts one finished output and reports progress; under the lock, so reports arrive in order.
    func record(_ output: BatchOutput, _ outcome: Outcome) {
        record(path: output.path, source: output.source, outcome)
    }

    /// Counts the output written to `path`, made from `source`.
    func record(path: String, source: String, _ outcome: Outcome) {
        counts.withLock { counts in
            counts.done += 1
            switch outcome {
            case .drawn: counts.drawn += 1
            case .cached: counts.cached += 1
            case .fellBack: counts.fellBack += 1
            case .failure(let reason):
                counts.failures.append(BatchSummary.Failure(file: source, output: path, reason: reason))
            }
            progress?(BatchProgress(done: counts.done, total: total, failed: counts.failures.count, elapsed: elapsed()))
        }
    }

    func summary() -> BatchSummary {
        counts.withLock { counts in
            let failures = counts.failures.sorted { ($0.output, $0.file) < ($1.output, $1.file) }
            return BatchSummary(total: total, drawn: counts.drawn, cached: counts.cached, fellBack: counts.fellBack,
                                failed: failures.count, seconds: elapsed(), failures: failures)
        }
    }
}
