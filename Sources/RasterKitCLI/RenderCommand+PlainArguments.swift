import ArgumentParser
import Dispatch
import RasterKit
import RasterKitBatch
import RasterKitCommandOptions

extension RenderCommand {
    /// The command `arguments` (after `render`) describe, read without ArgumentParser, as
    /// ``SVGCommand/init(plainArguments:)`` reads an `svg` line: only plain forms, each option
    /// once (`--post` aside), converted with ArgumentParser's own `init(argument:)`, validated
    /// the same way; nil for anything else, which ArgumentParser then reads.
    init?(plainArguments arguments: [String]) {
        var reader = PlainArguments(arguments)
        var manifest: String?, out: String?, jobs: Int?, format: FormatArgument?, quality: Int?, contactSheet: String?
        var json = false, listOutputs = false
        var caching = CacheOptions.Plain(), sharding = ShardOptions.Plain(), limits = LimitOptions.Plain()
        while let item = reader.next() {
            guard case .option(let name, let inline) = item else {
                // One manifest: a second positional is ArgumentParser's to refuse.
                guard case .positional(let path) = item, manifest == nil else { return nil }
                manifest = path
                continue
            }
            let isRead = switch name {
            case "out": PlainArguments.setOnce(&out, reader.value(inline))
            case "jobs": PlainArguments.setOnce(&jobs, reader.value(inline).flatMap(Int.init(argument:)))
            case "format": PlainArguments.setOnce(&format, reader.value(inline).flatMap(FormatArgument.init(argument:)))
            case "quality": PlainArguments.setOnce(&quality, reader.value(inline).flatMap(Int.init(argument:)))
            case "contact-sheet": PlainArguments.setOnce(&contactSheet, reader.value(inline))
            case "json": PlainArguments.raise(&json, inline)
            case "list-outputs": PlainArguments.raise(&listOutputs, inline)
            default:
                caching.read(name, inline, &reader) || sharding.read(name, inline, &reader)
                    || limits.read(name, inline, &reader)
            }
            guard isRead else { return nil }
        }
        guard let manifest, let out else { return nil }
        // What the run's identity needs, made while ArgumentParser's option types are built
        // below (about a millisecond each); `run()` then finds it made.
        DispatchQueue.global(qos: .userInitiated).async {
            ManifestRun.prepareIdentity()
            _ = Processors.available
        }
        self.init()
        self.manifest = manifest
        self.out = out
        self.jobs = jobs ?? DefaultJobs.count
        self.caching = caching.options
        self.sharding = sharding.options
        self.limits = limits.options
        self.format = format
        self.quality = quality
        self.contactSheet = contactSheet
        self.json = json
        self.listOutputs = listOutputs
        // ArgumentParser validates the option groups, in order, then the command.
        do {
            try self.caching.validate()
            try self.sharding.validate()
            try self.limits.validate()
            try validate()
        } catch {
            return nil
        }
    }
}
