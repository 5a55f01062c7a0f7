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

/// A rasterizer's memory of the primaries that failed, in memory only and for a short time: a
/// request within the retry interval is served the secondary without trying again. Bounded; an
/// expired entry is as good as none.
final class FallbackRecords: Sendable {
    /// Entries kept before expired ones are swept (and then the soonest to expire dropped).
    static let capacity = 4_096
    private let failed = Lock([StableDigest: FallbackEvent]())

    /// The failure of the primary keyed `key`, while it may not be retried.
    func failure(of key: StableDigest) -> FallbackEvent? {
        failed.withLock { failed in
            guard let event = failed[key] else { return nil }
            if event.retryAt > .now { return event }
            failed[key] = nil
            return nil
        }
    }

    func recordFailure(_ event: FallbackEvent, of key: StableDigest) {
        failed.withLock { table in
            if table.count >= Self.capacity, table[key] == nil {
                let now = ContinuousClock.now
                table = table.filter { $0.value.retryAt > now }
                if table.count >= Self.capacity, let soonest = table.min(by: { $0.value.retryAt < $1.value.retryAt }) {
                    table[soonest.key] = nil
                }
            }
            table[key] = event
        }
    }
}
