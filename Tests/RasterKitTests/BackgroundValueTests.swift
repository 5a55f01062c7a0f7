import Foundation
import Synchronization
import Testing
@testable import RasterKit

/// A value made on another thread while the caller works: every reader, on any thread, waits
/// for it and sees the one value made.
@Suite struct BackgroundValueTests {
    @Test func readersWaitForTheOneValueMade() async {
        let makes = Atomic<Int>(0)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let background = BackgroundValue { () -> [Int] in
            makes.add(1, ordering: .relaxed)
            started.signal()
            release.wait()
            return Array(0..<1000)
        }
        started.wait()
        // Readers on many threads, all waiting while the value is being made.
        let readers = (0..<16).map { _ in Task.detached { background.value.reduce(0, +) } }
        release.signal()
        for reader in readers { #expect(await reader.value == 499_500) }
        #expect(background.value.count == 1000)
        #expect(makes.load(ordering: .relaxed) == 1)
    }

    @Test func theValueIsMadeOnAnotherThread() {
        let caller = pthread_self()
        let background = BackgroundValue { pthread_self() }
        #expect(pthread_equal(background.value, caller) == 0)
    }
}
