import ArgumentParser
import Foundation
import RasterKit
import RasterKitBatch

/// `--shard I/N`, or `--shard-count N` with the index from `JOB_COMPLETION_INDEX` (what a
/// Kubernetes Indexed Job sets in each of its pods): which part of a batch this run renders.
struct ShardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Render only shard I of N (I from 0, e.g. 0/4); N runs together write every output once.",
                               valueName: "I/N"))
    var shard: String?

    @Option(name: .customLong("shard-count"),
            help: "Split the batch into N shards and render the one $JOB_COMPLETION_INDEX names (Kubernetes Indexed Jobs).")
    var shardCount: Int?

    func validate() throws {
        _ = try resolved()
    }

    /// The shard these options name; the whole batch when neither option is given. Reads
    /// `JOB_COMPLETION_INDEX` only when `--shard-count` needs it.
    func resolved() throws -> Shard {
        if shard != nil, shardCount != nil {
            throw ValidationError("--shard and --shard-count cannot be used together")
        }
        if let shard {
            do { return try Shard(parsing: shard) } catch { throw ValidationError("--shard: \(error.description)") }
        }
        guard let shardCount else { return .whole }
        guard shardCount >= 1 else { throw ValidationError("--shard-count must be 1 or more, not \(shardCount)") }
        guard let text = EnvironmentVariable.value("JOB_COMPLETION_INDEX") else {
            throw ValidationError("--shard-count needs JOB_COMPLETION_INDEX in the environment, "
                                  + "as Kubernetes sets it in the pods of an Indexed Job")
        }
        guard let index = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("JOB_COMPLETION_INDEX '\(text)' is not a whole number")
        }
        do { return try Shard(index: index, count: shardCount) } catch {
            throw ValidationError("JOB_COMPLETION_INDEX \(index) is out of range for --shard-count \(shardCount): "
                                  + "it must be 0 to \(shardCount - 1)")
        }
    }
}
