import Foundation
import RasterKit
import RasterKitBatch

/// An `svg` batch planned on another thread from the moment its command line is read in plain
/// forms, while the rest of the command is made and checked (ArgumentParser's option types, the
/// store file). On a warm run into a new folder the two take about a millisecond each, and the
/// second processor was idle for both.
///
/// ``outputs(for:)`` takes the plan when it was started for the same batch, and plans anew
/// otherwise, so the result is always the plan of the batch the command runs. A plan is taken
/// once; one never taken (a line that then failed to validate) is simply not used.
enum SVGEarlyPlan {
    private typealias Plan = BackgroundValue<Result<[BatchOutput], SVGBatchError>>
    private static let started = Lock<(batch: SVGBatch, plan: Plan)?>(nil)

    /// Starts planning `batch` on another thread.
    static func start(_ batch: SVGBatch) {
        let plan = Plan { Result { () throws(SVGBatchError) in try batch.outputs() } }
        started.withLock { $0 = (batch, plan) }
    }

    /// The outputs of `batch`: those planned since ``start(_:)`` when it was given this batch,
    /// else planned now.
    static func outputs(for batch: SVGBatch) throws(SVGBatchError) -> [BatchOutput] {
        let early = started.withLock { started in
            defer { started = nil }
            return started
        }
        if let early, early.batch == batch { return try early.plan.value.get() }
        return try batch.outputs()
    }
}
