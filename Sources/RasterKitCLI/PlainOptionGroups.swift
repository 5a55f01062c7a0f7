import ArgumentParser
import RasterKitCommandOptions

// The option groups `svg` and `render` share, read by their commands' plain readings
// (``PlainArguments``): each collects its options, then makes the group with the defaults
// ArgumentParser would give the rest.

extension CacheOptions {
    /// `--cache`, `--no-cache`, `--remote-cache` and `--remote-timeout` read by a command's
    /// ``PlainArguments`` reading.
    struct Plain {
        private var cache: String?, remoteCache: String?, remoteTimeout: Double?
        private var noCache = false, remoteRequired = false

        /// Reads option `name` when it is one of these; false when it is not, or is not plain.
        mutating func read(_ name: Substring, _ inline: Substring?, _ reader: inout PlainArguments) -> Bool {
            switch name {
            case "cache": PlainArguments.setOnce(&cache, reader.value(inline))
            case "no-cache": PlainArguments.raise(&noCache, inline)
            case "remote-cache": PlainArguments.setOnce(&remoteCache, reader.value(inline))
            case "remote-timeout": PlainArguments.setOnce(&remoteTimeout, reader.value(inline).flatMap(Double.init(argument:)))
            case "remote-required": PlainArguments.raise(&remoteRequired, inline)
            default: false
            }
        }

        /// The options read, with their defaults for the rest.
        var options: CacheOptions {
            var options = CacheOptions()
            options.cache = cache
            options.noCache = noCache
            options.remoteCache = remoteCache
            options.remoteTimeout = remoteTimeout ?? 1
            options.remoteRequired = remoteRequired
            return options
        }
    }
}

extension LimitOptions {
    /// `--max-memory`, `--time-limit`, `--max-side`, `--max-pixels` and `--max-file-size` read by
    /// a command's ``PlainArguments`` reading.
    struct Plain {
        private var maxMemory: Int?, timeLimit: Double?, maxSide: Int?, maxPixels: Int?, maxFileSize: Int?

        /// Reads option `name` when it is one of these; false when it is not, or is not plain.
        mutating func read(_ name: Substring, _ inline: Substring?, _ reader: inout PlainArguments) -> Bool {
            switch name {
            case "max-memory": PlainArguments.setOnce(&maxMemory, reader.value(inline).flatMap(Int.init(argument:)))
            case "time-limit": PlainArguments.setOnce(&timeLimit, reader.value(inline).flatMap(Double.init(argument:)))
            case "max-side": PlainArguments.setOnce(&maxSide, reader.value(inline).flatMap(Int.init(argument:)))
            case "max-pixels": PlainArguments.setOnce(&maxPixels, reader.value(inline).flatMap(Int.init(argument:)))
            case "max-file-size": PlainArguments.setOnce(&maxFileSize, reader.value(inline).flatMap(Int.init(argument:)))
            default: false
            }
        }

        /// The options read; those not given stay unset, as ArgumentParser leaves them.
        var options: LimitOptions {
            var options = LimitOptions()
            options.maxMemory = maxMemory
            options.timeLimit = timeLimit
            options.maxSide = maxSide
            options.maxPixels = maxPixels
            options.maxFileSize = maxFileSize
            return options
        }
    }
}

extension ShardOptions {
    /// `--shard` and `--shard-count` read by a command's ``PlainArguments`` reading.
    struct Plain {
        private var shard: String?, shardCount: Int?

        /// Reads option `name` when it is one of these; false when it is not, or is not plain.
        mutating func read(_ name: Substring, _ inline: Substring?, _ reader: inout PlainArguments) -> Bool {
            switch name {
            case "shard": PlainArguments.setOnce(&shard, reader.value(inline))
            case "shard-count": PlainArguments.setOnce(&shardCount, reader.value(inline).flatMap(Int.init(argument:)))
            default: false
            }
        }

        /// The options read; those not given stay unset.
        var options: ShardOptions {
            var options = ShardOptions()
            options.shard = shard
            options.shardCount = shardCount
            return options
        }
    }
}
