import RasterKit
internal import CAffinity

/// The processor each batch worker keeps to, when a batch has a worker for every processor
/// the process may use.
///
/// Why: Pango 1.50 matches fonts on two helper threads it starts for each new font pattern, and
/// the thread laying out the text waits for the match. When every processor is busy with a
/// worker, the scheduler often queues such a helper behind the worker of another processor,
/// and the waiting worker's own processor idles until that one is interrupted: about 4 ms of
/// the showcase's 130 on two processors. A thread inherits the processors of the thread that
/// starts it, so with each worker kept to one processor its helpers run there as soon as it
/// waits. With fewer workers than processors the helpers find an idle one, and nothing is
/// pinned; work is still claimed one output at a time, so a slow processor only gets less.
struct WorkerPlacement: Sendable {
    private let processors: [Int32]

    /// nil when there are fewer workers than processors, only one processor, or the kernel
    /// does not say which processors the process may use.
    init?(workers: Int) {
        let allowed = Self.processorsOfThisThread()
        guard allowed.count > 1, workers >= allowed.count else { return nil }
        processors = allowed
    }

    /// The processors the calling thread may run on; empty when the kernel does not say.
    static func processorsOfThisThread() -> [Int32] {
        var allowed = [Int32](repeating: 0, count: Int(RK_MAX_PROCESSORS))
        let count = Int(rk_thread_processors(&allowed, Int32(allowed.count)))
        return Array(allowed.prefix(max(count, 0)))
    }

    /// Keeps the calling thread, worker number `worker`, and the threads it starts, to one
    /// processor; workers beyond the number of processors share them in turn. A refusal by
    /// the kernel leaves the thread where it was.
    func pin(worker: Int) {
        _ = rk_pin_thread(processors[worker % processors.count])
    }
}
