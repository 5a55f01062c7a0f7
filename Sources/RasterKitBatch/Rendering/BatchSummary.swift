import RasterKit
/// What a batch did: how many outputs were drawn, served from the cache, or failed, and why.
/// Encodes to the JSON object `rasterkit svg --json` and `rasterkit render --json` print.
public struct BatchSummary: Codable, Hashable, Sendable {
    /// One output that was not written.
    public struct Failure: Codable, Hashable, Sendable {
        /// The output's source (the input file).
        public var file: String
        /// The output's path relative to the output directory.
        public var output: String
        /// Why it failed.
        public var reason: String

        /// A failure of the output at `output`, made from `file`.
        public init(file: String, output: String, reason: String) {
            self.file = file
            self.output = output
            self.reason = reason
        }
    }

    /// Outputs in the batch.
    public var total: Int
    /// Outputs drawn by this run.
    public var drawn: Int
    /// Outputs served from the memory or disk cache, or from a draw another output shared.
    public var cached: Int
    /// Outputs written with their fallback's image because their component failed (a photo that
    /// cannot be decoded): neither drawn nor cached as themselves. The next run that renders
    /// tries the component first again; a run found up to date (its inputs unchanged, so the
    /// component would fail again) reports the outputs its folder holds with their fallback.
    public var fellBack = 0
    /// Outputs not written; `failures` says why.
    public var failed: Int
    /// Wall-clock time of the run.
    public var seconds: Double
    /// Every failed output, ordered by output path.
    public var failures: [Failure]
    /// Problems that did not fail an output but should be seen, such as worker threads the
    /// system refused to start. Left out of the JSON when empty.
    public var warnings: [String] = []
    /// What the remote cache tier did during the run (hits, misses, errors, uploads), or nil
    /// when the run used none. Left out of the JSON when nil.
    public var remote: RemoteCacheStatistics?

    /// A summary with the given counts.
    public init(total: Int, drawn: Int, cached: Int, fellBack: Int = 0, failed: Int, seconds: Double, failures: [Failure]) {
        self.total = total
        self.drawn = drawn
        self.cached = cached
        self.fellBack = fellBack
        self.failed = failed
        self.seconds = seconds
        self.failures = failures
    }

    private enum CodingKeys: String, CodingKey { case total, drawn, cached, fellBack, failed, seconds, failures, warnings, remote }

    /// Decodes a summary; one written before `warnings` or `fellBack` existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(total: try container.decode(Int.self, forKey: .total), drawn: try container.decode(Int.self, forKey: .drawn),
                  cached: try container.decode(Int.self, forKey: .cached),
                  fellBack: try container.decodeIfPresent(Int.self, forKey: .fellBack) ?? 0,
                  failed: try container.decode(Int.self, forKey: .failed), seconds: try container.decode(Double.self, forKey: .seconds),
                  failures: try container.decode([Failure].self, forKey: .failures))
        warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
        remote = try container.decodeIfPresent(RemoteCacheStatistics.self, forKey: .remote)
    }

    /// Encodes the summary, leaving `warnings` out when there are none, so the JSON of a
    /// batch without them is what it always was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(drawn, forKey: .drawn)
        try container.encode(cached, forKey: .cached)
        try container.encode(fellBack, forKey: .fellBack)
        try container.encode(failed, forKey: .failed)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(failures, forKey: .failures)
        if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
        try container.encodeIfPresent(remote, forKey: .remote)
    }

    /// The counts as the commands print them: `380 rendered, 18 from cache, 2 failed`, with
    /// `, 12 with their fallback` before the failures when any fell back.
    public var countsDescription: String {
        "\(drawn) rendered, \(cached) from cache, " + (fellBack > 0 ? "\(fellBack) with their fallback, " : "") + "\(failed) failed"
    }

    /// Outputs written (drawn, cached, or with a fallback's image).
    public var written: Int { drawn + cached + fellBack }
}

/// How far a batch has got; reported after every output.
public struct BatchProgress: Hashable, Sendable {
    /// Outputs finished, written or failed.
    public var done: Int
    /// Outputs in the batch.
    public var total: Int
    /// Outputs that failed so far.
    public var failed: Int
    /// Seconds since the batch started.
    public var elapsed: Double

    /// Progress after `done` of `total` outputs and `elapsed` seconds.
    public init(done: Int, total: Int, failed: Int, elapsed: Double) {
        self.done = done
        self.total = total
        self.failed = failed
        self.elapsed = elapsed
    }

    /// Outputs per second so far (0 before the first one).
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds left at the current rate; nil until there is a rate.
    public var estimatedSecondsRemaining: Double? {
        guard done > 0, rate > 0 else { return nil }
        return Double(total - done) / rate
    }

    /// 0...1.
    public var fractionDone: Double { total > 0 ? Double(done) / Double(total) : 1 }
}

extension BatchSummary {
    /// Adds `failures` of files written beside the images (catalogs' `Contents.json`), which
    /// count in the total and among the failures, in the summary's order.
    mutating func add(fileFailures failures: [Failure]) {
        guard !failures.isEmpty else { return }
        total += failures.count
        failed += failures.count
        self.failures = (self.failures + failures).sorted { ($0.output, $0.file) < ($1.output, $1.file) }
    }
}
