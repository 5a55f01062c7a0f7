import ArgumentParser

extension SVGCommand {
    /// The command `arguments` (after `svg`) describe, read without ArgumentParser, when every
    /// argument is in a plain form (``PlainArguments``) and the command validates; nil otherwise,
    /// and the caller hands the line to ArgumentParser, which gives every message and exit status.
    ///
    /// Values are converted with the same `init(argument:)` ArgumentParser uses. A single-value
    /// option or a flag given twice, a flag given a value and an unknown name all return nil, so
    /// the plain reading never accepts a line ArgumentParser would read differently.
    /// `PlainArgumentsTests` compares the two readings property by property, and fails when a
    /// property is left unset here, so an option added to the command must be added here too.
    init?(plainArguments arguments: [String]) {
        var reader = PlainArguments(arguments)
        var inputs: [String] = [], sizes: [Double] = [], scales: [Double] = [], post: [String] = []
        var out: String?, jobs: Int?, tint: String?, mode: ContentModeArgument?
        var allowExternalReferences = false, json = false, listOutputs = false
        var caching = CacheOptions.Plain(), limits = LimitOptions.Plain()
        while let item = reader.next() {
            guard case .option(let name, let inline) = item else {
                guard case .positional(let input) = item else { return nil }
                inputs.append(input)
                continue
            }
            let isRead: Bool
            switch name {
            case "size": isRead = PlainArguments.append(reader.value(inline).flatMap(Double.init(argument:)), to: &sizes)
            case "scale": isRead = PlainArguments.append(reader.value(inline).flatMap(Double.init(argument:)), to: &scales)
            case "post": isRead = PlainArguments.append(reader.value(inline), to: &post)
            case "out": isRead = PlainArguments.setOnce(&out, reader.value(inline))
            case "jobs": isRead = PlainArguments.setOnce(&jobs, reader.value(inline).flatMap(Int.init(argument:)))
            case "tint": isRead = PlainArguments.setOnce(&tint, reader.value(inline))
            case "mode": isRead = PlainArguments.setOnce(&mode, reader.value(inline).flatMap(ContentModeArgument.init(argument:)))
            case "allow-external-references": isRead = PlainArguments.raise(&allowExternalReferences, inline)
            case "json": isRead = PlainArguments.raise(&json, inline)
            case "list-outputs": isRead = PlainArguments.raise(&listOutputs, inline)
            default: isRead = caching.read(name, inline, &reader) || limits.read(name, inline, &reader)
            }
            guard isRead else { return nil }
        }
        guard let out else { return nil }
        self.init()
        self.inputs = inputs
        self.sizes = sizes
        self.scales = scales
        self.out = out
        self.jobs = jobs ?? DefaultJobs.count
        self.tint = tint
        self.mode = mode ?? .stretch
        self.post = post
        self.caching = caching.options
        self.limits = limits.options
        self.allowExternalReferences = allowExternalReferences
        self.json = json
        self.listOutputs = listOutputs
        // ArgumentParser validates the option groups, then the command.
        do {
            try self.caching.validate()
            try self.limits.validate()
            try validate()
        } catch {
            return nil
        }
    }
}

extension CacheOptions {
    /// `--cache`, `--no-cache`, `--remote-cache` and `--remote-timeout` read by a command's
    /// ``PlainArguments`` reading.
    struct Plain {
        private var cache: String?, remoteCache: String?, remoteTimeout: Double?
        private var noCache = false

        /// Reads option `name` when it is one of these; false when it is not, or is not plain.
        mutating func read(_ name: Substring, _ inline: Substring?, _ reader: inout PlainArguments) -> Bool {
            switch name {
            case "cache": PlainArguments.setOnce(&cache, reader.value(inline))
            case "no-cache": PlainArguments.raise(&noCache, inline)
            case "remote-cache": PlainArguments.setOnce(&remoteCache, reader.value(inline))
            case "remote-timeout": PlainArguments.setOnce(&remoteTimeout, reader.value(inline).flatMap(Double.init(argument:)))
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
