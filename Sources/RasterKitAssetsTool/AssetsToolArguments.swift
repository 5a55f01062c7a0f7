import Foundation
import RasterKitBatch

/// The command line of `rasterkit-assets`, read without ArgumentParser: the part of
/// `rasterkit render` a build needs, each flag meaning what it means there.
///
/// ```
/// rasterkit-assets MANIFEST --out DIR [--format png|xcassets|ninepatch|webp]
///                  [--cache PATH | --no-cache] [--list-outputs] [--json] [--expect-outputs FILE]
/// ```
///
/// `--expect-outputs FILE` is the build plugin's own: the run fails before writing anything when
/// its outputs are not exactly the paths in FILE (one a line), what the build was planned with.
///
/// Options take their value as the next argument or after `=` (`--out=DIR`); `--` ends the
/// options.
struct AssetsToolArguments: Equatable {
    /// The manifest, YAML or JSON.
    var manifest: String
    /// The folder the outputs are written into.
    var out: String
    /// Every component in this format instead of the formats its outputs name.
    var format: ExportFormat?
    /// The render store; nil: the default store (as `rasterkit render` without `--cache`).
    var cache: String?
    /// No store, and every output rendered again.
    var noCache = false
    /// Print the outputs (and with `--json` the inputs) and render nothing.
    var listOutputs = false
    /// Print one JSON object instead of text.
    var json = false
    /// A file of the output paths the caller declared, one a line; the run refuses other outputs.
    var expectedOutputs: String?

    static let usage = """
        usage: rasterkit-assets MANIFEST --out DIR [--format png|xcassets|ninepatch|webp] \
        [--cache PATH | --no-cache] [--list-outputs] [--json] [--expect-outputs FILE]
        """

    /// Why a command line was refused; the tool prints it with the usage and exits with 2.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// `--help` was given: print the usage and exit 0.
    static let help = UsageError("help")

    /// Reads `arguments` (without the program's name).
    static func parse(_ arguments: [String]) throws(UsageError) -> AssetsToolArguments {
        var manifest: String?, out: String?, format: ExportFormat?, cache: String?, expectedOutputs: String?
        var noCache = false, listOutputs = false, json = false
        var index = 0
        var optionsEnded = false
        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                guard manifest == nil else {
                    throw UsageError("one manifest at a time: '\(manifest!)' and '\(argument)' were given")
                }
                manifest = argument
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let option = String(parts[0])
            let inline = parts.count == 2 ? String(parts[1]) : nil
            switch option {
            case "--":
                optionsEnded = true
            case "--out":
                guard out == nil else { throw UsageError("--out was given twice") }
                out = try value(for: option, inline: inline)
            case "--format":
                let text = try value(for: option, inline: inline)
                guard let parsed = ExportFormat(rawValue: text) else {
                    throw UsageError("--format \(text): give one of "
                                     + ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))
                }
                format = parsed
            case "--cache":
                cache = try value(for: option, inline: inline)
            case "--expect-outputs":
                expectedOutputs = try value(for: option, inline: inline)
            case "--no-cache", "--list-outputs", "--json", "--help", "-h":
                guard inline == nil else { throw UsageError("\(option) takes no value") }
                switch option {
                case "--no-cache": noCache = true
                case "--list-outputs": listOutputs = true
                case "--json": json = true
                default: throw help
                }
            default:
                throw UsageError("unknown option \(option)")
            }
        }
        guard let manifest else { throw UsageError("no manifest given") }
        guard !manifest.isEmpty else { throw UsageError("the manifest path is empty") }
        guard let out else { throw UsageError("--out DIR is required") }
        guard !out.isEmpty else { throw UsageError("--out is empty") }
        if let cache {
            guard !cache.isEmpty else { throw UsageError("--cache is empty") }
            guard !noCache else { throw UsageError("--cache and --no-cache cannot be used together") }
        }
        if let expectedOutputs {
            guard !expectedOutputs.isEmpty else { throw UsageError("--expect-outputs is empty") }
            guard !listOutputs else { throw UsageError("--expect-outputs and --list-outputs cannot be used together") }
        }
        return AssetsToolArguments(manifest: manifest, out: out, format: format, cache: cache, noCache: noCache,
                                   listOutputs: listOutputs, json: json, expectedOutputs: expectedOutputs)
    }
}
