import Foundation

/// A primary component's failure, and when it may be tried again.
struct FallbackEvent: Sendable {
    /// What the primary threw.
    let error: any Error
    let retryAt: ContinuousClock.Instant

    /// Whether `error` ends the whole request rather than the primary alone: cancellation and the
    /// render's time limit, which the secondary would meet too.
    static func endsRequest(_ error: any Error) -> Bool {
        switch error {
        case is CancellationError: true
        case RenderError.timeLimitExceeded: true
        case RenderError.drawFailed(_, _, let underlying): endsRequest(underlying)
        default: false
        }
    }
}

/// A rasterizer's memory of fallbacks, in memory only and for a short time: the primaries that
/// failed (a request within the retry interval is served the secondary without trying again),
/// and the renders that were made with a fallback (so ``RasterHost`` can show the error). Both
/// are bounded; an expired entry is as good as none.
final class FallbackRecords: Sendable {
    private struct Tables {
        var failed: [StableDigest: FallbackEvent] = [:]
        var served: [StableDigest: FallbackEvent] = [:]
    }

    /// Entries kept per table before expired ones are swept (and then the oldest dropped).
    static let capacity = 4_096
    private let tables = SanitizerVisibleMutex(Tables())

    /// The failure of the primary keyed `key`, while it may not be retried.
    func failure(of key: StableDigest) -> FallbackEvent? {
        tables.withLock { tables in
            guard let event = tables.failed[key] else { return nil }
            if event.retryAt > .now { return event }
            tables.failed[key] = nil
            return nil
        }
    }

    func recordFailure(_ event: FallbackEvent, of key: StableDigest) {
        tables.withLock { Self.insert(event, for: key, into: &$0.failed) }
    }

    /// The fallback the latest render of `key` was made with, until its primary may be retried.
    func fallback(servedFor key: StableDigest) -> FallbackEvent? {
        tables.withLock { tables in
            guard let event = tables.served[key], event.retryAt > .now else { return nil }
            return event
        }
    }

    /// Records that the render of `key` was made with `event`'s fallback, or (nil) without one.
    func noteRender(of key: StableDigest, fallback event: FallbackEvent?) {
        tables.withLock { tables in
            if let event {
                Self.insert(event, for: key, into: &tables.served)
            } else if !tables.served.isEmpty {
                tables.served[key] = nil
            }
        }
    }

    private static func insert(_ event: FallbackEvent, for key: StableDigest, into table: inout [StableDigest: FallbackEvent]) {
        if table.count >= capacity, table[key] == nil {
            let now = ContinuousClock.now
            table = table.filter { $0.value.retryAt > now }
            if table.count >= capacity, let soonest = table.min(by: { $0.value.retryAt < $1.value.retryAt }) {
                table[soonest.key] = nil
            }
        }
        table[key] = event
    }
}
