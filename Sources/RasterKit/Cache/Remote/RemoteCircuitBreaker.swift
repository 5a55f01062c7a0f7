import Foundation

/// Stops asking a remote store that is failing, and tries again later. After
/// `failureThreshold` faults in a row it opens for `retryInterval` seconds: nothing is asked, so a
/// store that is down or never answers costs one timeout, not one per render. Then one request
/// (a probe) may ask; its success closes the breaker, its failure opens it again for twice as
/// long (up to `maximumRetryInterval`).
final class RemoteCircuitBreaker: Sendable {
    private struct State {
        var consecutiveFailures = 0
        var openUntil: Double?
        var isProbing = false
        var interval: Double
    }

    private let failureThreshold: Int
    private let retryInterval: Double
    private let maximumRetryInterval: Double
    private let clock: @Sendable () -> Double
    private let state: Lock<State>

    init(failureThreshold: Int, retryInterval: Double, maximumRetryInterval: Double,
         clock: @escaping @Sendable () -> Double) {
        self.failureThreshold = max(1, failureThreshold)
        self.retryInterval = retryInterval
        self.maximumRetryInterval = max(retryInterval, maximumRetryInterval)
        self.clock = clock
        state = Lock(State(interval: retryInterval))
    }

    /// Whether a request may go to the store now. When the breaker is open and its interval is
    /// over, the first caller becomes the probe (and must report its outcome); others are refused.
    func mayAsk() -> Bool {
        let now = clock()
        return state.withLock { state in
            guard let openUntil = state.openUntil else { return true }
            guard now >= openUntil, !state.isProbing else { return false }
            state.isProbing = true
            return true
        }
    }

    /// Whether the breaker is open now (for statistics).
    var isOpen: Bool { state.withLock { $0.openUntil != nil } }

    /// The store answered (a hit or a miss): close the breaker.
    func recordSuccess() {
        state.withLock { state in
            state = State(interval: retryInterval)
        }
    }

    /// The store failed to answer. Returns true when this opened the breaker.
    @discardableResult
    func recordFailure() -> Bool {
        let now = clock()
        return state.withLock { state in
            state.consecutiveFailures += 1
            if state.isProbing {
                state.isProbing = false
                state.interval = min(state.interval * 2, maximumRetryInterval)
                state.openUntil = now + state.interval
                return true
            }
            guard state.openUntil == nil, state.consecutiveFailures >= failureThreshold else { return false }
            state.openUntil = now + state.interval
            return true
        }
    }
}
