import Foundation
import NIOCore
import Synchronization

/// Encoded responses (PNG, WebP bytes) by render key and format, bounded in bytes: a warm hit
/// then costs a dictionary lookup, not a PNG encode, and its body is the stored buffer itself
/// (copy-on-write), so responses to many clients share one copy however slowly they read.
/// The least recently stored entries go first; entries are immutable (a key names one image
/// forever), so there is nothing to invalidate.
final class EncodedResponseCache: Sendable {
    private struct State {
        var entries: [String: ByteBuffer] = [:]
        var order: [String] = []
        var head = 0
        var bytes = 0
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    /// Bytes held now.
    var bytes: Int { state.withLock { $0.bytes } }

    func buffer(for key: String) -> ByteBuffer? { state.withLock { $0.entries[key] } }

    /// Keeps `data` under `key`, dropping the oldest entries to stay within the limit; a
    /// response larger than a quarter of the limit is not kept.
    func store(_ data: ByteBuffer, for key: String) {
        guard data.readableBytes <= limit / 4 else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = data
            state.order.append(key)
            state.bytes += data.readableBytes
            while state.bytes > limit, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                state.bytes -= state.entries.removeValue(forKey: oldest)?.readableBytes ?? 0
            }
            // The queue of keys is compacted now and then rather than shifted on each eviction.
            if state.head > 1_024, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }
}
