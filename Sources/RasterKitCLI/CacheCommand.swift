import ArgumentParser
import Foundation
import RasterKit

/// `rasterkit cache stats|prune|clear`: look into and trim the persistent render store.
///
/// Exits 0 on success and 2 for usage mistakes and stores that cannot be opened (a missing
/// directory, a path that is a directory, no permission). A file that is not a usable store is
/// moved aside by the store itself, with a warning, and reported as a fresh, empty store.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, prune or clear RasterKit's persistent render store.",
        subcommands: [Stats.self, Prune.self, Clear.self],
        defaultSubcommand: Stats.self)

    /// `rasterkit cache stats`: entries, bytes and expired entries, per component type.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show what the render store holds.")

        @OptionGroup var store: CacheStoreOptions

        func run() throws {
            let report = store.withStore(byteLimit: nil) { disk in
                let statistics = try disk.statistics
                return CacheReport(path: store.url.path, entries: statistics.count, bytes: statistics.totalBytes,
                                   expired: statistics.expiredCount, types: try disk.typeSummaries())
            } ?? CacheReport(path: store.url.path)
            store.print(report)
        }
    }

    /// `rasterkit cache prune`: removes expired entries, then the least recently used ones
    /// until the store is within the byte limit.
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Remove expired entries, then least recently used ones over the byte limit.")

        @OptionGroup var store: CacheStoreOptions

        @Option(name: .customLong("byte-limit"),
                help: ArgumentHelp("Keep at most this many bytes of PNG data (default 512 MiB).", valueName: "bytes"))
        var byteLimit: Int?

        func validate() throws {
            if let byteLimit, byteLimit < 0 { throw ValidationError("--byte-limit must be 0 or more, not \(byteLimit)") }
        }

        func run() throws {
            let report = store.withStore(byteLimit: byteLimit) { disk in
                let pruned = try disk.prune()
                let statistics = try disk.statistics
                var report = CacheReport(path: store.url.path, entries: statistics.count, bytes: statistics.totalBytes,
                                         expired: statistics.expiredCount)
                report.removed = pruned.removedCount
                report.removedBytes = pruned.removedBytes
                report.evicted = pruned.evicted
                report.expiredRemoved = pruned.expired
                return report
            } ?? CacheReport(path: store.url.path, removed: 0, removedBytes: 0, evicted: 0, expiredRemoved: 0)
            store.print(report)
        }
    }

    /// `rasterkit cache clear`: removes every entry.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry from the render store.")

        @OptionGroup var store: CacheStoreOptions

        func run() throws {
            let report = store.withStore(byteLimit: nil) { disk in
                let removed = try disk.removeAll()
                return CacheReport(path: store.url.path, removed: removed)
            } ?? CacheReport(path: store.url.path, removed: 0)
            store.print(report)
        }
    }
}

/// The options every `cache` subcommand takes, and how they open the store.
struct CacheStoreOptions: ParsableArguments {
    @Option(name: .customLong("cache"),
            help: ArgumentHelp("The store file (default: $XDG_CACHE_HOME/rasterkit/renders.sqlite).", valueName: "path"))
    var path: String?

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    func validate() throws {
        if let path { try PathChecks.requireNonEmpty(path, "--cache") }
    }

    var url: URL { path.map { URL(fileURLWithPath: $0) } ?? DiskCache.defaultURL }

    /// Runs `body` on the opened store, or returns nil when there is no store file yet (nothing
    /// is created just to be looked at). Exits with 2 when the store cannot be opened or used.
    func withStore(byteLimit: Int?, _ body: (DiskCache) throws -> CacheReport) -> CacheReport? {
        let url = url
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if !exists {
            let directory = url.deletingLastPathComponent().path
            // The default store's directory appears with its first render; a given path must be real.
            if path != nil, !FileManager.default.fileExists(atPath: directory) {
                fail("cannot open the store '\(url.path)': the directory \(directory) does not exist")
            }
            return nil
        }
        do {
            let disk = try DiskCache(at: url, byteLimit: byteLimit ?? DiskCache.defaultByteLimit)
            let report = try body(disk)
            try disk.close()
            return report
        } catch {
            fail("cannot use the store '\(url.path)': \(error)")
        }
    }

    func print(_ report: CacheReport) {
        Swift.print(json ? report.json : report.summary)
    }

    /// Prints `message` (to stderr, and as JSON on stdout with `--json`) and exits with 2.
    func fail(_ message: String) -> Never {
        UsageFailure.exit(command: "cache", message, json: json)
    }
}
