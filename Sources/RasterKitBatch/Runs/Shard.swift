import RasterKit
/// One of N machines sharing a batch: each output belongs to exactly one shard, chosen from a
/// stable digest of its path, so N runs with `index` 0 to N-1 together write exactly the files
/// of one run, none twice. Numbered like Kubernetes' `JOB_COMPLETION_INDEX`.
///
/// ```swift
/// let shard = try Shard(parsing: "2/8")           // the third of eight
/// let plan = try manifest.plan(shard: shard)
/// ```
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 0 ..< count.
    public let index: Int
    /// How many shards share the batch.
    public let count: Int

    /// The whole batch, unsharded.
    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    /// Shard `index` (from 0) of `count`.
    public init(index: Int, count: Int) throws(BatchPlanError) {
        guard count >= 1 else { throw .invalidShard("\(index)/\(count)", reason: "the shard count must be 1 or more, not \(count)") }
        guard (0..<count).contains(index) else {
            throw .invalidShard("\(index)/\(count)", reason: "with \(count) shards the index must be 0 to \(count - 1)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `I/N`, as `--shard` takes it.
    public init(parsing text: String) throws(BatchPlanError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidShard(text, reason: "it must be I/N, two whole numbers such as 0/4")
        }
        try self.init(index: index, count: count)
    }

    /// Whether the work named `unit` (an output's path, or an image set's folder) is this shard's.
    public func includes(_ unit: String) -> Bool {
        count == 1 || Shard.assignment(of: unit, count: count) == index
    }

    /// The shard `unit` belongs to, from a digest that is the same in every process.
    static func assignment(of unit: String, count: Int) -> Int {
        var sip = SipHash128()
        sip.write(0x5368_6172_6455_6E74 as UInt64)
        var text = unit
        text.withUTF8 { sip.write(UnsafeRawBufferPointer($0)) }
        return Int(sip.finalize().high % UInt64(count))
    }

    /// `I/N`, as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }
}
