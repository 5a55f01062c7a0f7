import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// HTTP/1.1 connections with bounds a client cannot stretch: at most a fixed number open (one
/// more is answered `503` with `Retry-After` and closed at once, so a flood of half-open
/// connections never uses up the process's file descriptors nor hides `/health`), closed when
/// idle (Hummingbird's idle timeout: a request head dribbled in slowly counts as idle), and
/// closed when a response has waited on the client for longer than a write timeout (a reader
/// that never reads). Everything else is Hummingbird's `HTTP1Channel`.
struct GuardedHTTPChannel: ServerChildChannel {
    /// A served connection, or one refused over the limit.
    enum Value: ServerChildChannelValue {
        case served(HTTP1Channel.Value)
        case refused(any Channel)

        var channel: any Channel {
            switch self {
            case .served(let value): value.channel
            case .refused(let channel): channel
            }
        }
    }

    let base: HTTP1Channel
    let connections: ConnectionCount
    let writeTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.open() else {
            // Written straight to the socket: no HTTP handler is set up for a refused connection.
            var buffer = channel.allocator.buffer(capacity: 256)
            buffer.writeString(Self.refusal)
            channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
            return channel.eventLoop.makeSucceededFuture(Value.refused(channel))
        }
        let connections = self.connections
        channel.closeFuture.whenComplete { _ in connections.close() }
        let timeout = writeTimeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(WriteStallHandler(timeout: timeout))
        }.flatMap {
            base.setup(channel: channel, logger: logger).map { .served($0) }
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard case .served(let served) = value else { return }
        await base.handle(value: served, logger: logger)
    }

    /// The whole response to a connection over the limit.
    static let refusal: String = {
        let body = #"{"code":"too_many_connections","error":"the server has too many connections open; retry shortly","status":503}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n"
            + "Retry-After: 1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }()
}

/// The connections a server has open, under a limit.
final class ConnectionCount: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Counts a new connection; false (counting nothing) when `limit` are open.
    func open() -> Bool {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func close() { count.subtract(1, ordering: .relaxed) }

    /// How many are open.
    var current: Int { count.load(ordering: .relaxed) }
}

/// Closes a connection once its responses have waited on the client for `timeout` in all: NIO
/// marks a channel unwritable while its outbound buffer is past the high-water mark (so memory
/// waiting on one connection is bounded by that mark and the response being written), and the
/// time spent so is added up, so neither a client that reads nothing nor one that reads a trickle
/// (which makes the channel flip between writable and not) can hold a response for longer.
final class WriteStallHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let timeout: TimeAmount
    /// Time spent unwritable before the current stall.
    private var stalled = TimeAmount.zero
    private var stallStarted: NIODeadline?
    private var pending: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            if let stallStarted { stalled = stalled + (NIODeadline.now() - stallStarted) }
            stallStarted = nil
            pending?.cancel()
            pending = nil
        } else if stallStarted == nil {
            stallStarted = .now()
            let channel = context.channel
            pending = context.eventLoop.scheduleTask(in: max(.zero, timeout - stalled)) { channel.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
        context.fireChannelInactive()
    }
}
