import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RasterKit

/// The HTTP requests of one ``RemoteCache``, made with `URLSession` and waited for by the
/// calling thread (the remote tier's callers are threads that may block, never Swift
/// concurrency's pool).
///
/// `URLSession`'s own timeouts are idle timeouts in whole seconds on Linux, so the deadline is
/// kept here: a request not finished within `timeout` of the call is cancelled and answered
/// ``RemoteStoreError/timedOut``; the session's timeouts only back that up. A body is collected
/// by the session's delegate, which cancels the request as soon as the body is known to be
/// longer than the caller's limit (from `Content-Length`, or as the bytes arrive).
final class HTTPTransfers: Sendable {
    /// A request's outcome: the status and body of its response, or the fault.
    typealias Answer = Result<(status: Int, body: Data), RemoteStoreError>

    private let session: URLSession
    private let collector: Collector
    private let timeout: Double

    init(timeout: Double, maximumConnections: Int) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.backstop(timeout)
        configuration.timeoutIntervalForResource = Self.backstop(timeout)
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        collector = Collector()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: collector, delegateQueue: queue)
    }

    /// Cancels what is in flight; the session lets its delegate go.
    func close() {
        session.invalidateAndCancel()
    }

    /// Starts every request at once and waits for each, all within one deadline: one answer
    /// per request, in order. A body longer than `maximumBytes` is ``RemoteStoreError/tooLarge(limit:)``.
    func perform(_ requests: [URLRequest], maximumBytes: Int) -> [Answer] {
        let deadline = DispatchTime.now() + timeout
        let started = requests.map { request in
            var request = request
            request.timeoutInterval = Self.backstop(timeout)
            let task = session.dataTask(with: request)
            let done = collector.register(task.taskIdentifier, limit: maximumBytes)
            task.resume()
            return (task, done)
        }
        return started.map { task, done in
            if done.wait(timeout: deadline) == .timedOut {
                collector.finish(task.taskIdentifier, with: .failure(.timedOut))
                task.cancel()
            }
            return collector.remove(task.taskIdentifier)
        }
    }

    /// The session's own timeouts, in whole seconds and later than the deadline kept here.
    private static func backstop(_ timeout: Double) -> Double {
        (timeout + 1).rounded(.up)
    }
}

/// The session's delegate: each task's status and body, under one lock, and a semaphore the
/// waiting thread is woken with when the first outcome is known.
private final class Collector: NSObject, URLSessionDataDelegate, Sendable {
    /// One task's state; only ever read or written under ``transfers``' lock.
    private final class Transfer: @unchecked Sendable {
        let limit: Int
        let done = DispatchSemaphore(value: 0)
        var status = 0
        var body = Data()
        var outcome: HTTPTransfers.Answer?

        init(limit: Int) { self.limit = limit }
    }

    // The package's Lock rather than Synchronization's Mutex, whose hand-offs ThreadSanitizer cannot follow.
    private let transfers = Lock<[Int: Transfer]>([:])

    func register(_ task: Int, limit: Int) -> DispatchSemaphore {
        let transfer = Transfer(limit: limit)
        transfers.withLock { $0[task] = transfer }
        return transfer.done
    }

    /// Sets the task's outcome unless it has one: the first outcome — the answer, a fault, the
    /// deadline — is the one kept.
    func finish(_ task: Int, with outcome: HTTPTransfers.Answer) {
        let done = transfers.withLock { transfers -> DispatchSemaphore? in
            guard let transfer = transfers[task], transfer.outcome == nil else { return nil }
            transfer.outcome = outcome
            return transfer.done
        }
        done?.signal()
    }

    /// The task's outcome, once it has one, and forgets the task.
    func remove(_ task: Int) -> HTTPTransfers.Answer {
        transfers.withLock { $0.removeValue(forKey: task)?.outcome } ?? .failure(.transport("the request was never answered"))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let limit = transfers.withLock { transfers -> Int? in
            transfers[dataTask.taskIdentifier]?.status = status
            return transfers[dataTask.taskIdentifier]?.limit
        }
        if let limit, response.expectedContentLength > Int64(limit) {
            finish(dataTask.taskIdentifier, with: .failure(.tooLarge(limit: limit)))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = transfers.withLock { transfers -> Int? in
            guard let transfer = transfers[dataTask.taskIdentifier], transfer.outcome == nil else { return nil }
            guard transfer.body.count + data.count <= transfer.limit else { return transfer.limit }
            transfer.body.append(data)
            return nil
        }
        if let overLimit {
            finish(dataTask.taskIdentifier, with: .failure(.tooLarge(limit: overLimit)))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // A redirect is answered as the status it is (a fault): a cache never follows one.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let outcome: HTTPTransfers.Answer
        if let error {
            outcome = .failure((error as? URLError)?.code == .timedOut ? .timedOut : .transport(error.localizedDescription))
        } else {
            outcome = transfers.withLock { transfers in
                guard let transfer = transfers[task.taskIdentifier] else { return .failure(.transport("no response")) }
                return .success((transfer.status, transfer.body))
            }
        }
        finish(task.taskIdentifier, with: outcome)
    }
}
