import RasterKit
import Foundation

/// Starts a batch's worker threads with `pthread_create`, which says when the system refuses a
/// thread (under `ulimit -u`, or out of memory for stacks); Foundation's `Thread.start()` gives
/// no such answer, and a batch waiting for a worker that never ran waited forever.
struct WorkerThreads: Sendable {
    /// The stack each worker gets.
    var stackSize: Int
    /// For tests: the starts (numbered from 0) that fail as if the system had refused them.
    var failingStarts: Set<Int> = []

    /// What starting the workers came to.
    struct Outcome {
        /// Workers running.
        var started: Int
        /// Why the first refused start was refused; nil when every worker started.
        var failure: String?
    }

    /// Starts up to `count` threads; each runs `body` with its number among the started ones
    /// (0, 1, …) and then leaves `finished`, which each start enters first. A refused start
    /// leaves it at once, so `finished.wait()` waits for exactly the workers that run.
    func start(_ count: Int, finished: DispatchGroup, _ body: @escaping @Sendable (Int) -> Void) -> Outcome {
        var outcome = Outcome(started: 0)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        for attempt in 0..<count {
            finished.enter()
            let index = outcome.started
            let work = Work {
                body(index)
                finished.leave()
            }
            let context = Unmanaged.passRetained(work).toOpaque()
            var thread = pthread_t()
            let status = failingStarts.contains(attempt)
                ? EAGAIN
                : pthread_create(&thread, &attributes, { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
            if status == 0 {
                outcome.started += 1
            } else {
                Unmanaged<Work>.fromOpaque(context).release()
                finished.leave()
                if outcome.failure == nil { outcome.failure = String(cString: strerror(status)) }
            }
        }
        return outcome
    }

    /// The closure a thread runs, boxed to pass through `pthread_create`'s context pointer.
    private final class Work: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
