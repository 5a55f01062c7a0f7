import Foundation

/// Runs `body(thread)` on `count` new threads at once and returns when all are done. Threads,
/// not tasks: a benchmark of lock contention should not depend on the concurrency pool.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            body(index)
            done.leave()
        }
        thread.start()
    }
    done.wait()
}
