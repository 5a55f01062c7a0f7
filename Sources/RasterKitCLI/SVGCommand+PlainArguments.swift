import ArgumentParser
import RasterKitCommandOptions
import RasterKit

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
    ///
    /// A line whose batch is valid also starts that batch's plan on another thread
    /// (``SVGEarlyPlan``), for ``run()`` to take.
    init?(plainArguments arguments: [String]) {
        var reader = PlainArguments(arguments)
        var inputs: [String] = [], sizes: [Double] = [], scales: [Double] = [], post: [String] = []
        var out: String?, jobs: Int?, tint: String?, mode: ContentMode?
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
            case "mode": isRead = PlainArguments.setOnce(&mode, reader.value(inline).flatMap(ContentMode.init(argument:)))
            case "allow-external-references": isRead = PlainArguments.raise(&allowExternalReferences, inline)
            case "json": isRead = PlainArguments.raise(&json, inline)
            case "list-outputs": isRead = PlainArguments.raise(&listOutputs, inline)
            default: isRead = caching.read(name, inline, &reader) || limits.read(name, inline, &reader)
            }
            guard isRead else { return nil }
        }
        guard let out else { return nil }
        // The folders are listed and the outputs planned on another thread while ArgumentParser's
        // option types are made and the rest of the line is checked; run() takes the plan if it
        // is this one. Only a batch that ``validate()`` will accept is started.
        let tintColor = tint.flatMap { try? Self.parseTint($0) }
        if post.isEmpty, !inputs.isEmpty, !sizes.isEmpty, (sizes + scales).allSatisfy({ $0.isFinite && $0 > 0 }),
           tint == nil || tintColor != nil {
            SVGEarlyPlan.start(Self.batch(inputs: inputs, sizes: sizes, scales: scales, mode: mode ?? .stretch,
                                          tint: tintColor, allowExternalReferences: allowExternalReferences))
        }
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
