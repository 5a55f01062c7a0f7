import ArgumentParser
import Foundation
import RasterKit

/// `--cache PATH | --no-cache`: the render store of every command that renders, `rasterkit`'s
/// and the plugins' `rasterkit-assets` alike (the remote store's flags join them in
/// `RasterKitCommandOptions`' `CacheOptions`).
package struct StoreOptions: ParsableArguments {
    /// No flags given: the default store.
    package init() {}

    @Option(help: "The render cache to read and update (default: $RASTERKIT_CACHE, else $XDG_CACHE_HOME/rasterkit/renders.sqlite).")
    package var cache: String?

    @Flag(name: .customLong("no-cache"),
          help: "Use no render cache on disk, and render every output again, even those already up to date.")
    package var noCache = false

    /// Usage mistakes found before anything renders, so they exit with 2 rather than failing
    /// every output: both flags at once, an empty path, a path whose folder is missing, a folder,
    /// a file that is not a render store.
    package func validate() throws {
        if cache != nil && noCache { throw ValidationError("--cache and --no-cache cannot be used together") }
        guard let cache else { return }
        try PathChecks.requireNonEmpty(cache, "--cache")
        // Plain stat calls: URL arithmetic and FileManager cost a warm run a fifth of a millisecond here.
        let slash = cache.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folderPath = slash.map { $0 == cache.startIndex ? "/" : String(cache[..<$0]) } ?? "."
        var info = stat()
        guard stat(folderPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            let folder = URL(fileURLWithPath: cache).deletingLastPathComponent().path
            throw ValidationError("--cache \(cache): the folder \(folder) does not exist")
        }
        if stat(cache, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ValidationError("--cache \(cache) is a folder; give the path of the store's file")
        }
        // Another program's database or a text file given by mistake is refused before
        // anything renders, and left as it is. Other problems only cost the disk tier.
        do { try DiskCache.checkStoreFile(atPath: cache) } catch let error as DiskCacheError where error.isNotAStore {
            throw ValidationError("--cache: \(error.message)")
        } catch {
            // Anything else is reported once, when the store is opened, and rendering goes on.
        }
    }

    /// Whether the disk store's file exists.
    package var storeExists: Bool { FileManager.default.fileExists(atPath: cache ?? DiskCache.defaultURL.path) }

    /// Whether outputs already written and unchanged may be left alone.
    package var reusesUpToDateOutputs: Bool { !noCache }

    /// Bytes of decoded renders a batch keeps in memory.
    package static let batchMemoryLimit = 64 << 20

    /// The cache a command renders through: memory, the disk store unless `--no-cache`, and
    /// `remote` when given. A store that cannot be opened (full disk, read-only, a refused
    /// `-wal`) costs the disk tier only: one warning on stderr, from `tool`, and the command
    /// renders with memory (and the remote store) alone.
    package func makeCache(memoryLimit: Int = Self.batchMemoryLimit, remote: (any RemoteStore)? = nil,
                           remoteOptions: RemoteCacheOptions = RemoteCacheOptions(), tool: String) -> RasterCache {
        // A batch writes each output once: memory serves renders outputs share (nested
        // components, identical SVGs, one render in two formats), mostly close together in the
        // batch's order; everything else is in the store. A run without a store must not hold
        // every output it made either, so the limit stays well below the machine's memory.
        if noCache { return RasterCache(memoryLimit: memoryLimit) }
        do {
            let disk = try cache.map { try DiskCache(at: URL(fileURLWithPath: $0)) } ?? DiskCache.default
            return RasterCache(memoryLimit: memoryLimit, disk: disk, remote: remote, remoteOptions: remoteOptions)
        } catch {
            let message = "\(tool): warning: rendering without the render cache, which cannot be used: \(error)\n"
            FileHandle.standardError.write(Data(message.utf8))
            return RasterCache(memoryLimit: memoryLimit, remote: remote, remoteOptions: remoteOptions)
        }
    }
}
