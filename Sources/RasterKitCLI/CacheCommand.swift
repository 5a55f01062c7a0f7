import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch

/// `rasterkit cache stats|prune|clear|remove|export|import`: look into, trim and move the
/// persistent render store.
///
/// Exits 0 on success and 2 for usage mistakes and stores that cannot be used (a missing
/// directory, a path that is a directory, no permission, a damaged store for `stats`). A file
/// that is not a RasterKit store (another program's database, text) is refused and left as it
/// is. `stats` only reads; `clear` deletes the store's files; `prune` opens it for writing, and
/// a damaged store is then moved aside by the store itself, with a warning.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, prune, clear, remove entries from, export or import RasterKit's persistent render store.",
        subcommands: [Stats.self, Prune.self, Clear.self, Remove.self, Export.self, Import.self],
        defaultSubcommand: Stats.self)

    /// `rasterkit cache stats`: entries, bytes and expired entries, per component type.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show what the render store holds.")

        @OptionGroup var store: CacheStoreOptions

        /// Reads the store without opening it for writing: nothing is created, renamed or
        /// recovered just to be looked at. A missing store reports as empty, and says so.
        func run() throws {
            let url = store.url
            store.checkDirectory()
            let contents: DiskCacheContents?
            do { contents = try DiskCache.contents(at: url) } catch {
                store.fail(error)
            }
            guard let contents else {
                store.print(CacheReport(path: url.path, missing: true))
                return
            }
            store.print(CacheReport(path: url.path, entries: contents.count, bytes: contents.totalBytes,
                                    expired: contents.expiredCount, types: contents.types))
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

        /// Deletes the store's files rather than its rows: deleting rows needs free pages, so
        /// it fails on the full disk that most calls for a clear. Entries are counted first,
        /// read-only; a damaged store counts as none and is deleted all the same.
        func run() throws {
            let url = store.url
            store.checkDirectory()
            var removed = 0
            do {
                removed = try DiskCache.contents(at: url)?.count ?? 0
            } catch let error as DiskCacheError where error.isNotAStore {
                store.fail(error)
            } catch {
                // Damaged, or a companion link that reading refused: nothing can be counted,
                // and the store goes anyway (a link is removed, never followed).
            }
            do { try DiskCache.deleteStore(at: url) } catch {
                store.fail(error)
            }
            store.print(CacheReport(path: url.path, removed: removed))
        }
    }
}

/// The options every `cache` subcommand takes, and how they open the store.
struct CacheStoreOptions: ParsableArguments {
    @Option(name: .customLong("cache"),
            help: ArgumentHelp("The store file (default: $RASTERKIT_CACHE, else $XDG_CACHE_HOME/rasterkit/renders.sqlite).", valueName: "path"))
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
        checkDirectory()
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let disk = try DiskCache(at: url, byteLimit: byteLimit ?? DiskCache.defaultByteLimit)
            let report = try body(disk)
            try disk.close()
            return report
        } catch {
            fail(error)
        }
    }

    /// Exits with 2 when a given path's directory is missing, or the path is a directory. The
    /// default store's directory appears with its first render; a given path must be real.
    func checkDirectory() {
        let url = url
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            fail("cannot open the store '\(url.path)': SQLite error 14: the path is a directory, not a store file")
        }
        let directory = url.deletingLastPathComponent().path
        if path != nil, !FileManager.default.fileExists(atPath: directory) {
            fail("cannot open the store '\(url.path)': the directory \(directory) does not exist")
        }
    }

    /// Exits with 2 for `error`: a refusal says in its own words that the file was left alone.
    func fail(_ error: any Error) -> Never {
        if let error = error as? DiskCacheError, error.refusal != nil { fail(error.message) }
        fail("cannot use the store '\(url.path)': \(error)")
    }

    func print(_ report: CacheReport) {
        Swift.print(json ? report.json : report.summary)
    }

    /// Prints `message` (to stderr, and as JSON on stdout with `--json`) and exits with 2.
    func fail(_ message: String) -> Never {
        UsageFailure.exit(command: "cache", message, json: json)
    }
}
